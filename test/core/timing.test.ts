/**
 * The one clock's windows hold together: the read a moment after a write, and
 * a restoration's settled read, come after the stale window of the same
 * timing, else the suite would misread the stale-read faults; a server asked
 * to keep windows the suite cannot judge refuses to start.
 */
import { expect, test } from 'vitest';
import { checkTiming, embeddedTiming, TARGET_TIMING } from '../../src/core/timing.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';

test('both timings can be judged; a moment inside the stale window cannot', () => {
  expect(checkTiming(TARGET_TIMING)).toBeUndefined();
  expect(checkTiming(embeddedTiming())).toBeUndefined();
  expect(checkTiming({ ...embeddedTiming(), momentMs: embeddedTiming().staleReadMs })).toContain('must come after');
  expect(checkTiming({ ...embeddedTiming(), settleMs: 1 })).toContain("restoration's settled read");
});

test('a reference server with such a timing is refused before it listens', async () => {
  await expect(startReferenceServer({ timing: { ...TARGET_TIMING, momentMs: 10 } })).rejects.toThrow(
    "the reference server's timing cannot be judged",
  );
});
