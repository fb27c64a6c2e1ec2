/**
 * Judges of resources.list traffic, whichever rule (or client) sent it: each
 * finds its evidence by what the requests asked for (an `attributes` list,
 * `with_relations` or `with_teams` true, `with_total_count` true, a
 * `resource.ids` filter), never by the steps a driver named, so the same
 * judge reads a rule's own walks, the pairwise rows and traffic the suite did
 * not send. Walks are read by their tokens (`walksByToken`). Where the spec
 * says "not shown" (the keys inside `attributes`, what an approximate count
 * gives, the default of `counting_mode`), what the server chose imposes
 * nothing; traffic too thin to show a clause is no evidence.
 */
import type { Violation } from '../../core/types.ts';
import { recordOf } from '../json-values.ts';
import { listKindId, type TargetProfile } from '../../target/profile.ts';
import { isClean, isNoVerdict, judgeAll, noEvidence, type Judgement } from './judgement.ts';
import { LIST_IDS } from './list-answer.ts';
import { enoughPagesIn, idsFiltered, pageNamed, walksByToken, type WalkRead } from './list-walks.ts';
import { field, type Observed } from './observed.ts';

/** An answered resources.list exchange: 200 and a `data` array, whatever else the body holds. */
interface ListAnswer {
  readonly o: Observed;
  /** Where in the log it is. */
  readonly at: number;
  readonly data: readonly unknown[];
}

function listAnswers(log: readonly Observed[]): ListAnswer[] {
  return log.flatMap((o, at) => {
    const data = field(o.body, 'data');
    return o.operation === 'resources.list' && o.status === 200 && Array.isArray(data) ? [{ o, at, data }] : [];
  });
}

const idOf = (resource: unknown): string | undefined => {
  const id = field(resource, 'id');
  return typeof id === 'string' ? id : undefined;
};

/**
 * An "every page" clause is shown by a walk that asked for it (`asks`) with
 * enough pages holding resources; otherwise no evidence, or no verdict when
 * such a walk stopped on an answer that says nothing (401, 429, 5xx). `what`
 * says what the walk asked for, e.g. "with with_teams true".
 */
function everyPageShown(log: readonly Observed[], asks: (request: unknown) => boolean, what: string): Judgement {
  const walks = walksByToken(log).filter((w) => asks(w.request));
  if (walks.some((w) => isClean(enoughPagesIn(w, what)))) return [];
  const stopped = walks.map((w) => w.unread).find(isNoVerdict);
  if (stopped) return stopped;
  const best = walks.reduce<WalkRead | undefined>(
    (a, w) => (a === undefined || filled(w) > filled(a) ? w : a),
    undefined,
  );
  return best ? enoughPagesIn(best, `the walk ${what}`) : noEvidence(`no walk ${what}`);
}

const filled = (walk: WalkRead): number => walk.pages.filter((p) => p.page.data.length > 0).length;

/**
 * The attributes a request asks for that every resource must carry: those
 * the profile says every resource of its listed kind carries (the keys
 * inside `attributes` are not shown, so an attribute the profile does not
 * name may be absent from a resource without a departure).
 */
function attributesOwed(request: unknown, profile: TargetProfile): string[] {
  const asked = field(request, 'attributes');
  if (!Array.isArray(asked) || field(request, 'kind_id') !== listKindId(profile)) return [];
  const carried = new Set([...(profile.sortAttribute ? [profile.sortAttribute] : []), ...(profile.attributes ?? [])]);
  return asked.filter((a): a is string => typeof a === 'string' && carried.has(a));
}

/**
 * list.attributes-returned: every resource of every answer to a request with
 * a non-empty `attributes` carries each attribute it asked for that the
 * profile says every resource of the listed kind carries, on every page.
 */
export function judgeAttributesReturned(log: readonly Observed[], profile: TargetProfile): Judgement {
  const violations = listAnswers(log).flatMap(({ o, data }): Violation[] => {
    const owed = attributesOwed(o.request, profile);
    if (owed.length === 0) return [];
    return data.flatMap((r, i): Violation[] => {
      const attributes = field(r, 'attributes');
      const absent = owed.filter((a) => field(attributes, a) === undefined || field(attributes, a) === null);
      return absent.length === 0
        ? []
        : [
            {
              where: `${pageNamed(o.step, o.request)}: response.body.data[${i}].attributes`,
              message: `must carry every requested attribute (missing ${absent.join(', ')} of ${owed.join(', ')}), whatever else the request holds`,
              expected: owed,
              actual: attributes,
            },
          ];
    });
  });
  const shown = everyPageShown(
    log,
    (request) => attributesOwed(request, profile).length > 0,
    'asking for attributes every resource carries',
  );
  return judgeAll([violations, shown]);
}

/**
 * list.with-teams and list.with-relations: every resource of every answer
 * to a request with `with_<added>` true carries `<added>`, an array, on every
 * page.
 */
export function judgeArrayAdded(log: readonly Observed[], added: 'teams' | 'relations'): Judgement {
  const flag = `with_${added}`;
  const violations = listAnswers(log).flatMap(({ o, data }): Violation[] =>
    field(o.request, flag) !== true
      ? []
      : data.flatMap((r, i): Violation[] =>
          Array.isArray(field(r, added))
            ? []
            : [
                {
                  where: `${pageNamed(o.step, o.request)}: response.body.data[${i}].${added}`,
                  message: `must be an array when ${flag} is true, whatever else the request holds`,
                  expected: 'array',
                  actual: field(r, added),
                },
              ],
        ),
  );
  return judgeAll([violations, everyPageShown(log, (request) => field(request, flag) === true, `with ${flag} true`)]);
}

/** A request with `at_date` left out and one that sends it are read at different dates. */
const dateOf = (request: unknown): unknown => field(request, 'at_date') ?? null;

/**
 * The ids the answers before `before` showed to exist among the resources of
 * `request`'s kind, read at its date, each with the place it was first seen
 * (the collection's order as the traffic showed it).
 */
function shownToExist(answers: readonly ListAnswer[], before: number, request: unknown): Map<string, number> {
  const kind = field(request, 'kind_id');
  const shown = new Map<string, number>();
  for (const { o, at, data } of answers) {
    if (at >= before || field(o.request, 'kind_id') !== kind || dateOf(o.request) !== dateOf(request)) continue;
    for (const r of data) {
      const id = idOf(r);
      if (id !== undefined && field(r, 'kind_id') === kind && !shown.has(id)) shown.set(id, shown.size);
    }
  }
  return shown;
}

/** The request with its filters alone deciding which resources it lists: its ids filter, if it has no other. */
function onlyIdsFilter(request: unknown): string[] | undefined {
  const filters = field(request, 'filters');
  return Array.isArray(filters) && filters.length === 1 ? idsFiltered(request) : undefined;
}

/** A page holds only ids its request's ids filter names (any page, when it has none). */
function onlyOfFilter(request: unknown, data: readonly unknown[]): boolean {
  const ids = idsFiltered(request);
  return ids === undefined || data.every((r) => ids.includes(idOf(r) ?? ''));
}

/** What decides the set a request lists: its kind, date and filters (presentation and paging aside). */
const setKey = (request: unknown): string =>
  JSON.stringify([field(request, 'kind_id'), dateOf(request), field(request, 'filters') ?? []]);

const listedIds = (walk: WalkRead): string[] => walk.pages.flatMap((p) => p.page.data.map((r) => r.id));

/**
 * The size of the set `request` filters, where the traffic before `at` (or
 * any walk of the same set that ended) shows it: an ids filter alone whose
 * ids an earlier answer all showed to exist, else a walk of the same kind,
 * date and filters that ended.
 */
function filteredSetSize(
  answers: readonly ListAnswer[],
  walks: readonly WalkRead[],
  at: number,
  request: unknown,
): number | undefined {
  const ids = onlyIdsFilter(request);
  if (ids !== undefined) {
    const shown = shownToExist(answers, at, request);
    const distinct = new Set(ids);
    if ([...distinct].every((id) => shown.has(id))) return distinct.size;
  }
  const walked = walks.find((w) => w.ended && setKey(w.request) === setKey(request));
  return walked ? new Set(listedIds(walked)).size : undefined;
}

/**
 * list.total-count-of-filtered-set: every answer to a request with
 * `with_total_count` true has `total_count`, an integer, and
 * `total_count_approximate`, a boolean; counted strictly, where the traffic
 * shows the size of the filtered set, the count is that size on every page.
 * An approximate count, or one whose counting_mode was left out (its default
 * is not shown), is not judged for its value.
 */
export function judgeTotalCount(log: readonly Observed[]): Judgement {
  const answers = listAnswers(log);
  const walks = walksByToken(log);
  // A walk with a page outside its ids filter counts the set the server filtered: list.ids-filter's departure.
  const strayed = new Set(
    walks
      .filter((w) => !w.pages.every((p) => onlyOfFilter(p.request, p.page.data)))
      .flatMap((w) => w.pages.map((p) => p.request)),
  );
  const violations = answers.flatMap(({ o, at, data }): Violation[] => {
    if (field(o.request, 'with_total_count') !== true) return [];
    const total = field(o.body, 'total_count');
    const approximate = field(o.body, 'total_count_approximate');
    const found: Violation[] = [];
    if (typeof total !== 'number' || !Number.isInteger(total)) {
      found.push({
        where: `${pageNamed(o.step, o.request)}: response.body.total_count`,
        message: 'must be present, an integer, when with_total_count is true',
        expected: 'integer',
        actual: total,
      });
    }
    if (typeof approximate !== 'boolean') {
      found.push({
        where: `${pageNamed(o.step, o.request)}: response.body.total_count_approximate`,
        message: 'must be present, a boolean, when with_total_count is true',
        expected: 'boolean',
        actual: approximate,
      });
    }
    // A page that lists ids outside its ids filter counts the set the server filtered: list.ids-filter's departure.
    if (
      field(o.request, 'counting_mode') !== 'strict' ||
      typeof total !== 'number' ||
      !onlyOfFilter(o.request, data) ||
      strayed.has(o.request)
    )
      return found;
    const size = filteredSetSize(answers, walks, at, o.request);
    if (size !== undefined && total !== size) {
      found.push({
        where: `${pageNamed(o.step, o.request)}: response.body.total_count`,
        message: 'must be the number of resources matching the filters (not of the page), on every page',
        expected: size,
        actual: total,
      });
    }
    return found;
  });
  const counted = walks.filter(
    (w) =>
      field(w.request, 'with_total_count') === true &&
      field(w.request, 'counting_mode') === 'strict' &&
      w.pages.every((p) => onlyOfFilter(p.request, p.page.data)) &&
      filteredSetSize(answers, walks, w.startedAt, w.request) !== undefined,
  );
  const shown = everyPageShown(
    log,
    (request) => counted.some((w) => w.request === request),
    'counted strictly over a set whose size the traffic shows',
  );
  return judgeAll([violations, shown]);
}

/** How a filter's ids are ordered against the collection's order as the traffic showed it. */
function orderOf(ids: readonly string[], shown: ReadonlyMap<string, number>): string {
  const places = ids.flatMap((id) => shown.get(id) ?? []);
  if (places.length < 2) return 'of one id shown to exist';
  if (places.every((p, i) => i === 0 || p > (places[i - 1] ?? p))) return 'in the order listed';
  if (places.every((p, i) => i === 0 || p < (places[i - 1] ?? p))) return 'reversed';
  return 'in another order';
}

/**
 * list.ids-filter: every page of a request with a `resource.ids` filter
 * holds only ids of the filter; a walk of one that ended, the ids filter its
 * only filter, holds, once, each filtered id an earlier answer showed to
 * exist (an id not shown to exist imposes nothing); and walks that ended
 * with the same ids in another order list the same set.
 */
export function judgeIdsFilter(log: readonly Observed[]): Judgement {
  const answers = listAnswers(log);
  const strays = answers.flatMap(({ o }) => (idsFiltered(o.request) ? LIST_IDS.judge(o) : []));
  const walks = walksByToken(log).filter((w) => idsFiltered(w.request) !== undefined);
  const judged: Array<{ walk: WalkRead; name: string; listed: string[] }> = [];
  const violations: Violation[] = [];
  for (const walk of walks) {
    const ids = idsFiltered(walk.request) ?? [];
    const shown = shownToExist(answers, walk.startedAt, walk.request);
    // Only a walk its ids filter alone decides owes each id: another filter beside it (a text prefix) may
    // rightly leave some out, and which, the traffic does not say.
    const owed = onlyIdsFilter(walk.request) === undefined ? [] : [...new Set(ids)].filter((id) => shown.has(id));
    if (!walk.ended || owed.length === 0) continue;
    const first = walk.pages[0] ? pageNamed(walk.pages[0].step, walk.request) : 'resources.list';
    const name = `ids filter ${orderOf(ids, shown)} (walk from ${first})`;
    const listed = listedIds(walk);
    judged.push({ walk, name, listed });
    const wrong = owed.filter((id) => listed.filter((l) => l === id).length !== 1);
    if (wrong.length > 0) {
      violations.push({
        where: `${name}: all pages`,
        message: 'must hold every resource whose id is in the resource.ids filter, once (each was listed before)',
        expected: [...owed].sort(),
        actual: [...listed].sort(),
      });
    }
  }
  // The same ids in another order are the same filter: the set listed must not change.
  for (const [i, b] of judged.entries()) {
    const a = judged
      .slice(0, i)
      .find(
        (x) =>
          sameButOrder(x.walk.request) !== undefined &&
          sameButOrder(x.walk.request) === sameButOrder(b.walk.request) &&
          JSON.stringify(idsFiltered(x.walk.request)) !== JSON.stringify(idsFiltered(b.walk.request)),
      );
    if (a && !sameSet(a.listed, b.listed)) {
      violations.push({
        where: `${b.name}: all pages`,
        message: 'must list the same resources whatever the order of the ids in the filter',
        expected: [...new Set(a.listed)].sort(),
        actual: [...new Set(b.listed)].sort(),
      });
    }
  }
  const stopped = walks.map((w) => w.unread).find(isNoVerdict);
  const shown =
    judged.length > 0
      ? []
      : (stopped ?? noEvidence('no walk of a resource.ids filter, with ids an earlier answer listed, that ended'));
  return judgeAll([strays, otherKindsListed(answers), violations, shown]);
}

/**
 * An id of another kind among a filter's ids is never listed: what is listed
 * is of the kind asked for (§4.8), whatever ids the filter names.
 */
function otherKindsListed(answers: readonly ListAnswer[]): Violation[] {
  return answers.flatMap(({ o, data }): Violation[] => {
    const kind = field(o.request, 'kind_id');
    if (idsFiltered(o.request) === undefined || typeof kind !== 'string') return [];
    const strays = data.filter((r) => {
      const of = field(r, 'kind_id');
      return typeof of === 'string' && of !== kind;
    });
    if (strays.length === 0) return [];
    return [
      {
        where: `${pageNamed(o.step, o.request)}: response.body.data`,
        message: 'must hold only resources of the kind asked for, whatever ids the resource.ids filter names',
        expected: `kind_id ${kind}`,
        actual: strays.map((r) => `${String(field(r, 'id'))} of kind ${String(field(r, 'kind_id'))}`),
      },
    ];
  });
}

/**
 * A walk's request with the ids of its one filter as a set and its next_token
 * left out: two walks that differ in nothing else differ only in the order of
 * the ids (undefined: a request with another filter beside its ids filter).
 */
function sameButOrder(request: unknown): string | undefined {
  const ids = onlyIdsFilter(request);
  if (ids === undefined) return undefined;
  return JSON.stringify(
    Object.entries(recordOf(request)).map(([k, v]) => {
      if (k === 'filters') return [k, [...new Set(ids)].sort()];
      return k === 'pagination' ? [k, field(v, 'limit')] : [k, v];
    }),
  );
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const s = new Set(a);
  const t = new Set(b);
  return s.size === t.size && [...t].every((x) => s.has(x));
};
