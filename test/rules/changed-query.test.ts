/**
 * §4.9 rule 5 over traffic of any client (src/rules/judges/changed-query.ts):
 * a token sent with other filters, or other orders, than the request whose
 * answer gave it must be refused with 422; the same query, or a token some
 * request of the same query was given, is no changed query.
 */
import { expect, test } from 'vitest';
import { judgeChangedQueries } from '../../src/rules/judges/changed-query.ts';
import { isNoEvidence, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';

let seq = 0;
function list(request: Record<string, unknown>, status: number, nextToken: string | null): Observed {
  seq += 1;
  const body = status === 200 ? { data: [], next_token: nextToken } : { message: 'the next_token is invalid' };
  return {
    operation: 'resources.list',
    step: `resources.list, HAR entry ${seq}`,
    request,
    status,
    body,
    text: JSON.stringify(body),
    earlierStatuses: [],
    credential: 'other',
  };
}

const ids = (value: string[]) => [{ key: 'resource.ids', value }];
const orders = [{ key: 'resource.attribute', direction: 'asc', attribute: 'last_name' }];
const page = (token: string | null, extra: Record<string, unknown> = {}) => ({
  kind_id: '1',
  pagination: { limit: 2, next_token: token },
  ...extra,
});

test('a token sent with other filters: 422 passes, 200 fails', () => {
  for (const [status, fails] of [
    [422, false],
    [200, true],
  ] as const) {
    const log = [list(page(null, { filters: ids(['1', '2', '3']) }), 200, 't1'), list(page('t1'), status, null)];
    expect(violationsOf(judgeChangedQueries(log, 'filters')).length > 0).toBe(fails);
    // Only the filters changed: nothing for the orders' rule to judge.
    expect(isNoEvidence(judgeChangedQueries(log, 'orders'))).toBe(true);
  }
});

test('a token sent with other orders, the same filters: the orders rule judges it', () => {
  const log = [list(page(null), 200, 't1'), list(page('t1', { orders }), 200, null)];
  expect(violationsOf(judgeChangedQueries(log, 'orders'))).toHaveLength(1);
  expect(isNoEvidence(judgeChangedQueries(log, 'filters'))).toBe(true);
});

test('the same query, its filters omitted as none, is walked on: nothing to judge', () => {
  const log = [list(page(null, { filters: [] }), 200, 't1'), list(page('t1'), 200, null)];
  expect(isNoEvidence(judgeChangedQueries(log, 'filters'))).toBe(true);
});

test('a token text given to two queries is no changed query for either', () => {
  const log = [
    list(page(null, { filters: ids(['1', '2', '3']) }), 200, 'p2'),
    list(page(null), 200, 'p2'),
    list(page('p2', { filters: ids(['1', '2', '3']) }), 200, null),
    list(page('p2'), 200, null),
  ];
  expect(isNoEvidence(judgeChangedQueries(log, 'filters'))).toBe(true);
});

test('a 503 to the changed query says nothing', () => {
  const log = [list(page(null, { filters: ids(['1']) }), 200, 't1'), list(page('t1'), 503, null)];
  const judged = judgeChangedQueries(log, 'filters');
  expect(violationsOf(judged)).toEqual([]);
  expect(Array.isArray(judged)).toBe(false);
});
