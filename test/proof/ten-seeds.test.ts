/**
 * The faults of requests at once, reads right after writes and departures
 * one time in N, each caught cleanly in every one of ten seeds: the whole
 * catalogue against the server with that fault, as the mutation run does,
 * the suite drawing from the seed and the server generated from it (so a
 * departure one time in N falls at another request of its count). At each
 * seed, what the mutation run asserts: the owner FAILs at the declared place,
 * every rule named beside it FAILs and no other, every SKIP is declared, no
 * rule ends in ERROR, and the run's HAR judged again gives the same verdicts.
 *
 * The cases run a few at a time: a run mostly waits (reads after writes,
 * pauses before a confirmation), and each has its own server and engine.
 */
import { describe, test } from 'vitest';
import { runMutation } from '../../src/mutation/run-mutations.ts';
import type { FaultName } from '../../src/reference-server/faults.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { expectCaughtCleanly } from '../helpers/caught-cleanly.ts';

const FAULTS = [
  'rates-lost-update',
  'revoke-lost-update',
  'rates-stale-read',
  'invalid-team-ids-as-star-one-in-five',
  'invalid-limit-accepted-one-in-ten',
] as const satisfies readonly FaultName[];
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

const catalogue = await loadCatalogue();
const cases = FAULTS.flatMap((fault) => SEEDS.map((seed) => ({ fault, seed })));

describe.concurrent(
  'each fault of requests at once, stale reads and rare departures is caught cleanly at every one of ten seeds',
  () => {
    test.for(cases)('$fault at seed $seed', { timeout: 300_000 }, async ({ fault, seed }, { expect }) => {
      expectCaughtCleanly(expect, await runMutation(fault, catalogue, seed));
    });
  },
);
