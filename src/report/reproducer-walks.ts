/**
 * A walk's FAIL in a reproducer: a resource returned again, or a next_token
 * that came back (§4.9 rules 1-3, the departures WalkJudge finds). Such a
 * departure shows only over the pages of one walk, and the pages' tokens are
 * the server's (another server, or the same one started again, gives
 * others): the script sends the walk's first request again and follows each
 * live answer's next_token, as the spec says a client does, up to a page cap
 * so that it never loops forever, and judges the pages it got by the same
 * condition. The walk chosen is one of the rule's log whose page the
 * violation names (`limit 8, page 2`, `…, page 3.next_token`) departs there
 * the same way in the recording.
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult, Violation } from '../core/types.ts';
import { tokenGiven, tokenSent } from './reproducer-tokens.ts';

/** The departures a script's walk judge finds, over the walk it follows from request `at` (see WalkFollowed). */
export interface WalkCheck {
  at: number;
  kind: 'walk-once';
}

/**
 * Request `at` is the first page of a walk the script follows with the live
 * tokens, up to `pages` pages, so that it never loops forever; a walk that
 * has not ended by then cannot be judged (exit 3). Its pages are kept as
 * answers `at`, `at.2`, `at.3`…
 */
export interface WalkFollowed {
  at: number;
  pages: number;
}

/** The pages of the walk whose first page is exchange `start` of the log: each next sent the token its page before gave. */
export function walkFrom(log: readonly Exchange[], start: number): Exchange[] {
  const first = log[start];
  if (!first) return [];
  const pages: Exchange[] = [first];
  let at = start;
  for (let token = tokenGiven(first); token !== undefined;) {
    const given = token;
    const next = log.findIndex((e, i) => i > at && tokenSent(e) === given);
    const page = log[next];
    if (!page) break;
    pages.push(page);
    at = next;
    token = tokenGiven(page);
  }
  return pages;
}

/** The walks of a log, each from a first page that sent no token, of more than one page. */
function walksOf(log: readonly Exchange[]): Exchange[][] {
  return log.flatMap((first, start) => {
    if (first.operation !== 'resources.list' || tokenSent(first) !== undefined || !first.response) return [];
    const pages = walkFrom(log, start);
    return pages.length > 1 ? [pages] : [];
  });
}

/** The ids a page lists (none where its answer is no list or was cut for the report). */
export function idsOn(page: Exchange): string[] {
  if (!page.response || page.response.truncated) return [];
  const body = parseJsonText(page.response.body);
  const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined;
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) =>
    typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'string' ? [entry.id] : [],
  );
}

/** `limit 8, page 2` (a resource again on page 2) or `limit 8, page 2.next_token` (its token came back). */
const WALK_PLACE = /^limit (\S+), page (\d+)(\.next_token)?$/;

/** The request's page size, as the place names it. */
function limitOf(e: Exchange): string {
  const body = parseJsonText(e.request.body);
  const pagination = typeof body === 'object' && body !== null && 'pagination' in body ? body.pagination : undefined;
  return typeof pagination === 'object' && pagination !== null && 'limit' in pagination ? String(pagination.limit) : '';
}

/** Page `n` (from 1) of the walk departs as the place says: a resource an earlier page listed, or a token given before. */
function departsAt(walk: readonly Exchange[], n: number, token: boolean): boolean {
  const page = walk[n - 1];
  if (!page) return false;
  const earlier = walk.slice(0, n - 1);
  if (token) {
    const given = tokenGiven(page);
    return given !== undefined && idsOn(page).length > 0 && earlier.some((e) => tokenGiven(e) === given);
  }
  const seen = new Set(earlier.flatMap(idsOn));
  const ids = idsOn(page);
  return ids.some((id, i) => seen.has(id) || ids.indexOf(id) < i);
}

/** How many pages past the run's walk the script follows: a fixed server's walk may be a little longer. */
const MORE_PAGES = 3;

/** How far a script follows a walk the run made of `pages` pages: twice as far and a few more (a repeat may lengthen it). */
export function pagesToFollow(pages: number): number {
  return 2 * pages + MORE_PAGES;
}

/**
 * The walk the violation was found on, and how far to follow it, when the
 * violation names a walk's page and the log holds a walk that departs there so.
 */
export function walkPlan(
  r: RuleResult,
  v: Violation,
): { first: Exchange; check: WalkCheck; walk: WalkFollowed } | undefined {
  const place = WALK_PLACE.exec(v.where);
  if (!place) return undefined;
  const [, limit, page, token] = place;
  const walk = walksOf(r.exchanges).find(
    (w) => w[0] !== undefined && limitOf(w[0]) === limit && departsAt(w, Number(page), token !== undefined),
  );
  const first = walk?.[0];
  if (!walk || !first) return undefined;
  // A repeat may make a walk longer or shorter than a fixed server's: twice the run's pages and a few more.
  return { first, check: { at: 1, kind: 'walk-once' }, walk: { at: 1, pages: pagesToFollow(walk.length) } };
}
