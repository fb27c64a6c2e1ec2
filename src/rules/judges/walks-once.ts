/**
 * The judge of `pagination.each-resource-once` (§4.9 rules 1-3), written as
 * a fold (fold.ts): the engine hands it each page as it comes and keeps only
 * its state, so a walk over a million resources is judged in bounded memory
 * (one table of the ids seen, about twenty bytes an id, a bit per walk: see
 * seen-ids.ts), never a log of a million resources. The same fold judges a
 * recorded log by folding over it.
 *
 * It reads the pages `walkPages` tags `resources.list page N` (page 1 starts
 * a walk, page N+1 follows page N), whichever rule walked, and judges:
 * - within each walk, a resource returned again and a `next_token` that comes
 *   back (WalkJudge, the same judge the walk runs for other rules' walks);
 * - a walk that goes on past the pages its collection can fill (`pagesFor`);
 * - the same set whatever the limit: the first walk of a request that ends is
 *   its reference, a later walk of the same request but for its page size
 *   yields exactly its resources, and a walk filtered on ids its reference
 *   yielded yields each of them.
 * No walk that ended after two pages or more: no page boundary shows the
 * clause (no evidence, never a pass).
 */
import type { Violation } from '../../core/types.ts';
import { MAX_WALKS, SeenIds } from '../steps/seen-ids.ts';
import { fold, type Judge } from './fold.ts';
import { accepted, judgeAll, noEvidence, type Judgement } from './judgement.ts';
import { field, noVerdict, type Observed } from './observed.ts';
import { WalkJudge } from './walk.ts';

/** The step `walkPages` tags each page with. */
const PAGE_STEP = /^resources\.list page (\d+)$/;

/** Pages a walk of an unknown collection may take before it counts as endless: 20,000 pages of 500. */
export const FIRST_WALK_PAGES = 20_000;

/** Pages a walk of `size` resources, `limit` a page, may take: the pages they fill and a few more. */
export function pagesFor(size: number, limit: number): number {
  return Math.ceil(size / limit) + 3;
}

const SAME_SET = 'must yield every resource of the collection exactly once, the same set whatever the limit';

interface OpenWalk {
  /** The request but for its pagination: walks of one key list the same resources. */
  key: string;
  /** The same key without an ids filter, and the ids filtered on, when that is the request's only filter. */
  unfiltered?: { key: string; ids: readonly string[] };
  limit: unknown;
  bit: number;
  judge: WalkJudge;
  pages: number;
  /** Pages that held resources. */
  full: number;
  resources: number;
  /** Pages the walk may take before it counts as endless. */
  maxPages: number;
  /** The last page's next_token: the next page of the walk sends it (§4.9 rule 2). */
  token: unknown;
  /** The last page said the iteration ends (§4.9 rule 3). */
  ended: boolean;
  /** A page was no list of resources: the walk cannot be compared. */
  broken: boolean;
}

/** The first walk of a request that ended: the set later walks of it are compared with. */
interface Reference {
  bit: number;
  limit: unknown;
  /** Resources it yielded, repeats included (what its later walks' page bound rests on). */
  resources: number;
  /** Distinct ids. */
  size: number;
}

interface State {
  /** Every walk's ids, a bit per walk. */
  ids: SeenIds;
  /** Bits no walk holds. */
  free: number;
  open: OpenWalk | undefined;
  /** By key, in the order they were made (the oldest gives its bit up first). */
  references: Map<string, Reference>;
  violations: Violation[];
  /** Pages that were no list of resources: no verdict (401, 429, 5xx) or no evidence. */
  unread: Judgement[];
  /** Walks that ended after two pages or more with resources. */
  boundaries: number;
}

const ALL_BITS = (1 << MAX_WALKS) - 1;

function pagination(request: unknown): unknown {
  return field(request, 'pagination');
}

/** A request's key: itself but for its pagination. */
function keyOf(request: unknown): string {
  if (typeof request !== 'object' || request === null) return String(request);
  const { pagination: _pagination, ...rest } = Object.fromEntries(Object.entries(request));
  return JSON.stringify(rest);
}

/** The key of the request without its filters and the ids it filtered on, when an ids filter is its only filter. */
function unfilteredOf(request: unknown): OpenWalk['unfiltered'] {
  const filters = field(request, 'filters');
  if (!Array.isArray(filters) || filters.length !== 1 || field(filters[0], 'key') !== 'resource.ids') return undefined;
  const ids = field(filters[0], 'value');
  if (!Array.isArray(ids) || !ids.every((v) => typeof v === 'string') || typeof request !== 'object' || !request)
    return undefined;
  const { filters: _filters, ...rest } = Object.fromEntries(Object.entries(request));
  return { key: keyOf(rest), ids };
}

/** A bit no walk holds; the oldest reference gives its up when none is free. */
function takeBit(state: State): number {
  if (state.free === 0) {
    const [oldest] = state.references;
    if (oldest) {
      state.references.delete(oldest[0]);
      release(state, oldest[1].bit);
    }
  }
  const bit = state.free & -state.free;
  state.free &= ~bit;
  return bit;
}

function release(state: State, bit: number): void {
  state.ids.forget(bit);
  state.free |= bit;
}

function start(state: State, o: Observed): OpenWalk {
  const limit = field(pagination(o.request), 'limit');
  const key = keyOf(o.request);
  const unfiltered = unfilteredOf(o.request);
  const bit = takeBit(state);
  const reference = state.references.get(key);
  const perPage = typeof limit === 'number' && limit > 0 ? limit : undefined;
  const maxPages =
    perPage === undefined
      ? FIRST_WALK_PAGES
      : reference
        ? pagesFor(reference.resources, perPage)
        : unfiltered
          ? pagesFor(unfiltered.ids.length, perPage)
          : FIRST_WALK_PAGES;
  return {
    key,
    ...(unfiltered ? { unfiltered } : {}),
    limit,
    bit,
    judge: new WalkJudge({ ids: state.ids, walk: bit }),
    pages: 0,
    full: 0,
    resources: 0,
    maxPages,
    token: null,
    ended: false,
    broken: false,
  };
}

/** What a walk shows once it is over (or, for the judgement, as far as it went): it changes nothing. */
function closing(state: State, walk: OpenWalk): Violation[] {
  const violations: Violation[] = [];
  if (!walk.ended && !walk.broken && walk.pages >= walk.maxPages) {
    violations.push({
      where: `limit ${walk.limit}, page ${walk.pages + 1}`,
      message: 'must end: next_token never null and data never empty',
      expected: `at most ${walk.maxPages} pages`,
      actual: 'more',
    });
  }
  if (!walk.ended || walk.broken) return violations;
  const reference = state.references.get(walk.key);
  if (reference) {
    const both = reference.bit | walk.bit;
    const missing = state.ids.idsOf(both, reference.bit, 5);
    const extra = state.ids.idsOf(both, walk.bit, 5);
    if (missing.length > 0 || extra.length > 0) {
      violations.push({
        where: `limit ${walk.limit}`,
        message: SAME_SET,
        expected: `${reference.size} resources (as with limit ${reference.limit})`,
        actual:
          `${state.ids.countOf(walk.bit, walk.bit)} resources; missing ${missing.join(', ') || 'none'}; ` +
          `extra ${extra.join(', ') || 'none'}`,
      });
    }
  }
  const whole = walk.unfiltered && state.references.get(walk.unfiltered.key);
  // Only ids the whole collection's walk yielded must be yielded: an id it never listed shows nothing here.
  if (walk.unfiltered && whole && walk.unfiltered.ids.every((id) => (state.ids.walksOf(id) & whole.bit) !== 0)) {
    const expected = walk.unfiltered.ids;
    const got = expected.filter((id) => (state.ids.walksOf(id) & walk.bit) !== 0);
    if (got.length < expected.length) {
      violations.push({
        where: `limit ${walk.limit}, ids filter of ${expected.length}`,
        message: SAME_SET,
        expected: [...expected],
        actual: got,
      });
    }
  }
  return violations;
}

/** Ends the walk under way: its departures kept, it becomes its request's reference or gives its bit back. */
function close(state: State): void {
  const walk = state.open;
  if (!walk) return;
  state.open = undefined;
  state.violations.push(...closing(state, walk));
  if (walk.ended && !walk.broken && walk.full >= 2) state.boundaries += 1;
  if (walk.ended && !walk.broken && !state.references.has(walk.key)) {
    state.references.set(walk.key, {
      bit: walk.bit,
      limit: walk.limit,
      resources: walk.resources,
      size: state.ids.countOf(walk.bit, walk.bit),
    });
  } else release(state, walk.bit);
}

function page(state: State, o: Observed, n: number): void {
  if (n === 1) {
    close(state);
    state.open = start(state, o);
  }
  const walk = state.open;
  // A page that does not follow the walk's last one, with its token, is not judged (a log cut, or walks sent side by side).
  if (!walk || walk.ended || walk.broken || n !== walk.pages + 1) return;
  if (n > 1 && (keyOf(o.request) !== walk.key || field(pagination(o.request), 'next_token') !== walk.token)) return;
  walk.pages = n;
  const data = field(o.body, 'data');
  if (o.status !== 200 || !Array.isArray(data)) {
    // A page's status and shape are pagination.envelope's: here 401, 429 and 5xx are no verdict, the rest no evidence.
    walk.broken = true;
    state.unread.push(
      noVerdict(o) ? accepted(o, { status: 200 }) : noEvidence(`${o.step} was not answered with a page`),
    );
    return;
  }
  state.violations.push(...walk.judge.page(o, n - 1, `limit ${walk.limit}`));
  walk.resources += data.length;
  if (data.length > 0) walk.full += 1;
  walk.token = field(o.body, 'next_token');
  walk.ended = walk.token === null || data.length === 0;
}

export const eachResourceOnce: Judge = fold<State>({
  initial: () => ({
    ids: new SeenIds(),
    free: ALL_BITS,
    open: undefined,
    references: new Map(),
    violations: [],
    unread: [],
    boundaries: 0,
  }),
  step(state, o) {
    const n = o.operation === 'resources.list' ? PAGE_STEP.exec(o.step)?.[1] : undefined;
    if (n !== undefined) page(state, o, Number(n));
    return state;
  },
  end(state) {
    const open = state.open;
    const violations = open ? [...state.violations, ...closing(state, open)] : state.violations;
    const crossed = state.boundaries > 0 || (open?.ended === true && !open.broken && open.full >= 2);
    return judgeAll([
      violations,
      ...state.unread,
      crossed ? [] : noEvidence('no walk ended after two pages or more: no page boundary shows the clause'),
    ]);
  },
});
