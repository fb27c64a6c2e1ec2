/**
 * The judge of pagination.each-resource-once, a fold over the pages of every
 * walk in a log (src/rules/judges/walks-once.ts), on hand-made logs: each
 * departure at its place, thin data as no evidence, and the table's walk
 * bits reused so a log of many walks is judged whole.
 */
import { describe, expect, test } from 'vitest';
import { judgeLog } from '../../src/rules/judges/fold.ts';
import { isNoEvidence, isNoVerdict, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { eachResourceOnce, pagesFor } from '../../src/rules/judges/walks-once.ts';
import { MAX_WALKS } from '../../src/rules/steps/seen-ids.ts';
import type { TargetProfile } from '../../src/target/profile.ts';

const KIND = '1000000000000000001';
const PROFILE: TargetProfile = {
  kinds: [{ id: KIND, name: 'employee', supportsRoles: false }],
  roles: [],
  teams: [],
  listKindId: KIND,
  mutableResources: [],
};
const IDS = Array.from({ length: 10 }, (_, i) => String(7_000_000_000_000_000_001n + BigInt(i)));

function page(
  n: number,
  request: Record<string, unknown>,
  ids: readonly string[],
  token: string | null,
  status = 200,
): Observed {
  const body =
    status === 200 ? { data: ids.map((id) => ({ id, kind_id: KIND })), next_token: token } : { message: 'no' };
  return {
    operation: 'resources.list',
    step: `resources.list page ${n}`,
    request,
    status,
    body,
    text: JSON.stringify(body),
    earlierStatuses: [],
    credential: 'main',
  };
}

/** A walk of `ids` by `limit` (filtered on `filter` ids when given), as walkPages tags it; `pages` cuts it. */
function walk(
  ids: readonly string[],
  limit: number,
  options: { filter?: readonly string[]; pages?: number; tokens?: (n: number) => string } = {},
): Observed[] {
  const base = {
    kind_id: KIND,
    ...(options.filter ? { filters: [{ key: 'resource.ids', value: options.filter }] } : {}),
  };
  const out: Observed[] = [];
  const chunks = Math.ceil(ids.length / limit);
  const tokenOf = options.tokens ?? ((n: number) => `t${limit}-${n}`);
  for (let n = 1; n <= (options.pages ?? Math.max(1, chunks)); n++) {
    const data = ids.slice((n - 1) * limit, n * limit);
    const last = options.pages === undefined && n >= chunks;
    const request = { ...base, pagination: { limit, next_token: n === 1 ? null : tokenOf(n - 1) } };
    out.push(page(n, request, data, last ? null : tokenOf(n)));
  }
  return out;
}

const judge = (log: readonly Observed[]) => judgeLog(eachResourceOnce, log, PROFILE);
const wheres = (log: readonly Observed[]) => violationsOf(judge(log)).map((v) => v.where);

describe('pagination.each-resource-once judged from its walks', () => {
  const clean = [...walk(IDS, 500), ...walk(IDS, 4), ...walk(IDS.slice(0, 3), 1, { filter: IDS.slice(0, 3) })];

  test('walks that yield each resource once, the same set whatever the limit, pass', () => {
    expect(judge(clean)).toEqual([]);
  });

  test('a resource repeated on a later page of a walk', () => {
    const repeated = walk([...IDS.slice(0, 4), IDS[3]!, ...IDS.slice(5)], 4);
    const log = [...walk(IDS, 500), ...repeated];
    expect(violationsOf(judge(log))).toContainEqual(
      expect.objectContaining({ where: 'limit 4, page 2', message: expect.stringMatching(/must not repeat/) }),
    );
  });

  test('a token that comes back', () => {
    const log = [...walk(IDS, 500), ...walk(IDS, 4, { tokens: () => 'same' })];
    expect(wheres(log)).toContain('limit 4, page 2.next_token');
  });

  test('a smaller page size that misses a resource yields another set', () => {
    const log = [
      ...walk(IDS, 500),
      ...walk(
        IDS.filter((id) => id !== IDS[6]),
        4,
      ),
    ];
    const [violation] = violationsOf(judge(log));
    expect(violation).toMatchObject({
      where: 'limit 4',
      expected: '10 resources (as with limit 500)',
      actual: `9 resources; missing ${IDS[6]}; extra none`,
    });
  });

  test('a walk that does not end within the pages its collection fills', () => {
    // New resources on every page, a token on the last: the walk goes on past the 10 resources of its collection.
    const more = Array.from({ length: 40 }, (_, i) => String(7_100_000_000_000_000_000n + BigInt(i)));
    const endless = walk(more, 4, { pages: pagesFor(IDS.length, 4) });
    expect(wheres([...walk(IDS, 500), ...endless])).toEqual([`limit 4, page ${pagesFor(IDS.length, 4) + 1}`]);
    // Cut short of the bound (the driver was stopped), it shows nothing of the clause.
    expect(wheres([...walk(IDS, 500), ...endless.slice(0, 3)])).toEqual([]);
  });

  test('a walk filtered on ids the collection holds must yield each of them', () => {
    const handful = IDS.slice(0, 3);
    const log = [...walk(IDS, 500), ...walk(handful.slice(0, 2), 1, { filter: handful })];
    expect(violationsOf(judge(log))).toContainEqual(
      expect.objectContaining({ where: 'limit 1, ids filter of 3', actual: handful.slice(0, 2) }),
    );
    // Ids the collection's walk never listed show nothing of this clause.
    const unknown = ['7999999999999999999'];
    expect(judge([...walk(IDS, 500), ...walk(IDS, 4), ...walk([], 1, { filter: unknown })])).toEqual([]);
  });

  test('no walk over a page boundary is no evidence, never a pass', () => {
    expect(isNoEvidence(judge([...walk(IDS, 500)]))).toBe(true);
    expect(isNoEvidence(judge([...walk([], 500), ...walk([], 8)]))).toBe(true);
    expect(isNoEvidence(judge([]))).toBe(true);
  });

  test('a page answered 429 says nothing: no verdict', () => {
    const log = [...walk(IDS, 500), ...walk(IDS, 4).slice(0, 1), page(2, { kind_id: KIND }, [], null, 429)];
    const cut = log.slice(0, -1);
    const limited = {
      ...log[log.length - 1]!,
      request: { ...cut[cut.length - 1]!.request!, pagination: { limit: 4, next_token: 't4-1' } },
    };
    expect(isNoVerdict(judge([...cut, limited]))).toBe(true);
  });

  test("another walk's page in between is not read as the next page", () => {
    const mine = walk(IDS, 4);
    const other = page(2, { kind_id: KIND, pagination: { limit: 4, next_token: 'elsewhere' } }, [IDS[0]!], null);
    expect(judge([...walk(IDS, 500), mine[0]!, other, ...mine.slice(1)])).toEqual([]);
  });

  test('more walks than the table has bits: each is judged, the reference kept', () => {
    const limits = Array.from({ length: MAX_WALKS + 4 }, (_, i) => 2 + (i % 5));
    const many = limits.flatMap((limit) => walk(IDS, limit));
    expect(judge([...walk(IDS, 500), ...many])).toEqual([]);
    const last = walk(IDS.slice(1), 3);
    expect(wheres([...walk(IDS, 500), ...many, ...last])).toEqual(['limit 3']);
    const repeat = walk([...IDS.slice(0, 3), IDS[0]!, ...IDS.slice(4)], 3);
    expect(wheres([...walk(IDS, 500), ...many, ...repeat])).toContain('limit 3, page 2');
  });
});
