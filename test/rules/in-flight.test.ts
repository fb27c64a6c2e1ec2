/**
 * Which exchanges were in flight at once (src/rules/judges/in-flight.ts), by
 * their times: the write-effects judge leaves a resource unjudged where two
 * of its writes were, and skips a read made while one was.
 */
import { describe, expect, test } from 'vitest';
import { Flights } from '../../src/rules/judges/in-flight.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { exchange } from '../helpers/roles-log.ts';

const timed = (sent: number, answered: number): Observed => ({
  ...exchange('resources.assign-activity-rate', `sent at ${sent}`, {}, 204),
  at: { sent, answered },
});

describe('Flights', () => {
  test('two writes whose times overlap are each in flight with another; one before and one after are not', () => {
    const [early, a, b, late] = [timed(0, 5), timed(10, 30), timed(20, 40), timed(40, 45)];
    const flights = new Flights([late, b, a, early].flatMap((o) => (o ? [o] : [])));
    expect([early, a, b, late].map((o) => flights.withAnother(o))).toEqual([false, true, true, false]);
  });

  test('a long write overlaps one sent well after the next: the one after the next is still found', () => {
    const [long, short, third] = [timed(0, 100), timed(10, 20), timed(50, 60)];
    const flights = new Flights([long, short, third]);
    expect([long, short, third].map((o) => flights.withAnother(o))).toEqual([true, true, true]);
  });

  test('a read while a write was in flight, and not one before or after it', () => {
    const flights = new Flights([timed(10, 30), timed(100, 120)]);
    expect(flights.during(timed(0, 10))).toBe(false);
    expect(flights.during(timed(0, 11))).toBe(true);
    expect(flights.during(timed(29, 50))).toBe(true);
    expect(flights.during(timed(30, 99))).toBe(false);
    expect(flights.during(timed(110, 111))).toBe(true);
  });

  test('exchanges without times are taken one after another', () => {
    const untimed = exchange('resources.assign-activity-rate', 'no times', {}, 204);
    const flights = new Flights([untimed, timed(0, 10)]);
    expect(flights.withAnother(untimed)).toBe(false);
    expect(flights.during(untimed)).toBe(false);
  });
});
