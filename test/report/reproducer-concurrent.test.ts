/**
 * The days of a write that no other write of a concurrent run may touch,
 * whichever way a range's end day is read: only there does every serial
 * order agree on what the read shows.
 */
import { expect, test } from 'vitest';
import { ownDays } from '../../src/report/reproducer-concurrent.ts';

test('a range sharing its end day with another keeps the days before it', () => {
  expect(ownDays({ start: '2019-01-02', end: '2019-01-04' }, [{ start: '2019-01-04', end: '2019-01-06' }])).toEqual([
    { start: '2019-01-02', end: '2019-01-03' },
  ]);
});

test('a range cut by another in its middle keeps two pieces; its own end day is never certain', () => {
  expect(ownDays({ start: '2024-01-01', end: '2024-01-10' }, [{ start: '2024-01-04', end: '2024-01-05' }])).toEqual([
    { start: '2024-01-01', end: '2024-01-03' },
    { start: '2024-01-06', end: '2024-01-09' },
  ]);
});

test('a range another covers whole keeps no day', () => {
  expect(ownDays({ start: '2024-01-03', end: '2024-01-05' }, [{ start: '2024-01-01', end: '2024-01-31' }])).toEqual([]);
});
