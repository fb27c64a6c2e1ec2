/**
 * list.counts-agree over traffic of any client (src/rules/judges/list-counts.ts):
 * one collection counted two ways or three, found by what each request asked
 * for, must give one number; requests that differ in more than their paging
 * and counting are other collections, and a walk that lists a resource twice
 * is another rule's departure.
 */
import { expect, test } from 'vitest';
import { resourceRecord } from '../helpers/resource-record.ts';
import { judgeCountsInTraffic } from '../../src/rules/judges/list-counts.ts';
import { isNoEvidence, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';

const resource = (id: number) => resourceRecord(String(7000 + id));

let seq = 0;
function list(request: Record<string, unknown>, ids: readonly number[], extra: Record<string, unknown> = {}): Observed {
  const body = { data: ids.map(resource), next_token: null, ...extra };
  seq += 1;
  return {
    operation: 'resources.list',
    step: `resources.list, HAR entry ${seq}`,
    request,
    status: 200,
    body,
    text: JSON.stringify(body),
    earlierStatuses: [],
    credential: 'other',
  };
}

/** A walk of `ids` by pages of `limit`, each page's token the next page's. */
function walk(request: Record<string, unknown>, ids: readonly number[], limit: number, extra = {}): Observed[] {
  const pages: Observed[] = [];
  for (let i = 0; i * limit <= ids.length; i++) {
    const page = list(
      { ...request, pagination: { limit, next_token: i === 0 ? null : `t${i}` } },
      ids.slice(i * limit, (i + 1) * limit),
      extra,
    );
    const last = (i + 1) * limit > ids.length;
    pages.push({ ...page, body: { ...Object(page.body), next_token: last ? null : `t${i + 1}` } });
  }
  return pages;
}

const kind = { kind_id: '1' };
/** A first page of one resource out of more: a walk begun, not ended. */
const more = { next_token: 'more' };
const strict = { ...kind, with_total_count: true, counting_mode: 'strict', pagination: { limit: 1, next_token: null } };
const five = [1, 2, 3, 4, 5];

test('a walk, a strict total and limit null that agree: PASS, however far apart they came', () => {
  const log = [
    ...walk(kind, five, 2),
    list({ ...kind, orders: [], pagination: { limit: 1, next_token: null } }, [1], more),
    list(strict, [1], { ...more, total_count: 5, total_count_approximate: false }),
    list({ ...kind, pagination: { limit: null, next_token: null } }, five),
  ];
  expect(judgeCountsInTraffic(log)).toEqual([]);
});

test('a strict total that counts fewer than the walk: FAIL at the total', () => {
  const log = [...walk(kind, five, 2), list(strict, [1], { ...more, total_count: 2, total_count_approximate: false })];
  const [v] = violationsOf(judgeCountsInTraffic(log));
  expect(v?.where).toMatch(/total_count \(strict\)$/);
  expect(v?.actual).toBe(2);
});

test('limit null that stops short of the walk: FAIL', () => {
  const log = [...walk(kind, five, 2), list({ ...kind, pagination: { limit: null, next_token: null } }, [1, 2, 3])];
  expect(violationsOf(judgeCountsInTraffic(log))).toHaveLength(1);
});

test('requests that differ in more than paging and counting are not compared; an approximate total is not either', () => {
  const filtered = { ...kind, filters: [{ key: 'resource.ids', value: ['7001'] }] };
  const log = [
    ...walk(kind, five, 2),
    list(
      { ...filtered, with_total_count: true, counting_mode: 'strict', pagination: { limit: 1, next_token: null } },
      [1],
      {
        total_count: 1,
        total_count_approximate: false,
      },
    ),
    list(
      { ...kind, with_total_count: true, counting_mode: 'approximate', pagination: { limit: 1, next_token: null } },
      [1],
      {
        total_count: 3,
        total_count_approximate: true,
      },
    ),
  ];
  // Compared with the unfiltered walk of five, either would depart; the filtered read agrees with itself.
  expect(judgeCountsInTraffic(log)).toEqual([]);
});

test('a walk that lists a resource twice counts nothing here (each-resource-once is its rule)', () => {
  const log = [
    ...walk(kind, [1, 2, 2, 3, 4, 5], 2),
    list(strict, [1], { ...more, total_count: 5, total_count_approximate: false }),
  ];
  expect(isNoEvidence(judgeCountsInTraffic(log))).toBe(true);
});
