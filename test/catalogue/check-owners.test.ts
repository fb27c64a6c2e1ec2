/**
 * A shared check (a list page is an envelope, a walk lists each resource
 * once, a read's answer has its shape) is charged to the rule whose record
 * names it among its `checks`: exactly one rule of the catalogue names each,
 * and the traffic judges read the same record.
 */
import { expect, test } from 'vitest';
import { LIST_ANSWER_JUDGES } from '../../src/rules/judges/list-answer.ts';
import type { SharedCheck } from '../../src/rules/judges/observed.ts';
import { READ_ANSWER_JUDGES } from '../../src/rules/judges/read-answers.ts';
import { EACH_RESOURCE_ONCE } from '../../src/rules/judges/walk.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { checkOwners } from '../../src/runner/check-owners.ts';
import type { Rule } from '../../src/rules/types.ts';

const SHARED: readonly SharedCheck[] = [...LIST_ANSWER_JUDGES, ...READ_ANSWER_JUDGES, EACH_RESOURCE_ONCE];

test('each shared check is named by exactly one rule of the catalogue', async () => {
  const rules = allRules(await loadCatalogue());
  for (const check of SHARED) {
    const naming = rules.filter((r) => r.checks?.includes(check)).map((r) => r.id);
    expect(naming, check.name).toHaveLength(1);
  }
  const ownerOf = checkOwners(rules);
  // The owner is the rule whose clause the check holds: a page's envelope is §4.9's.
  expect(ownerOf(LIST_ANSWER_JUDGES[0]!)).toBe('pagination.envelope');
  expect(ownerOf(EACH_RESOURCE_ONCE)).toBe('pagination.each-resource-once');
});

test('a check two rules name, or none, is a mistake of the records, said at once', async () => {
  const rules = allRules(await loadCatalogue());
  const envelope = rules.find((r) => r.id === 'pagination.envelope');
  const limit = rules.find((r) => r.id === 'pagination.limit-respected');
  if (!envelope || !limit) throw new Error('the catalogue lacks the paging rules');
  const twice: Rule[] = [envelope, { ...limit, checks: [...(limit.checks ?? []), ...(envelope.checks ?? [])] }];
  expect(() => checkOwners(twice)).toThrow(/is named by both pagination.envelope and pagination.limit-respected/);
  expect(() => checkOwners([limit])(EACH_RESOURCE_ONCE)).toThrow(/no rule of the catalogue names the check/);
});

test('a rule read from traffic by the answers its checks judge has such a check', async () => {
  for (const rule of allRules(await loadCatalogue())) {
    if (rule.traffic?.by !== 'answers' || rule.checks === undefined) continue;
    const reading = rule.traffic;
    expect(
      rule.checks.some((c) => 'operation' in c && c.operation === reading.operation),
      rule.id,
    ).toBe(true);
  }
});
