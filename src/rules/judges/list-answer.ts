/**
 * Judges of one resources.list answer (§4.8, §4.9), each for the rule whose
 * clause it holds the answer to. Whichever rule sent the request, the list
 * step runs them all, in this order (a later judge reads what an earlier one
 * passed), and a departure goes to its owner.
 */
import type { Violation } from '../../core/types.ts';
import { validateSchema } from '../../schemas/index.ts';
import { pageNamed } from './list-walks.ts';
import { answered, field, noVerdict, type ExchangeJudge, type Observed } from './observed.ts';

const isCount = (v: Violation): boolean => /response\.body\.total_count/.test(v.where);

/** Status 200 and a JSON envelope with `data` and `next_token` (its counts are judged apart). */
function envelope(o: Observed): Violation[] {
  if (noVerdict(o)) return [];
  const missing = answered(o, 'ListEnvelope');
  if (missing.length > 0) return missing;
  return validateSchema('ListEnvelope', o.body, `${pageNamed(o.step, o.request)}: response.body`).filter(
    (v) => !isCount(v),
  );
}

/** `total_count` an integer and `total_count_approximate` a boolean, where the answer has them. */
function counts(o: Observed): Violation[] {
  if (o.status !== 200 || o.body === undefined) return [];
  return validateSchema('ListEnvelope', o.body, `${pageNamed(o.step, o.request)}: response.body`).filter(isCount);
}

/** Entries of a page that the answer holds, when it holds a list of them. */
function entries(o: Observed): unknown[] | undefined {
  const data = field(o.body, 'data');
  return o.status === 200 && Array.isArray(data) ? data : undefined;
}

/** No more entries than the request's numeric `limit`. */
function limit(o: Observed): Violation[] {
  const data = entries(o);
  const asked = field(field(o.request, 'pagination'), 'limit');
  if (data === undefined || typeof asked !== 'number' || data.length <= asked) return [];
  return [
    {
      where: `${pageNamed(o.step, o.request)}: response.body.data`,
      message: `must hold at most limit (${asked}) entries`,
      expected: `<= ${asked}`,
      actual: data.length,
    },
  ];
}

/** The ids a `resource.ids` filter of the request allows, if it has one. */
function idsFilterOf(request: unknown): Set<string> | undefined {
  const filters = field(request, 'filters');
  if (!Array.isArray(filters)) return undefined;
  const filter: unknown = filters.find((f) => field(f, 'key') === 'resource.ids' && Array.isArray(field(f, 'value')));
  const ids = field(filter, 'value');
  return Array.isArray(ids) ? new Set(ids.filter((id): id is string => typeof id === 'string')) : undefined;
}

/** Only resources whose ids the request's `resource.ids` filter names. */
function idsFilter(o: Observed): Violation[] {
  const data = entries(o);
  const ids = idsFilterOf(o.request);
  if (data === undefined || ids === undefined) return [];
  const stray = data.map((r) => field(r, 'id')).filter((id) => typeof id === 'string' && !ids.has(id));
  if (stray.length === 0) return [];
  return [
    {
      where: `${pageNamed(o.step, o.request)}: response.body.data`,
      message: 'must hold only resources whose ids are in the resource.ids filter',
      expected: [...ids],
      actual: stray,
    },
  ];
}

/** A list page is the §4.9 envelope. */
export const LIST_ENVELOPE: ExchangeJudge = { name: 'a list envelope', operation: 'resources.list', judge: envelope };
/** The total count, asked for, is the filtered set's. */
export const LIST_COUNTS: ExchangeJudge = { name: 'the total count', operation: 'resources.list', judge: counts };
/** A page holds at most `limit` entries. */
export const LIST_LIMIT: ExchangeJudge = { name: 'the page limit', operation: 'resources.list', judge: limit };
/** A page holds only resources the ids filter names. */
export const LIST_IDS: ExchangeJudge = { name: 'the ids filter', operation: 'resources.list', judge: idsFilter };

export const LIST_ANSWER_JUDGES: readonly ExchangeJudge[] = [LIST_ENVELOPE, LIST_COUNTS, LIST_LIMIT, LIST_IDS];
