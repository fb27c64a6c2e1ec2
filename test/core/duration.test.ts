/** A duration as a user types it: a whole number and a unit. */
import { expect, test } from 'vitest';
import { durationMs } from '../../src/core/duration.ts';

test('a whole number with ms, s, m or h is that many milliseconds; anything else is no duration', () => {
  expect(durationMs('250ms')).toBe(250);
  expect(durationMs('90s')).toBe(90_000);
  expect(durationMs('15m')).toBe(900_000);
  expect(durationMs('2h')).toBe(7_200_000);
  for (const text of ['', '15', '0s', '1.5m', '15 m', 'm', '-1s', '1d']) expect(durationMs(text), text).toBeUndefined();
});
