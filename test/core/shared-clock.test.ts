/**
 * The clock the suite shares with the server it started: a wait moves it on
 * at once only while the run holds it alone, and the server, reading the same
 * clock, sees the pause the wait stands for; outside `alone`, and for real
 * sleeps (deadlines, retries, a faulty server's gap), time is real.
 */
import { expect, test } from 'vitest';
import { embeddedTiming, SharedClock } from '../../src/core/timing.ts';
import { StaleReads } from '../../src/reference-server/stale-reads.ts';

/** How far the clock is ahead of real time (two readings, so within a millisecond or two of what it skipped). */
function skipped(clock: { now(): number }): number {
  return clock.now() - Date.now();
}

/** `actual` is `expected` give or take the tick between two readings. */
function near(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(2);
}

test('a wait outside alone sleeps; inside alone it moves the clock on by its length', async () => {
  const clock = new SharedClock();
  const realBefore = Date.now();
  await clock.wait(30);
  expect(Date.now() - realBefore).toBeGreaterThanOrEqual(25);

  await clock.alone(async () => {
    const before = skipped(clock);
    // Ten seconds of waits under a 5 s test timeout: the clock moved on, real time did not.
    await clock.wait(5_000);
    await clock.wait(5_000);
    near(skipped(clock) - before, 10_000);
  });
});

test('a sleep is real even while the clock is held alone: a deadline or a retry does not skip', async () => {
  const clock = new SharedClock();
  await clock.alone(async () => {
    const before = skipped(clock);
    const realBefore = Date.now();
    await clock.sleep(30);
    expect(Date.now() - realBefore).toBeGreaterThanOrEqual(25);
    near(skipped(clock), before);
  });
});

test('an aborted wait rejects with the reason, held alone or not', async () => {
  const clock = new SharedClock();
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  await expect(clock.alone(() => clock.wait(1_000, controller.signal))).rejects.toThrow('stop');
  await expect(clock.wait(1_000, controller.signal)).rejects.toThrow();
});

test('the server sees a skipped wait as the pause it stands for: a stale read catches up a moment later', async () => {
  const timing = embeddedTiming();
  const reads = new StaleReads<string>();
  const resource = {};
  reads.wrote(resource, 'before', timing);
  expect(reads.read(resource, 'after', timing)).toBe('before');
  expect(reads.read(resource, 'after', timing)).toBe('before');
  await timing.clock.alone(() => timing.clock.wait(timing.momentMs));
  expect(reads.read(resource, 'after', timing)).toBe('after');
});

test('each embedded timing has a clock of its own: one run moving its clock on does not move another', async () => {
  const one = embeddedTiming();
  const other = embeddedTiming();
  const before = skipped(other.clock);
  await one.clock.alone(() => one.clock.wait(60_000));
  near(skipped(one.clock), 60_000);
  near(skipped(other.clock), before);
});
