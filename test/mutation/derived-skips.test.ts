/**
 * A SKIP the engine marked blocked by a rule the catch lets fail (its owner,
 * or one of `alsoFails`) is expected without being declared; a SKIP blocked
 * by any other rule, or with another cause, must still be declared with why.
 */
import { expect, test } from 'vitest';
import type { RuleResult } from '../../src/core/types.ts';
import { at } from '../../src/mutation/place.ts';
import { judgeCatch, type CatchOf } from '../../src/mutation/run-mutations.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

const OWNER = 'pagination.exact-multiple-empty-page';

function skipped(ruleId: string, extra: Partial<RuleResult>): RuleResult {
  const [first] = fixtureRun().results;
  if (!first) throw new Error('the fixture run has no result');
  return { ...first, ruleId, verdict: 'SKIP', violations: [], ...extra };
}

function undeclared(results: RuleResult[], expected: Partial<CatchOf> = {}): string[] {
  const run = fixtureRun();
  const owner = run.results.filter((r) => r.ruleId === OWNER);
  const catchOf: CatchOf = { rule: OWNER, where: at('limit 2, page 3', 'next_token'), ...expected };
  return judgeCatch({ ...run, results: [...owner, ...results] }, catchOf).undeclaredSkips;
}

test('blocked by the owner, or by a rule the catch lets fail: expected, not listed', () => {
  const byOwner = skipped('list.orders-ascending', { blockedBy: OWNER, reason: `blocked by ${OWNER}: …` });
  const byAlso = skipped('list.ids-filter', {
    blockedBy: 'pagination.envelope',
    reason: 'blocked by pagination.envelope: …',
  });
  expect(undeclared([byOwner])).toEqual([]);
  expect(undeclared([byAlso], { alsoFails: ['pagination.envelope'] })).toEqual([]);
});

test('blocked by a rule the catch does not let fail, or skipped for another cause: undeclared', () => {
  const byOther = skipped('list.orders-ascending', {
    blockedBy: 'list.ids-filter',
    reason: 'blocked by list.ids-filter: …',
  });
  const thin = skipped('list.with-teams', { reason: 'the profile names no team' });
  expect(undeclared([byOther])).toEqual(['list.orders-ascending: SKIP undeclared (blocked by list.ids-filter: …)']);
  expect(undeclared([thin])).toEqual(['list.with-teams: SKIP undeclared (the profile names no team)']);
  expect(undeclared([thin], { skips: { 'list.with-teams': 'names no team' } })).toEqual([]);
});
