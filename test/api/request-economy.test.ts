/**
 * Economy: the default run (the embedded server, default depth) at a fixed
 * seed sends no more requests than its ceiling, so that a run fits the
 * request bucket of the real service (500, refilled at 4 a second) with
 * room to spare. A count, never a time. The goal is 500 requests; the
 * catalogue of today reaches the ceiling below, and a rule that adds
 * requests must find them room first (docs/performance.md: each depth's requests and
 * where they go; `requestsPerRule` in results.json).
 */
import { expect, test } from 'vitest';
import { runConformance } from '../../src/api/index.ts';

/**
 * Requests of the default run at seed 1: 1237 measured (shared reads in flight vary it by a few). What each
 * rule added, and when, is in CHANGELOG.md.
 */
const CEILING = 1250;

test(`the default run at seed 1 sends at most ${CEILING} requests`, async () => {
  const run = await runConformance({ seed: 1 });
  expect(run.summary.outcome).toBe('conformant');
  expect(run.requests?.total ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(CEILING);
});

/** Requests of the quick run at seed 1: 603 measured. */
const QUICK_CEILING = 615;

test(`the quick run at seed 1 sends at most ${QUICK_CEILING} requests`, async () => {
  const run = await runConformance({ seed: 1, depth: 'quick' });
  expect(run.summary.outcome).toBe('conformant');
  expect(run.requests?.total ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(QUICK_CEILING);
});
