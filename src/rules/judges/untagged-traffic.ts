/**
 * The ways a rule can read traffic the suite did not send (`TRAFFIC`): HAR
 * traffic of any client carries no rule, step or run, so only a judge that
 * finds its evidence by what the requests asked for and what the answers
 * hold can read it. A rule that can says so in its own record (`traffic`,
 * src/rules/types.ts), naming one of these readings; a rule that does not
 * needs requests the traffic cannot be known to hold (a refusal of an input
 * the driver chose invalid, a write and its read back). Where a rule's judge
 * reads the steps a driver named, the traffic is handed to it as that driver
 * would have tagged it (a typed adapter, never a cast): the walks linked by
 * `next_token` named `resources.list page N`. Pure: a function of the
 * exchanges, sending nothing.
 */
import { validateSchema } from '../../schemas/index.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import { isWarning } from './assign-team-warning.ts';
import { noContent } from './judgement.ts';
import { LIST_ANSWER_JUDGES } from './list-answer.ts';
import { idsFiltered, walksByToken, type WalkRead } from './list-walks.ts';
import { field, type ExchangeJudge, type Observed, type SharedCheck } from './observed.ts';
import { READ_ANSWER_JUDGES } from './read-answers.ts';
import { ofLog, type Judge } from './fold.ts';
import { judgeCountsInTraffic } from './list-counts.ts';
import { judgeChangedQueries } from './changed-query.ts';
import { eachAnswer, markersShaped, restrictedFieldsRedacted } from './redaction.ts';
import { revocationEffectsJudge } from './revocation-effects.ts';
import { judgeWriteEffects } from './write-effects.ts';
import type { Placed, TrafficReading } from './traffic-reading.ts';

export type { Placed, TrafficReading, TrafficReadingOf } from './traffic-reading.ts';

/** The resources.list exchanges as one log: the judge finds its evidence by what each request asked for. */
const listTraffic = (traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> => [
  traffic.filter((p) => p.o.operation === 'resources.list'),
];

const isRolesExchange = (o: Observed): boolean =>
  o.operation === 'resources.revoke-roles' || o.operation === 'resources.list-roles';

/** The revocations and list-roles reads as one log: each read of one resource is held to §4.1's model. */
const rolesTraffic = (traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> => [
  traffic.filter((p) => isRolesExchange(p.o)),
];

/** The reads of teams and of rates as one log: each answer judged for what its caller may view. */
const readsOfFields = (traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> => [
  traffic.filter((p) => p.o.operation === 'resources.show-teams' || p.o.operation === 'resources.show-activity-rates'),
];

/**
 * The rate and team writes and the reads of them as one log (and any
 * operation the spec does not describe, which may change anything): each
 * read of a resource held to the model of what the writes before it did.
 */
const writesAndReads = (traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> => [
  traffic.filter((p) => WRITTEN_OR_READ.has(p.o.operation) || !(p.o.operation in OPERATION_REQUESTS)),
];

const WRITTEN_OR_READ: ReadonlySet<string> = new Set([
  'resources.assign-activity-rate',
  'resources.unassign-activity-rate',
  'resources.assign-team',
  'resources.show-activity-rates',
  'resources.show-teams',
]);

/** The 4xx answers as one log, whatever was asked: each must say what the problem is. */
const errorAnswers = (traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> => [
  traffic.filter((p) => p.o.status >= 400 && p.o.status < 500),
];

/** A walk's pages as `walkPages` tags them (`resources.list page N`), each at its place in the traffic. */
function namedPages(traffic: readonly Placed[], walk: WalkRead): Placed[] {
  return walk.pages.flatMap((p) => {
    const placed = traffic[p.at];
    return placed ? [{ o: { ...placed.o, step: `resources.list page ${p.index + 1}` }, at: placed.at }] : [];
  });
}

/**
 * Every walk linked by its tokens, its pages named as a driver's walk is,
 * one walk after another in the order each began: a judge that reads walks
 * by their steps (a page 1 starts one) reads two walks a client interleaved
 * as two walks.
 */
export function walksAsNamed(traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> {
  return [walksByToken(traffic.map((p) => p.o)).flatMap((w) => namedPages(traffic, w))];
}

/** Each walk linked by its tokens alone, its pages named as a driver's walk is. */
export function eachWalkAsNamed(traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> {
  return walksByToken(traffic.map((p) => p.o)).map((w) => namedPages(traffic, w));
}

/**
 * Each walk that shows the size of its collection, alone: an ids filter its
 * only filter, with no id twice, and the walk ended having listed each of
 * its ids once and nothing else. A driver filters on ids it knows exist, so
 * the filter's size is the collection's; another client's filter may name
 * ids that do not exist, which the walk itself rules out by listing every
 * one. A walk that listed an id twice or one outside its filter departed
 * from another rule's clause (pagination.each-resource-once's,
 * list.ids-filter's), which shifts its pages: it shows nothing of this one.
 */
export function walksOfAShownSize(traffic: readonly Placed[]): ReadonlyArray<readonly Placed[]> {
  return walksByToken(traffic.map((p) => p.o))
    .filter((w) => {
      const ids = idsFiltered(w.request);
      const filters = field(w.request, 'filters');
      if (!w.ended || ids === undefined || !Array.isArray(filters) || filters.length !== 1) return false;
      const listed = w.pages.flatMap((p) => p.page.data.map((r) => r.id));
      const distinct = new Set(listed);
      return new Set(ids).size === ids.length && listed.length === ids.length && ids.every((id) => distinct.has(id));
    })
    .map((w) => namedPages(traffic, w));
}

/** The judges of one answer of `operation` among the shared checks a rule's record names. */
function answersOf(checks: readonly SharedCheck[], operation: string): TrafficReading {
  const judges: readonly ExchangeJudge[] = [...LIST_ANSWER_JUDGES, ...READ_ANSWER_JUDGES].filter(
    (j) => checks.includes(j) && j.operation === operation,
  );
  // A rule with no judge here would pass whatever the answers: a mistake of its record, said at once.
  if (judges.length === 0) throw new Error(`the rule's checks hold no judge of one ${operation} answer`);
  return { by: 'answers', operation, which: 'accepted', judge: (o) => judges.flatMap((j) => j.judge(o)) };
}

/**
 * The readings a rule's record names (`traffic`), by what they read. A
 * function of the rule's id is resolved with it when the rule is defined.
 */
export const TRAFFIC = {
  /** Each accepted answer of `operation`, by the judges of one answer the rule's record names among its checks. */
  answers:
    (operation: string) =>
    (checks: readonly SharedCheck[]): TrafficReading =>
      answersOf(checks, operation),
  /** A write accepted has no body (§4.1, §4.2; the judge of the rule's own requests). */
  noContent: (operation: string, status?: number): TrafficReading => ({
    by: 'answers',
    operation,
    which: 'accepted',
    judge: (o) => noContent(o, status === undefined ? {} : { status }),
  }),
  /** The warning body's fields (§4.3; its status is not shown, so any answer that carries one). */
  warningShaped: {
    by: 'answers',
    operation: 'resources.assign-team',
    which: 'warning',
    judge: (o) => validateSchema('AssignTeamWarning', o.body, `${o.step}: response.body`),
  },
  /** Each walk its tokens link, alone, by the rule's judge: one that shows the clause is evidence enough. */
  eachWalk: { by: 'its judge', logs: eachWalkAsNamed, each: 'any' },
  /** Every walk its tokens link, in one log by the rule's judge. */
  walks: { by: 'its judge', logs: walksAsNamed, each: 'all', foldsWalks: true },
  /** Each walk that shows the size of its collection. */
  walksOfAShownSize: { by: 'its judge', logs: walksOfAShownSize, each: 'any' },
  /** What list requests asked for, whoever sent them (list-traffic.ts), by the rule's judge or `judge`. */
  listRequests: (judge?: Judge): TrafficReading => ({
    by: 'its judge',
    logs: listTraffic,
    each: 'all',
    ...(judge ? { judge } : {}),
  }),
  /** A token sent with other filters, or other orders, than the request it came from: 422 (§4.9 rule 5). */
  changedQueries: (what: 'filters' | 'orders'): TrafficReading => ({
    by: 'its judge',
    logs: listTraffic,
    each: 'all',
    judge: ofLog((log) => judgeChangedQueries(log, what)),
  }),
  /** One collection counted two ways or three (a walk, a strict total_count, limit null), however far apart. */
  countsInTraffic: { by: 'its judge', logs: listTraffic, each: 'all', judge: ofLog(judgeCountsInTraffic) },
  /**
   * Redaction per caller, where the recording says which requests carried
   * the restricted key (judge --restricted-key-placeholder): its reads hide
   * what the profile says it may not view.
   */
  restrictedFieldsRedacted: {
    by: 'its judge',
    logs: readsOfFields,
    each: 'all',
    judge: ofLog((log, profile) =>
      eachAnswer(
        log,
        (o) => restrictedFieldsRedacted(o, profile),
        'no read with the restricted key showed a field it may not view',
      ),
    ),
  },
  /** Every marker of a read has the marker's shape. */
  markersShaped: {
    by: 'its judge',
    logs: readsOfFields,
    each: 'all',
    judge: ofLog((log) => eachAnswer(log, markersShaped, 'no read showed a field replaced by a marker')),
  },
  /** A message on every error answer (the judge leaves out a 429 and the §4.3 warning). */
  errorAnswers: { by: 'its judge', logs: errorAnswers, each: 'all' },
  /**
   * What revocations did, wherever a resource's roles are read alone before
   * and after one (revocation-effects.ts: a refused revocation changes
   * nothing, whether the client's request was valid the traffic does not say).
   */
  revocationEffects: {
    by: 'its judge',
    logs: rolesTraffic,
    each: 'all',
    session: { takes: isRolesExchange, judge: revocationEffectsJudge() },
  },
  /**
   * What rate and team writes did, wherever a resource's rates or teams are
   * read before and after one (write-effects.ts), by the model of §4.2,
   * §4.3's warning_aware, §4.4, §4.5 and §4.7 together (effects-model.ts).
   */
  writeEffects: { by: 'its judge', logs: writesAndReads, each: 'all', judge: ofLog(judgeWriteEffects), long: true },
} as const satisfies Record<string, TrafficReading | ((...args: never[]) => unknown)>;

// Logs judged alone, one showing the clause evidence enough: judgement.ts's, where the answer judges use it too.
export { judgeAny } from './judgement.ts';

/** Whether `o` is one of the answers a reading of one answer judges. */
export function answerJudged(reading: { operation: string; which: 'accepted' | 'warning' }, o: Observed): boolean {
  if (o.operation !== reading.operation) return false;
  return reading.which === 'warning' ? isWarning(o.body) : o.status >= 200 && o.status < 300;
}
