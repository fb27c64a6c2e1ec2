/**
 * Walks of resources.list read back from a rule's log, for the judges of §4.8
 * rules: the pages `walkPages` tagged `resources.list page N` (or, read by
 * content, every resources.list exchange of the log), each linked to the page
 * before it by the `next_token` it sent, grouped into one walk per request. A
 * judge reads a walk's pages as the answers they were, with no network and
 * whatever else the log holds (shared reads, other walks).
 */
import { matchesSchema, type ListEnvelope } from '../../schemas/index.ts';
import { listRequestShown } from '../../core/list-request-shown.ts';
import { accepted, isNoVerdict, noEvidence, type Judgement } from './judgement.ts';
import { field, type Observed } from './observed.ts';

/**
 * Pages holding resources an "every page" clause must have looked at: the
 * first, and at least two a next_token asked for (bugs of later pages live on
 * the pages a next_token asks for). Fewer is data too thin to show the
 * clause: no evidence (SKIP, not PASS).
 */
export const MIN_PAGES = 3;

/** The step `walkPages` tags each page with. */
const PAGE_STEP = /^resources\.list page (\d+)$/;

export interface WalkedPage {
  /** The page's step, e.g. "resources.list page 2". */
  readonly step: string;
  /** From 0. */
  readonly index: number;
  /** Where in the log the page is. */
  readonly at: number;
  readonly request: unknown;
  readonly page: ListEnvelope;
}

export interface WalkRead {
  /** The first page's request: what the walk asked for. */
  readonly request: unknown;
  /** Where in the log the walk's first page is: what came before it is what the walk could rely on. */
  readonly startedAt: number;
  readonly pages: readonly WalkedPage[];
  /** The last page read has next_token null or no data (§4.9 rule 3). */
  readonly ended: boolean;
  /**
   * Why the walk stops short of a page: an answer that says nothing (401,
   * 429, 5xx), or one that is no list of resources (pagination.envelope's
   * clause: no evidence here). None when every page read was a list.
   */
  readonly unread: Judgement;
}

const nextTokenSent = (request: unknown): unknown => field(field(request, 'pagination'), 'next_token');

/** A request with its next_token left out: every page of one walk sends the same (the proxy links walks by it as they come). */
export function walkKey(request: unknown): string {
  if (typeof request !== 'object' || request === null) return JSON.stringify(request);
  return JSON.stringify(
    Object.entries(request).map(([k, v]) => (k === 'pagination' ? [k, field(v, 'limit')] : [k, v])),
  );
}

interface Building {
  key: string;
  request: unknown;
  startedAt: number;
  pages: WalkedPage[];
  ended: boolean;
  unread: Judgement;
  /** The token the next page must send, while the walk goes on. */
  next: string | undefined;
}

/** Every walk of the log, in the order each began: the pages `walkPages` tagged `resources.list page N`. */
export function walksIn(log: readonly Observed[]): WalkRead[] {
  return linked(
    log.map((o) => {
      const step = PAGE_STEP.exec(o.step);
      return step ? { o, index: Number(step[1]) - 1 } : undefined;
    }),
  );
}

/**
 * Every walk of the log, read by content whatever its steps are named: each
 * resources.list request with next_token null begins one, and each request
 * that sends the next_token a walk's last page gave, the rest of the request
 * the same, is its next page. Traffic the suite did not send reads the same.
 */
export function walksByToken(log: readonly Observed[]): WalkRead[] {
  return linked(log.map((o) => ({ o })));
}

/** The walks of the pages given (undefined: not a page; `index`: the page's number, from 0, when its step says it). */
function linked(pages: ReadonlyArray<{ o: Observed; index?: number } | undefined>): WalkRead[] {
  const walks: Building[] = [];
  for (const [at, entry] of pages.entries()) {
    if (!entry || entry.o.operation !== 'resources.list') continue;
    const { o } = entry;
    const token = nextTokenSent(o.request);
    const key = walkKey(o.request);
    let walk: Building | undefined;
    if ((entry.index ?? 0) === 0 && token === null) {
      walk = { key, request: o.request, startedAt: at, pages: [], ended: false, unread: [], next: undefined };
      walks.push(walk);
    } else {
      walk = walks.findLast((w) => w.key === key && w.next !== undefined && w.next === token);
    }
    // A page whose walk did not start in this log says nothing of it.
    if (walk === undefined) continue;
    const index = entry.index ?? walk.pages.length;
    walk.next = undefined;
    if (o.status !== 200 || !matchesSchema('ListEnvelope', o.body)) {
      const answer = accepted(o, { status: 200 });
      walk.unread = isNoVerdict(answer) ? answer : noEvidence(`${o.step} is not a list of resources`);
      continue;
    }
    walk.pages.push({ step: o.step, index, at, request: o.request, page: o.body });
    if (o.body.next_token === null || o.body.data.length === 0) walk.ended = true;
    else walk.next = o.body.next_token;
  }
  return walks.map(({ request, startedAt, pages, ended, unread }) => ({ request, startedAt, pages, ended, unread }));
}

/**
 * An "every page" clause needs the first page and at least two a next_token
 * asked for holding resources (MIN_PAGES): fewer is data too thin to show it,
 * no evidence (SKIP, not PASS). `walked` names the walk.
 */
export function enoughPagesIn(walk: WalkRead, walked: string): Judgement {
  const filled = walk.pages.filter((p) => p.page.data.length > 0).length;
  return filled >= MIN_PAGES
    ? []
    : noEvidence(
        `${walked} gave ${filled} page(s) holding resources: ${MIN_PAGES} are needed to show the rule on every page`,
      );
}

/** The ids a request's `resource.ids` filter names, if it has one. */
export function idsFiltered(request: unknown): string[] | undefined {
  const filters = field(request, 'filters');
  const filter: unknown = Array.isArray(filters) ? filters.find((f) => field(f, 'key') === 'resource.ids') : undefined;
  const value = field(filter, 'value');
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** The attribute and prefix of a request's `resource.text` starts_with filter, if it has one. */
export function textFilterOf(request: unknown): { attribute: string; prefix: string } | undefined {
  const filters = field(request, 'filters');
  const filter: unknown = Array.isArray(filters) ? filters.find((f) => field(f, 'key') === 'resource.text') : undefined;
  const attribute = field(field(filter, 'value'), 'attribute');
  const prefix = field(field(filter, 'value'), 'value');
  return typeof attribute === 'string' && typeof prefix === 'string' ? { attribute, prefix } : undefined;
}

/** A page of one walk or another: "resources.list page 2" (a walk's tag) or "page 2". */
const BARE_PAGE = /^(?:resources\.list )?page (\d+)$/;

/**
 * The name a violation gives a page: its step, unless the step names only a
 * page ("resources.list page 2", shared by every walk of the same request,
 * whichever rule sent it), which is then named by what its request asked for
 * too: "resources.list page 2 (with_teams, limit 5)".
 */
export function pageNamed(step: string, request: unknown): string {
  const page = BARE_PAGE.exec(step);
  return page ? `resources.list page ${page[1]} (${listRequestShown(request)})` : step;
}
