/**
 * What a run of the whole catalogue against a fault must show (the mutation
 * run, the ten seeds, both timings): what every proof asserts (expectCaught),
 * and every rule named beside the owner FAILs and no other, and every SKIP is
 * declared.
 */
import type { ExpectStatic } from 'vitest';
import type { MutationOutcome } from '../../src/mutation/run-mutations.ts';

export function expectCaughtCleanly(expect: ExpectStatic, outcome: MutationOutcome): void {
  expectCaught(expect, outcome);
  expect(outcome.unexpected, 'rules failing that the fault does not name').toEqual([]);
  expect(outcome.alsoPassed, 'every rule alsoFails names must FAIL').toEqual([]);
  expect(outcome.undeclaredSkips, 'every SKIP is declared in skips, with why').toEqual([]);
}

/**
 * What every proof asserts of a fault's run, the quick one of only the rules
 * the fault reaches too: the owner FAILs at the declared place, no rule ends
 * in ERROR, and the run's HAR judged again gives the verdicts it gave. The
 * other rules' verdicts hang on what else ran (which resources the claims
 * gave them): the runs of the whole catalogue hold them.
 */
export function expectCaught(expect: ExpectStatic, outcome: MutationOutcome): void {
  const { rule, where, finder } = outcome.expected;
  expect(outcome.verdicts[rule], `${rule} must FAIL against ${outcome.fault}`).toBe('FAIL');
  expect(
    outcome.caught,
    `caught at "${String(where)}"${finder ? ` in ${finder}'s requests` : ''}: ${JSON.stringify(outcome.reportedAt)}`,
  ).toBe(true);
  expect(outcome.errors, 'a mutation run ends no rule in ERROR').toEqual([]);
  expect(outcome.rejudgedOtherwise, "the run's HAR, judged again, gives every verdict it gave").toEqual([]);
}
