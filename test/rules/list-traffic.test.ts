/**
 * The judges of resources.list traffic on logs written by hand, with no
 * network: each finds its evidence by what the requests asked for, whatever
 * the steps are named (here a pairwise row's), and holds what the server
 * chose where the spec says "not shown".
 */
import { describe, expect, test } from 'vitest';
import { isNoEvidence, violationsOf } from '../../src/rules/judges/judgement.ts';
import {
  judgeArrayAdded,
  judgeAttributesReturned,
  judgeIdsFilter,
  judgeTotalCount,
} from '../../src/rules/judges/list-traffic.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { TargetProfile } from '../../src/target/profile.ts';

const KIND = '10';
const PROFILE: TargetProfile = {
  kinds: [{ id: KIND, name: 'employee', supportsRoles: false }],
  roles: [],
  teams: [],
  mutableResources: [],
  sortAttribute: 'last_name',
  attributes: ['first_name'],
};

type Resource = Record<string, unknown>;
const resource = (id: string, extra: Resource = {}): Resource => ({ id, kind_id: KIND, ...extra });

function exchange(step: string, request: Resource, body: unknown, status = 200): Observed {
  return {
    operation: 'resources.list',
    step,
    request,
    status,
    body,
    text: JSON.stringify(body),
    earlierStatuses: [],
    credential: 'main',
  };
}

/**
 * A walk of `request` over `pages` (each a page's resources), linked by
 * tokens, its steps named as a pairwise row names them; `extra` adds to
 * every answer.
 */
function walk(name: string, request: Resource, pages: Resource[][], extra: (page: number) => Resource = () => ({})) {
  return pages.map((data, i) =>
    exchange(
      `${name}, page ${i + 1}`,
      { kind_id: KIND, ...request, pagination: { limit: 2, next_token: i === 0 ? null : `${name} ${i}` } },
      { data, next_token: i === pages.length - 1 ? null : `${name} ${i + 1}`, ...extra(i) },
    ),
  );
}

const wheres = (log: Observed[], judge: (log: Observed[]) => ReturnType<typeof judgeIdsFilter>): string[] =>
  violationsOf(judge(log)).map((v) => v.where);

describe('list.attributes-returned', () => {
  const carrying = (id: string): Resource => resource(id, { attributes: { last_name: 'A', first_name: 'B' } });
  const asked = { attributes: ['last_name', 'first_name', 'nickname'] };

  test('found by what the request asked for, whatever its steps are named', () => {
    const log = walk('row 3 of the pairwise array', asked, [
      [carrying('1'), carrying('2')],
      [carrying('3'), resource('4', { attributes: { last_name: 'C' } })],
      [carrying('5')],
    ]);
    expect(wheres(log, (l) => judgeAttributesReturned(l, PROFILE))).toEqual([
      'row 3 of the pairwise array, page 2: response.body.data[1].attributes',
    ]);
  });

  test('an attribute the profile does not say every resource carries may be absent (keys inside attributes: not shown)', () => {
    const log = walk('a walk', asked, [[carrying('1')], [carrying('2')], [carrying('3')]]);
    expect(judgeAttributesReturned(log, PROFILE)).toEqual([]);
  });

  test('fewer than three pages holding resources show no page a next_token asked for: no evidence', () => {
    const judgement = judgeAttributesReturned(walk('a walk', asked, [[carrying('1')]]), PROFILE);
    expect(isNoEvidence(judgement)).toBe(true);
  });
});

describe('list.with-relations', () => {
  test('every resource of every page with with_relations true carries an array', () => {
    const log = walk('a walk', { with_relations: true }, [
      [resource('1', { relations: [] })],
      [resource('2', { relations: [] })],
      [resource('3')],
    ]);
    expect(wheres(log, (l) => judgeArrayAdded(l, 'relations'))).toEqual([
      'a walk, page 3: response.body.data[0].relations',
    ]);
  });

  test('with_relations null asks for nothing', () => {
    const log = walk('a walk', { with_relations: null }, [[resource('1')], [resource('2')], [resource('3')]]);
    expect(isNoEvidence(judgeArrayAdded(log, 'relations'))).toBe(true);
  });
});

describe('list.total-count-of-filtered-set', () => {
  const listed = exchange('a sample', { kind_id: KIND }, { data: ['1', '2', '3'].map((id) => resource(id)) });
  const filter = { filters: [{ key: 'resource.ids', value: ['1', '2', '3'] }], with_total_count: true };
  const pages = [[resource('1')], [resource('2')], [resource('3')]];

  test('counted strictly over ids an earlier answer listed: the count of the page is a departure', () => {
    const log = [
      listed,
      ...walk('counted', { ...filter, counting_mode: 'strict' }, pages, () => ({
        total_count: 1,
        total_count_approximate: false,
      })),
    ];
    expect(wheres(log, judgeTotalCount)).toEqual([
      'counted, page 1: response.body.total_count',
      'counted, page 2: response.body.total_count',
      'counted, page 3: response.body.total_count',
    ]);
  });

  test('counted approximately, or with counting_mode left out, the value is the server’s choice', () => {
    for (const mode of [{ counting_mode: 'approximate' }, {}]) {
      const log = [
        listed,
        ...walk('counted', { ...filter, ...mode }, pages, () => ({ total_count: 1, total_count_approximate: true })),
      ];
      expect(violationsOf(judgeTotalCount(log))).toEqual([]);
    }
  });

  test('total_count and total_count_approximate must be there whenever with_total_count is true', () => {
    const log = walk('row 1 of the pairwise array', { with_total_count: true, orders: [] }, pages, (i) =>
      i === 1 ? {} : { total_count: 3, total_count_approximate: false },
    );
    expect(wheres(log, judgeTotalCount)).toEqual([
      'row 1 of the pairwise array, page 2: response.body.total_count',
      'row 1 of the pairwise array, page 2: response.body.total_count_approximate',
    ]);
  });

  test('pages outside their ids filter count what the server filtered: list.ids-filter’s departure, no evidence here', () => {
    const strays = [[resource('1'), resource('8')], [resource('2'), resource('9')], [resource('3')]];
    const log = [
      listed,
      ...walk('counted', { ...filter, counting_mode: 'strict' }, strays, () => ({
        total_count: 5,
        total_count_approximate: false,
      })),
    ];
    expect(isNoEvidence(judgeTotalCount(log))).toBe(true);
  });

  test('without an earlier answer listing the ids, a walk of the same set that ended shows its size', () => {
    const counted = walk('counted', { ...filter, counting_mode: 'strict' }, pages, () => ({
      total_count: 7,
      total_count_approximate: false,
    }));
    expect(wheres(counted, judgeTotalCount)).toEqual([
      'counted, page 1: response.body.total_count',
      'counted, page 2: response.body.total_count',
      'counted, page 3: response.body.total_count',
    ]);
    // Cut short, the walk shows no size: nothing to compare the count with.
    expect(violationsOf(judgeTotalCount(counted.slice(0, 2)))).toEqual([]);
  });
});

describe('list.ids-filter', () => {
  const listed = exchange(
    'a sample',
    { kind_id: KIND },
    { data: ['1', '2', '3', '4'].map((id) => resource(id)), next_token: null },
  );
  const ids = (value: string[]) => ({ filters: [{ key: 'resource.ids', value }] });

  test('a page holding an id outside the filter', () => {
    const log = walk('a walk', ids(['1', '2']), [[resource('1'), resource('9')], [resource('2')]]);
    expect(wheres(log, judgeIdsFilter)).toEqual(['a walk, page 1: response.body.data']);
  });

  test('a walk that ended without an id an earlier answer listed: named by its order', () => {
    const log = [
      listed,
      ...walk('in order', ids(['1', '2', '3']), [[resource('1'), resource('2')], [resource('3')]]),
      ...walk('reversed', ids(['3', '2', '1']), [[resource('3')], [resource('2')]]),
    ];
    expect(wheres(log, judgeIdsFilter)).toEqual([
      'ids filter reversed (walk from reversed, page 1): all pages',
      'ids filter reversed (walk from reversed, page 1): all pages',
    ]);
    expect(violationsOf(judgeIdsFilter(log)).map((v) => v.message)).toEqual([
      expect.stringContaining('once'),
      expect.stringContaining('whatever the order'),
    ]);
  });

  test('an id no earlier answer listed imposes nothing; one listed twice is a departure', () => {
    const unknown = [listed, ...walk('a walk', ids(['1', '77']), [[resource('1')]])];
    expect(judgeIdsFilter(unknown)).toEqual([]);
    const twice = [listed, ...walk('a walk', ids(['1', '2']), [[resource('1'), resource('2')], [resource('2')]])];
    expect(wheres(twice, judgeIdsFilter)).toEqual([
      'ids filter in the order listed (walk from a walk, page 1): all pages',
    ]);
  });

  test('a text filter beside the ids filter may leave some out: owed nothing, and no evidence by itself', () => {
    const text = { key: 'resource.text', value: { attribute: 'last_name', operator: 'starts_with', value: 'Zz' } };
    const log = [
      listed,
      ...walk('both filters', { filters: [{ key: 'resource.ids', value: ['1', '2'] }, text] }, [[resource('1')]]),
    ];
    expect(isNoEvidence(judgeIdsFilter(log))).toBe(true);
    // Still, only ids of the filter.
    const stray = [
      listed,
      ...walk('both filters', { filters: [{ key: 'resource.ids', value: ['1'] }, text] }, [[resource('3')]]),
    ];
    expect(wheres(stray, judgeIdsFilter)).toEqual(['both filters, page 1: response.body.data']);
  });

  test('no walk of an ids filter that ended: no evidence', () => {
    const log = [listed, ...walk('a walk', ids(['1', '2']), [[resource('1')], [resource('2')]]).slice(0, 1)];
    expect(isNoEvidence(judgeIdsFilter(log))).toBe(true);
  });
});
