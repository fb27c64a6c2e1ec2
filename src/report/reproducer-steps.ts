/**
 * Which recorded exchange a violation's step names, for a reproducer. A step
 * is named exactly (`bad dates`), or the way the list rules name a walk's
 * page: `<walk>, page N`, or `resources.list page N (with_teams, limit 5)`,
 * `kind integration, resources.list page 1 (limit 8)`, where the walks tag
 * the page `resources.list page N`, the same for every walk. Such a page is
 * told from other walks' by what the words in parentheses say of its request
 * (`limit N`, a `with_…` flag set); the caller keeps only the pages whose
 * answer departs as the violation says, and a departure that more than one
 * request shows in this way cannot be pinned on one: no exchange.
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import { listRequestShown } from '../core/list-request-shown.ts';

/** `… page N` with what the parentheses after it say, if anything (`resource.ids (7), limit 2`). */
const DESCRIBED_PAGE = /(?:^|[ ,])page (\d+)(?: \((.*)\))?$/;

/** The request body without its page token: the pages of one walk but for their place in it. */
export function requestKey(e: Exchange): string {
  const body = parseJsonText(e.request.body);
  if (typeof body !== 'object' || body === null || !('pagination' in body)) return e.request.body;
  const { pagination } = body;
  const limit =
    typeof pagination === 'object' && pagination !== null && 'limit' in pagination ? pagination.limit : null;
  return JSON.stringify({ ...body, pagination: { limit } });
}

/**
 * The request as a check of the resources listed against an ids filter
 * judges it: the filter's ids as a set (a walk of the ids reversed is judged
 * alike), the token left out.
 */
export function idsInAnyOrder(e: Exchange): string {
  const body = parseJsonText(e.request.body);
  if (typeof body !== 'object' || body === null || !('filters' in body) || !Array.isArray(body.filters))
    return requestKey(e);
  const filters = body.filters.map((f: unknown) =>
    typeof f === 'object' && f !== null && 'value' in f && Array.isArray(f.value)
      ? { ...f, value: f.value.map(String).sort() }
      : f,
  );
  return requestKey({ ...e, request: { ...e.request, body: JSON.stringify({ ...body, filters }) } });
}

/** The words in parentheses agree with the request: each `limit N` and each `with_…` flag it names. */
function agrees(words: string, e: Exchange): boolean {
  const body = parseJsonText(e.request.body);
  if (typeof body !== 'object' || body === null) return false;
  const fields = new Map(Object.entries(body));
  const pagination = fields.get('pagination');
  const limit =
    typeof pagination === 'object' && pagination !== null
      ? new Map(Object.entries(pagination)).get('limit')
      : undefined;
  return words.split(', ').every((word) => {
    const limited = /^limit (\d+|null)$/.exec(word)?.[1];
    if (limited !== undefined) return String(limit) === limited;
    if (/^with_[a-z_]+$/.test(word)) return fields.get(word) === true;
    return true;
  });
}

/**
 * The index of the exchange `step` names among those `departs` accepts: the
 * last exactly named, else the last page named by its walk when every such
 * page is of one request (by `key`, the request without its token unless
 * the caller says which requests its check judges alike); undefined
 * otherwise. A page whose request the words in parentheses describe exactly
 * (they are the judges' own description of it) is preferred to one whose
 * request merely agrees with them: walks that differ by what the words show
 * (attributes in another order, `with_total_count false`) are told apart.
 */
export function namedExchange(
  log: readonly Exchange[],
  step: string,
  departs: (e: Exchange) => boolean,
  key: (e: Exchange) => string = requestKey,
): number | undefined {
  const exact = log.findLastIndex(
    (e) => e.step !== undefined && (e.step === step || step.endsWith(e.step)) && departs(e),
  );
  if (exact >= 0) return exact;
  const described = DESCRIBED_PAGE.exec(step);
  if (!described) return undefined;
  const [, page, words] = described;
  const named = (fits: (e: Exchange) => boolean) =>
    log.flatMap((e, i) => (e.step === `resources.list page ${page}` && fits(e) && departs(e) ? [i] : []));
  const exactly = words === undefined ? [] : named((e) => listRequestShown(parseJsonText(e.request.body)) === words);
  const pages = exactly.length > 0 ? exactly : named((e) => words === undefined || agrees(words, e));
  const requests = new Set(pages.map((i) => (log[i] ? key(log[i]) : '')));
  return requests.size === 1 ? pages.at(-1) : undefined;
}
