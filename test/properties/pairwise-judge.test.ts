/**
 * The pairwise rule's judge (`judgePairwise`) on logs written by hand, with
 * no network: each row is rebuilt from its pages (by step, linked by
 * next_token) and judged against the references its filters alone give,
 * found by step and by what they asked for, whatever else the log holds.
 */
import { describe, expect, test } from 'vitest';
import { judgePairwise } from '../../properties/list-pairwise.properties.ts';
import { isNoEvidence, isNoVerdict, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { ListRequest } from '../../src/schemas/index.ts';

const KIND = '9000000000000000001';
const [A, B, C, D] = ['7000000000000000001', '7000000000000000002', '7000000000000000003', '7000000000000000004'];
const IDS = { key: 'resource.ids', value: [A, B, C] } as const;
const REVERSED = { key: 'resource.ids', value: [C, B, A] } as const;
const TEXT = { key: 'resource.text', value: { attribute: 'last_name', operator: 'starts_with', value: 'Ma' } } as const;

/** A resource of the listed kind, as §2 shapes one. */
const resource = (id: string) => ({
  id,
  kind_id: KIND,
  label: id,
  short_label: id,
  sort_label: id,
  picture: { shape: 'circle', initial: 'R', url: '' },
  attributes: {},
});

function list(
  step: string,
  request: ListRequest,
  status: number,
  ids: string[],
  token: string | null = null,
): Observed {
  const body = status === 200 ? { data: ids.map(resource), next_token: token } : { message: 'no' };
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

/** A reference: limit null, the filters alone, at `date`. */
function reference(step: string, filters: ListRequest['filters'], ids: string[], date?: string): Observed {
  const request: ListRequest = {
    kind_id: KIND,
    ...(date !== undefined ? { at_date: date } : {}),
    filters,
    pagination: { limit: null, next_token: null },
  };
  return list(step, request, 200, ids);
}

/** A row's request and its pages, each page listing `pages[i]`; the last ends the walk unless `ended` is false. */
function row(
  n: number,
  extra: Omit<ListRequest, 'kind_id' | 'pagination'>,
  limit: number | null,
  pages: string[][],
  options: { ended?: boolean; statuses?: number[] } = {},
): Observed[] {
  return pages.map((ids, i) => {
    const last = i === pages.length - 1;
    const token = last && options.ended !== false ? null : `t${n}.${i + 1}`;
    const request: ListRequest = {
      kind_id: KIND,
      ...extra,
      pagination: { limit, next_token: i === 0 ? null : `t${n}.${i}` },
    };
    return list(`row ${n} of the pairwise array, page ${i + 1}`, request, options.statuses?.[i] ?? 200, ids, token);
  });
}

const idsAlone = reference('reference: the ids filter alone', [IDS], [A, B, C]);

describe('judgePairwise', () => {
  test('rows that list what their filters alone give, over every page, pass', () => {
    const log = [
      list('a sample of the listed kind', { kind_id: KIND, pagination: { limit: 100, next_token: null } }, 200, [A]),
      idsAlone,
      ...row(1, { filters: [IDS], with_teams: true }, 2, [[A, B], [C]]),
      reference('reference: no filter', [], [A, B, C, D]),
      ...row(2, { with_total_count: true }, null, [[A, B, C, D]]),
    ];
    expect(judgePairwise(log)).toEqual([]);
  });

  test('a walk that ends with fewer resources than its filter alone gives is a violation at the row, with both', () => {
    const log = [idsAlone, ...row(1, { filters: [IDS], with_relations: null }, 2, [[A], []])];
    const [v, ...more] = violationsOf(judgePairwise(log));
    expect(more).toEqual([]);
    expect(v?.where).toBe('row 1 of the pairwise array: all pages');
    expect(v?.actual).toEqual({ missing: [B, C], extra: [] });
    expect(String(v?.expected)).toContain(`${A},${B},${C}`);
  });

  test('a walk cut short is judged on what it listed: none missing, any extra', () => {
    const short = [idsAlone, ...row(1, { filters: [IDS] }, 1, [[A]], { ended: false })];
    expect(judgePairwise(short)).toEqual([]);
    const stray = [idsAlone, ...row(1, { filters: [IDS] }, 1, [[D]], { ended: false })];
    expect(violationsOf(judgePairwise(stray))).toMatchObject([
      { where: 'row 1 of the pairwise array: page 1', actual: { missing: [], extra: [D] } },
    ]);
  });

  test('references are found by what they asked for: another date or another filter is not the row’s', () => {
    const otherDate = reference('reference: the ids filter alone', [IDS], [A], '2024-02-29');
    const log = [otherDate, ...row(1, { filters: [IDS] }, null, [[A, B, C]])];
    const judgement = judgePairwise(log);
    expect(isNoEvidence(judgement) && judgement.noEvidence).toContain('no reference of its ids filter alone');
    // A request tagged as the reference that asks for more than the filter alone, or pages, is none.
    const notAlone = list(
      'reference: the ids filter alone',
      { kind_id: KIND, filters: [IDS], with_teams: true, pagination: { limit: null, next_token: null } },
      200,
      [A, B, C],
    );
    const limited = list(
      'reference: the ids filter alone',
      { kind_id: KIND, filters: [IDS], pagination: { limit: 5, next_token: null } },
      200,
      [A, B, C],
    );
    const neither = judgePairwise([notAlone, limited, ...row(1, { filters: [IDS] }, null, [[A, B, C]])]);
    expect(isNoEvidence(neither) && neither.noEvidence).toContain('no reference of its ids filter alone');
    // With its own reference beside the other, the row is judged against its own.
    expect(judgePairwise([otherDate, idsAlone, ...row(1, { filters: [IDS] }, null, [[A, B, C]])])).toEqual([]);
    const dated = row(2, { filters: [IDS], at_date: '2024-02-29' }, null, [[A, B]]);
    expect(violationsOf(judgePairwise([idsAlone, otherDate, ...dated]))).toMatchObject([
      { where: 'row 2 of the pairwise array: all pages', actual: { missing: [], extra: [B] } },
    ]);
  });

  test('both filters: what the text filter and the ids filter alone both give', () => {
    const textAlone = reference('reference: the text filter (ascii from the data) alone', [TEXT], [B, C, D]);
    const both = (listed: string[]) => row(1, { filters: [IDS, TEXT] }, null, [listed]);
    expect(judgePairwise([idsAlone, textAlone, ...both([B, C])])).toEqual([]);
    // Listing otherwise with both filters: the reference of both together tells which clause broke.
    const bothRef = (ids: string[]) => reference('reference: both filters', [IDS, TEXT], ids);
    expect(violationsOf(judgePairwise([idsAlone, textAlone, ...both([B]), bothRef([B, C])]))).toMatchObject([
      { where: 'row 1 of the pairwise array: all pages', actual: { missing: [C], extra: [] } },
    ]);
    const filtersAllApplied = judgePairwise([idsAlone, textAlone, ...both([B]), bothRef([B])]);
    expect(isNoEvidence(filtersAllApplied) && filtersAllApplied.noEvidence).toContain('list.filters-all-applied');
    const untold = judgePairwise([idsAlone, textAlone, ...both([B])]);
    expect(isNoEvidence(untold) && untold.noEvidence).toContain('no reference of both its filters');
  });

  test('ids in another order: the reversed reference tells whether the order or this clause broke', () => {
    const reversedRow = row(1, { filters: [REVERSED], with_teams: false }, null, [[A, B]]);
    const reversedRef = (ids: string[]) => reference('reference: the ids filter alone, reversed', [REVERSED], ids);
    expect(violationsOf(judgePairwise([idsAlone, ...reversedRow, reversedRef([A, B, C])]))).toMatchObject([
      { where: 'row 1 of the pairwise array: all pages', actual: { missing: [C], extra: [] } },
    ]);
    const idsFilter = judgePairwise([idsAlone, ...reversedRow, reversedRef([A, B])]);
    expect(isNoEvidence(idsFilter) && idsFilter.noEvidence).toContain('list.ids-filter');
    const untold = judgePairwise([idsAlone, ...reversedRow]);
    expect(isNoEvidence(untold) && untold.noEvidence).toContain('reversed');
    // Listed as they should be, the row needs no reversed reference.
    expect(judgePairwise([idsAlone, ...row(1, { filters: [REVERSED] }, null, [[C, B, A]])])).toEqual([]);
  });

  test('a refused row shows nothing; the rows beside it that were judged are enough', () => {
    const refused = row(1, { filters: [IDS] }, 50, [[]], { statuses: [422] });
    const alone = judgePairwise([idsAlone, ...refused]);
    expect(isNoEvidence(alone) && alone.noEvidence).toContain('is not a list of resources');
    expect(judgePairwise([idsAlone, ...refused, ...row(2, { filters: [IDS] }, null, [[A, B, C]])])).toEqual([]);
    // A departure in another row is still one.
    expect(
      violationsOf(judgePairwise([idsAlone, ...refused, ...row(2, { filters: [IDS] }, null, [[A]])])),
    ).toHaveLength(1);
  });

  test('an answer that says nothing (429) is no verdict; no row at all is no evidence', () => {
    const limited = row(1, { filters: [IDS] }, 2, [[A, B], [C]], { statuses: [200, 429] });
    expect(isNoVerdict(judgePairwise([idsAlone, ...limited]))).toBe(true);
    expect(isNoEvidence(judgePairwise([idsAlone]))).toBe(true);
  });

  test('a page that was not asked for with the token before it is not the walk’s: the walk did not end', () => {
    const [first] = row(1, { filters: [IDS] }, 2, [[A, B], [C]]);
    if (!first) throw new Error('a first page');
    const request: ListRequest = { kind_id: KIND, filters: [IDS], pagination: { limit: 2, next_token: 'x' } };
    const stray = list('row 1 of the pairwise array, page 2', request, 200, [D]);
    // Only page 1 is the row's: what it listed is judged, nothing is missing of a walk that did not end.
    expect(judgePairwise([idsAlone, first, stray])).toEqual([]);
  });

  test('a reference that pages is no reference', () => {
    const paged = list(
      'reference: the ids filter alone',
      { kind_id: KIND, filters: [IDS], pagination: { limit: null, next_token: null } },
      200,
      [A],
      'more',
    );
    const judgement = judgePairwise([paged, ...row(1, { filters: [IDS] }, null, [[A, B, C]])]);
    expect(isNoEvidence(judgement) && judgement.noEvidence).toContain('did not list the whole collection');
  });
});
