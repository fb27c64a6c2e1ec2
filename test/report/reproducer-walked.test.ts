/**
 * FAILs judged over whole walks: which requests a reproducer sends again and
 * which walks it follows (reproducer-walked.ts), and how the script's judge
 * reads the walks it followed, on answers written by hand (no server).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AnsweredExchange } from '../../src/core/exchange.ts';
import type { RuleResult } from '../../src/core/types.ts';
import { reproducerPlan } from '../../src/report/reproducer-checks.ts';
import { REPRODUCER_JUDGE } from '../../src/report/reproducer-judge.ts';

function exchange(step: string, request: object, answer: object, status = 200): AnsweredExchange {
  return {
    operation: 'resources.list',
    step,
    request: { method: 'POST', url: 'http://h/api/resources.list', headers: {}, body: JSON.stringify(request) },
    response: { status, headers: {}, body: JSON.stringify(answer), truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

function fail(ruleId: string, exchanges: AnsweredExchange[], where: string): RuleResult {
  return {
    ruleId,
    clause: '§4.8',
    sentence: 's',
    section: '§4.8',
    group: 'g',
    level: 'MUST',
    kind: 'example',
    mutates: 'none',
    verdict: 'FAIL',
    violations: [{ where, message: 'must' }],
    observations: [],
    exchanges,
    requestCount: exchanges.length,
    durationMs: 1,
  };
}

const named = (id: string, lastName: string) => ({ id, attributes: { last_name: lastName } });

/** A walk of pages, each page's resources given; the tokens link them as a server's would. */
function walk(request: object, pages: object[][], prefix: string): AnsweredExchange[] {
  return pages.map((data, i) => {
    const token = i + 1 < pages.length ? `${prefix}-token-${i + 1}` : null;
    const sent = i === 0 ? null : `${prefix}-token-${i}`;
    const body = { ...request, pagination: { limit: 2, next_token: sent } };
    return exchange(`resources.list page ${i + 1}`, body, { data, next_token: token });
  });
}

describe('reproducer plans of FAILs judged over whole walks', () => {
  test('an order: the ordered walk the words describe, departing in the recording, followed from its first page', () => {
    const orders = [{ key: 'resource.attribute', direction: 'asc', attribute: 'last_name' }];
    const asked = { kind_id: 'k', attributes: ['last_name'], orders };
    const sorted = walk(asked, [[named('a', 'Abe')], [named('b', 'Bo')]], 'x');
    const unsorted = walk(asked, [[named('b', 'Bo')], [named('a', 'Abe')]], 'y');
    const where = 'resources.list page 2 (attributes last_name, orders last_name asc, limit 2), resource a';
    const plan = reproducerPlan(fail('list.orders-ascending', [...sorted, ...unsorted], where));
    expect(plan?.requests.map((q) => q.exchange)).toEqual([unsorted[0]]);
    expect(plan?.walks).toEqual([{ at: 1, pages: 7 }]);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'walk-ascending', attribute: 'last_name' }]);
    // No walk departs as the script would judge it: no plan (the script would judge another condition).
    expect(reproducerPlan(fail('list.orders-ascending', sorted, where))).toBeUndefined();
  });

  test("a count of an ids filter: the sample the ids came from first, then the collection's walk, count and limit null", () => {
    const filters = [{ key: 'resource.ids', value: ['a', 'b'] }];
    const sample = exchange('a sample of the listed kind', { kind_id: 'k' }, { data: [{ id: 'a' }, { id: 'b' }] });
    const pages = walk({ kind_id: 'k', filters }, [[{ id: 'a' }]], 'z');
    const counted = exchange('total_count (strict) of ids filter of 2 listed ids', { filters }, { total_count: 1 });
    const whole = exchange('limit null of ids filter of 2 listed ids', { filters }, { data: [{ id: 'a' }] });
    const plan = reproducerPlan(
      fail('list.counts-agree', [sample, ...pages, counted, whole], 'ids filter of 2 listed ids'),
    );
    expect(plan?.requests.map((q) => q.exchange)).toEqual([sample, pages[0], counted, whole]);
    expect(plan?.walks).toEqual([{ at: 2, pages: 5 }]);
    expect(plan?.checks).toEqual([{ at: 3, kind: 'counts-agree', walk: 2, whole: 4, ids: ['a', 'b'], sample: 1 }]);
  });

  test('walks compared at two page sizes: the same query with limit null is read first, the set each must list', () => {
    const query = { kind_id: 'k', filters: [{ key: 'resource.ids', value: ['a', 'b', 'c'] }], orders: [] };
    const at = (limit: number, prefix: string) =>
      walk(query, [[{ id: 'a' }]], prefix).map((e) => ({
        ...e,
        request: { ...e.request, body: JSON.stringify({ ...query, pagination: { limit, next_token: null } }) },
      }));
    const [one, three] = [at(1, 'p'), at(3, 'q')];
    const plan = reproducerPlan(fail('pagination.stable-with-orders', [...one, ...three], 'ids filter, position 1'));
    expect(plan?.requests.map((q) => q.body ?? q.exchange.request.body)).toEqual([
      JSON.stringify({ ...query, pagination: { limit: null, next_token: null } }),
      one[0]?.request.body,
      three[0]?.request.body,
    ]);
    // Three ids at limit 1: a fixed server's walk has four pages, longer than the faulty one the run saw.
    expect(plan?.walks).toEqual([
      { at: 2, pages: 11 },
      { at: 3, pages: 7 },
    ]);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'walks-agree', walks: [2, 3] }]);
  });
});

describe('a pairwise row against the read of its filters alone', () => {
  test('the reference read with the same filters and date, then the row followed live', () => {
    const filters = [{ key: 'resource.ids', value: ['a', 'b'] }];
    const reference = exchange(
      'reference: the ids filter alone',
      { kind_id: 'k', filters, pagination: { limit: null, next_token: null } },
      { data: [{ id: 'a' }, { id: 'b' }], next_token: null },
    );
    const row = exchange(
      'row 3 of the pairwise array, page 1',
      { kind_id: 'k', with_relations: null, filters, pagination: { limit: 50, next_token: null } },
      { data: [], next_token: null },
    );
    const plan = reproducerPlan(
      fail('list.prop.pairwise-combinations', [reference, row], 'row 3 of the pairwise array: all pages'),
    );
    expect(plan?.requests.map((q) => q.exchange)).toEqual([reference, row]);
    expect(plan?.walks).toEqual([{ at: 2, pages: 9 }]);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'walks-agree', walks: [2] }]);
  });
});

describe("the script's judge of followed walks", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dc-walked-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes the answers as the script keeps them (`<n>.status`, `<n>.body`, `<n>.pages`) and runs the judge. */
  async function judge(answers: Record<string, object>, pages: Record<string, number>, checks: object[]) {
    const here = await mkdtemp(join(dir, 'run-'));
    for (const [n, body] of Object.entries(answers)) {
      await writeFile(join(here, `${n}.status`), '200');
      await writeFile(join(here, `${n}.body`), JSON.stringify(body));
    }
    for (const [n, count] of Object.entries(pages)) await writeFile(join(here, `${n}.pages`), String(count));
    try {
      execFileSync('node', ['-e', REPRODUCER_JUDGE, here, JSON.stringify(checks)], { encoding: 'utf8' });
      return 0;
    } catch (e) {
      return typeof e === 'object' && e !== null && 'status' in e ? e.status : -1;
    }
  }

  const page = (ids: string[], next: string | null) => ({ data: ids.map((id) => ({ id })), next_token: next });

  test('walks of the same ids: the same set as limit null in the same order conforms; another order departs', async () => {
    const checks = [{ at: 1, kind: 'walks-agree', walks: [2, 3] }];
    const reference = page(['a', 'b'], null);
    const same = { 1: reference, 2: page(['a'], 't'), '2.2': page(['b'], null), 3: page(['a', 'b'], null) };
    expect(await judge(same, { 2: 2, 3: 1 }, checks)).toBe(0);
    const other = { ...same, 3: page(['b', 'a'], null) };
    expect(await judge(other, { 2: 2, 3: 1 }, checks)).toBe(1);
    const missing = { ...same, 3: page(['a'], null) };
    expect(await judge(missing, { 2: 2, 3: 1 }, checks)).toBe(1);
    // A walk cut at the script's cap cannot be judged: exit 3, never 0.
    const unended = { ...same, '2.2': page(['b'], 't2') };
    expect(await judge(unended, { 2: 2, 3: 1 }, checks)).toBe(3);
  });

  test('counts of an ids filter: ids the live sample no longer lists cannot be counted (exit 3)', async () => {
    const checks = [{ at: 3, kind: 'counts-agree', walk: 2, whole: 4, ids: ['a', 'b'], sample: 1 }];
    const counted = (n: number) => ({ data: [], next_token: null, total_count: n });
    const both = { 1: page(['a', 'b'], null), 2: page(['a', 'b'], null), 3: counted(2), 4: page(['a', 'b'], null) };
    expect(await judge(both, { 2: 1 }, checks)).toBe(0);
    const capped = { ...both, 2: page(['a'], null), 3: counted(1), 4: page(['a'], null) };
    expect(await judge(capped, { 2: 1 }, checks)).toBe(1);
    expect(await judge({ ...capped, 1: page(['a'], null) }, { 2: 1 }, checks)).toBe(3);
  });

  test('a walk with filters: strays depart, every resource the reference shows passing is owed once', async () => {
    const checks = [
      { at: 2, kind: 'walk-filtered', sample: 1, ids: ['a', 'b', 'c'], text: { attribute: 'last_name', prefix: 'K' } },
    ];
    const sample = {
      data: [named('a', 'Kay'), named('b', 'kim'), named('c', 'Lu'), named('d', 'Kit')],
      next_token: null,
    };
    const pageOf = (ids: string[], next: string | null) => ({ data: ids.map((id) => ({ id })), next_token: next });
    // b's text starts with k: not owed (case is not shown), not a stray either.
    expect(await judge({ 1: sample, 2: pageOf(['a'], 't'), '2.2': pageOf(['b'], null) }, { 2: 2 }, checks)).toBe(0);
    expect(await judge({ 1: sample, 2: pageOf(['a'], 't'), '2.2': pageOf(['c'], null) }, { 2: 2 }, checks)).toBe(1);
    expect(await judge({ 1: sample, 2: pageOf(['a', 'd'], null) }, { 2: 1 }, checks)).toBe(1);
    expect(await judge({ 1: sample, 2: pageOf([], null) }, { 2: 1 }, checks)).toBe(1);
    // A resource the reference does not show: its text cannot be judged.
    const checksOfIds = [{ ...checks[0], ids: ['a', 'z'] }];
    expect(await judge({ 1: sample, 2: pageOf(['a', 'z'], null) }, { 2: 1 }, checksOfIds)).toBe(3);
  });

  test('an order over every page: a pair out of order on a later page departs; ties and case do not', async () => {
    const checks = [{ at: 1, kind: 'walk-ascending', attribute: 'last_name' }];
    const of = (names: string[], next: string | null) => ({
      data: names.map((n, i) => named(`${n}${i}`, n)),
      next_token: next,
    });
    expect(await judge({ 1: of(['abe', 'Abe'], 't'), '1.2': of(['Bo', 'bo'], null) }, { 1: 2 }, checks)).toBe(0);
    expect(await judge({ 1: of(['Abe', 'Cy'], 't'), '1.2': of(['Bo'], null) }, { 1: 2 }, checks)).toBe(1);
  });
});
