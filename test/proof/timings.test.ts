/**
 * One clock, two timings (src/core/timing.ts): the faults whose departures
 * are a matter of time (reads served stale for a while, writes that wait
 * between reading and writing, departures one time in N) are caught cleanly
 * whether the suite and the faulty server share the embedded server's short
 * windows or a real target's, so a verdict does not hang on which the run had.
 */
import { describe, test } from 'vitest';
import { embeddedTiming, TARGET_TIMING } from '../../src/core/timing.ts';
import { runMutation } from '../../src/mutation/run-mutations.ts';
import type { FaultName } from '../../src/reference-server/faults.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { expectCaughtCleanly } from '../helpers/caught-cleanly.ts';

const SAMPLE = [
  'rates-stale-read',
  'roles-stale-read',
  'teams-lost-update',
  'revoke-lost-update',
  'teams-concurrent-assignments-dropped',
  'invalid-limit-accepted-one-in-ten',
] as const satisfies readonly FaultName[];
const TIMINGS = { embedded: embeddedTiming(), target: TARGET_TIMING };

const catalogue = await loadCatalogue();
const cases = SAMPLE.flatMap((fault) => (['embedded', 'target'] as const).map((timing) => ({ fault, timing })));

describe.concurrent('faults of time are caught cleanly under either timing', () => {
  test.for(cases)('$fault with the $timing timing', { timeout: 300_000 }, async ({ fault, timing }, { expect }) => {
    expectCaughtCleanly(expect, await runMutation(fault, catalogue, undefined, TIMINGS[timing]));
  });
});
