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

/** `… page N` with what the parentheses after it say, if anything (`resource.ids (7), limit 2`). */
const DESCRIBED_PAGE = /(?:^|[ ,])page (\d+)(?: \((.*)\))?$/;

/** The request body without its page token: the pages of one walk but for their place in it. */
function requestKey(e: Exchange): string {
  const body = parseJsonText(e.request.body);
  if (typeof body !== 'object' || body === null || !('pagination' in body)) return e.request.body;
  const { pagination } = body;
  const limit =
    typeof pagination === 'object' && pagination !== null && 'limit' in pagination ? pagination.limit : null;
  return JSON.stringify({ ...body, pagination: { limit } });
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
 * page is of one request; undefined otherwise.
 */
export function namedExchange(
  log: readonly Exchange[],
  step: string,
  departs: (e: Exchange) => boolean,
): number | undefined {
  const exact = log.findLastIndex(
    (e) => e.step !== undefined && (e.step === step || step.endsWith(e.step)) && departs(e),
  );
  if (exact >= 0) return exact;
  const described = DESCRIBED_PAGE.exec(step);
  if (!described) return undefined;
  const [, page, words] = described;
  const pages = log.flatMap((e, i) =>
    e.step === `resources.list page ${page}` && (words === undefined || agrees(words, e)) && departs(e) ? [i] : [],
  );
  const requests = new Set(pages.map((i) => (log[i] ? requestKey(log[i]) : '')));
  return requests.size === 1 ? pages.at(-1) : undefined;
}
