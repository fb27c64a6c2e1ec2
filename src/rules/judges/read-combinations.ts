/**
 * Judges of the pairwise reads of resources.show-teams, list-roles and
 * show-activity-rates (properties/reads-pairwise.properties.ts): every row of
 * a covering array is read, and the answers are judged by oracles that hold
 * whatever the server chose where the spec is open.
 *
 * - Each answer holds only what its filters let through (an item of another
 *   team, head, resource or role belongs to the filter rules: `membership`).
 * - The answers agree with each other (this file's judges, for the pairwise
 *   rules): several filters together give the intersection of what each
 *   lets through, several ids the union of each alone, in any order; a
 *   record inside the requested range is shown, one outside it is not, and a
 *   record that lies otherwise against the range (across its start, its
 *   end, covering it, touching it) is shown or not as the server chooses,
 *   but alike for every record lying the same way, whatever the other
 *   filters and wherever the range's ends fall on the calendar.
 * - A request whose fields are all present and valid is never refused. A
 *   field left out may be required, and what leaving it out does is not
 *   shown: such a row is judged only for what holds whatever it means.
 */
import type { Violation } from '../../core/types.ts';
import {
  matchesSchema,
  type ActivityRatePeriod,
  type RoleAssociation,
  type TeamAssignation,
} from '../../schemas/index.ts';
import { splitRange, type DateSpan } from '../dates.ts';
import { relationOf, type Relation } from '../input-models/date-ranges.ts';
import { associationKey } from '../steps/roles.ts';
import { accepted, isClean, judgeAll, noEvidence, firstWithStep, type Judgement } from './judgement.ts';
import { field, type Observed } from './observed.ts';

/** The steps the pairwise drivers tag their reads with. */
export const PAIRWISE_STEP = {
  teamsWide: (head: boolean) => `show-teams pairwise: every team, head ${head}, the wide range`,
  teamsRow: (n: number) => `show-teams pairwise row ${n}`,
  ratesWide: 'show-activity-rates pairwise: the wide range',
  ratesRow: (n: number) => `show-activity-rates pairwise row ${n}`,
  rolesAll: 'list-roles pairwise: the resources and every role',
  rolesRow: (n: number) => `list-roles pairwise row ${n}`,
} as const;

const ROW_PREFIX = {
  teams: 'show-teams pairwise row ',
  rates: 'show-activity-rates pairwise row ',
  roles: 'list-roles pairwise row ',
} as const;

/** What a departure of the pairwise rows is found at: the operation, the field, then the row. */
const at = (operation: string, place: string, o: Observed): string => `${operation} pairwise: ${place} (${o.step})`;

const isRefusal = (o: Observed): boolean => o.status >= 400 && o.status < 500 && o.status !== 401 && o.status !== 429;

/**
 * A row's answer as a list of `schema`, or what stops there: a refusal of a
 * request whose fields are all present (a departure), of one that leaves a
 * field out (open: nothing to judge), a harness fault, or a body of another
 * shape (the response-shape rule's business).
 */
function answerOf<N extends 'TeamAssignationList' | 'ActivityRatePeriodList' | 'RoleAssociationList'>(
  o: Observed,
  schema: N,
  complete: boolean,
  operation: string,
): { shown: unknown[] } | { judgement: Judgement } {
  if (isRefusal(o)) {
    if (!complete) return { judgement: [] };
    return {
      judgement: [
        {
          where: at(operation, 'response.status', o),
          message: 'must accept a request whose values are all documented and valid, whatever their combination',
          expected: 200,
          actual: `${o.status} ${o.text.slice(0, 200)}`,
        },
      ],
    };
  }
  const answer = accepted(o, { status: 200 });
  if (!isClean(answer)) return { judgement: answer };
  const body: unknown = o.body;
  return matchesSchema(schema, body) && Array.isArray(body) ? { shown: body } : { judgement: [] };
}

const stringsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v): v is string => typeof v === 'string') ? value : undefined;

/** The span a record's or a request's date_range names, if it is one. */
const spanOf = (range: unknown): DateSpan | undefined => (typeof range === 'string' ? splitRange(range) : undefined);

/** Shown within what the wide read showed: `y`'s span inside `x`'s (a server may clip it to the range). */
const within = (y: DateSpan | undefined, x: DateSpan | undefined): boolean =>
  y !== undefined && x !== undefined && x.start <= y.start && y.end <= x.end;

/** A read over a range, its items and the wide records it admits by its other filters. */
interface RangeRead<T> {
  o: Observed;
  range: DateSpan | undefined;
  /** Every field present: the read is judged for what each record inside the range must give. */
  complete: boolean;
  shown: T[];
}

interface RangeOracle<T> {
  operation: string;
  wide: T[];
  span: (item: T) => DateSpan | undefined;
  /** The same record, `y` as a read over a range shows it, `x` as the wide read does. */
  same: (y: T, x: T) => boolean;
  /** Whether the read's other filters let the wide record through. */
  admits: (read: RangeRead<T>, x: T) => boolean;
  name: (x: T) => string;
}

/**
 * Reads over ranges against the wide read: each item is a record the wide
 * read holds and lies in the range; a complete read shows every record
 * inside its range that its filters admit; and each relation other than
 * inside and disjoint is answered alike in every complete read.
 */
function judgeRangeReads<T>(reads: readonly RangeRead<T>[], oracle: RangeOracle<T>): Violation[] {
  const violations: Violation[] = [];
  const choice = new Map<Relation, { shown?: string; left?: string }>();
  for (const read of reads) {
    read.shown.forEach((y, k) => {
      if (!oracle.wide.some((x) => oracle.same(y, x))) {
        violations.push({
          where: at(oracle.operation, `response.body[${k}]`, read.o),
          message: 'must show only records the resource holds: the wide reads hold none this one lies in',
          expected: 'a record of the wide reads',
          actual: y,
        });
      }
      const span = oracle.span(y);
      if (read.range && span && relationOf(span, read.range) === 'disjoint') {
        violations.push({
          where: at(oracle.operation, `date_range of response.body[${k}]`, read.o),
          message: 'must lie in the requested date_range, whatever the other filters',
          expected: `a range meeting ${read.range.start}/${read.range.end}`,
          actual: span,
        });
      }
    });
    if (!read.complete || read.range === undefined) continue;
    for (const x of oracle.wide) {
      const span = oracle.span(x);
      if (!span || !oracle.admits(read, x)) continue;
      const relation = relationOf(span, read.range);
      const shown = read.shown.some((y) => oracle.same(y, x));
      if (relation === 'inside' && !shown) {
        violations.push({
          where: at(oracle.operation, 'response.body lacks a record inside date_range', read.o),
          message: 'must show every record inside the requested date_range that the other filters let through',
          expected: oracle.name(x),
          actual: read.shown.map(oracle.name),
        });
      }
      if (relation === 'inside' || relation === 'disjoint') continue;
      const seen = choice.get(relation) ?? {};
      const example = `${read.o.step}: ${oracle.name(x)}`;
      if (shown) seen.shown ??= example;
      else seen.left ??= example;
      choice.set(relation, seen);
    }
  }
  for (const [relation, seen] of choice) {
    if (seen.shown === undefined || seen.left === undefined) continue;
    violations.push({
      where: `${oracle.operation} pairwise: date_range of response.body, records ${relation}`,
      message:
        'must show or leave out alike every record lying the same way against the requested range, whatever the other filters and wherever the range ends',
      expected: `both shown or both left out (${relation})`,
      actual: { shown: seen.shown, 'left out': seen.left },
    });
  }
  return violations;
}

/** The answer of a wide read, or why there is none. */
function wideOf<N extends 'TeamAssignationList' | 'ActivityRatePeriodList'>(
  log: readonly Observed[],
  step: string,
  schema: N,
): { shown: unknown[] } | { judgement: Judgement } {
  const o = firstWithStep(log, step);
  if (!o) return { judgement: noEvidence(`no ${step} was read`) };
  const answer = answerOf(o, schema, true, o.operation.replace('resources.', ''));
  if ('judgement' in answer)
    return { judgement: isClean(answer.judgement) ? noEvidence(`${step} showed no list`) : answer.judgement };
  return answer;
}

const assignationName = (a: TeamAssignation): string => `team ${a.team.id}, head ${String(a.head)}, ${a.date_range}`;

/** show-teams.prop.pairwise-combinations: the rows against the wide reads of every team, head true and false. */
export function judgeShowTeamsRows(log: readonly Observed[]): Judgement {
  const wide: TeamAssignation[] = [];
  for (const head of [true, false]) {
    const read = wideOf(log, PAIRWISE_STEP.teamsWide(head), 'TeamAssignationList');
    if ('judgement' in read) return read.judgement;
    wide.push(...read.shown.filter((a): a is TeamAssignation => matchesSchema('TeamAssignation', a)));
  }
  const parts: Judgement[] = [];
  const reads: RangeRead<TeamAssignation>[] = [];
  for (const o of log.filter((r) => r.step.startsWith(ROW_PREFIX.teams))) {
    const teams = stringsOf(field(o.request, 'team_ids'));
    const head = field(o.request, 'head');
    const range = spanOf(field(o.request, 'date_range'));
    const complete = teams !== undefined && typeof head === 'boolean' && range !== undefined;
    const answer = answerOf(o, 'TeamAssignationList', complete, 'show-teams');
    if ('judgement' in answer) {
      parts.push(answer.judgement);
      continue;
    }
    const shown = answer.shown.filter((a): a is TeamAssignation => matchesSchema('TeamAssignation', a));
    reads.push({ o, range, complete, shown });
  }
  if (reads.length === 0) return judgeAll([...parts, noEvidence('no pairwise row of show-teams was answered')]);
  if (wide.length === 0) return judgeAll([...parts, noEvidence('the resource read has no team assignation')]);
  parts.push(
    judgeRangeReads(reads, {
      operation: 'show-teams',
      wide,
      span: (a) => spanOf(a.date_range),
      same: (y, x) =>
        y.team.id === x.team.id && y.head === x.head && within(spanOf(y.date_range), spanOf(x.date_range)),
      admits: (read, x) =>
        (stringsOf(field(read.o.request, 'team_ids')) ?? []).includes(x.team.id) &&
        field(read.o.request, 'head') === x.head,
      name: assignationName,
    }),
  );
  return judgeAll(parts);
}

/** show-activity-rates.prop.pairwise-combinations: the rows against the wide read. */
export function judgeShowActivityRatesRows(log: readonly Observed[]): Judgement {
  const read = wideOf(log, PAIRWISE_STEP.ratesWide, 'ActivityRatePeriodList');
  if ('judgement' in read) return read.judgement;
  const wide = read.shown.filter((p): p is ActivityRatePeriod => matchesSchema('ActivityRatePeriod', p));
  const parts: Judgement[] = [];
  const reads: RangeRead<ActivityRatePeriod>[] = [];
  for (const o of log.filter((r) => r.step.startsWith(ROW_PREFIX.rates))) {
    const range = spanOf(field(o.request, 'date_range'));
    const answer = answerOf(o, 'ActivityRatePeriodList', range !== undefined, 'show-activity-rates');
    if ('judgement' in answer) {
      parts.push(answer.judgement);
      continue;
    }
    const shown = answer.shown.filter((p): p is ActivityRatePeriod => matchesSchema('ActivityRatePeriod', p));
    reads.push({ o, range, complete: range !== undefined, shown });
  }
  if (reads.length === 0)
    return judgeAll([...parts, noEvidence('no pairwise row of show-activity-rates was answered')]);
  if (wide.length === 0) return judgeAll([...parts, noEvidence('the resource read has no activity rate period')]);
  parts.push(
    judgeRangeReads(reads, {
      operation: 'show-activity-rates',
      wide,
      span: (p) => spanOf(p.date_range),
      same: (y, x) => within(spanOf(y.date_range), spanOf(x.date_range)),
      admits: () => true,
      name: (p) => `${p.date_range} at ${p.average_rate}`,
    }),
  );
  return judgeAll(parts);
}

/**
 * list-roles.prop.pairwise-combinations: every two answers whose filters
 * are both given agree on each association both let through, so several
 * ids at once give the union of each alone, in any order.
 */
export function judgeListRolesRows(log: readonly Observed[]): Judgement {
  const parts: Judgement[] = [];
  const reads: Array<{ o: Observed; resources: Set<string>; roles: Set<string>; shown: RoleAssociation[] }> = [];
  const rows = log.filter((r) => r.step === PAIRWISE_STEP.rolesAll || r.step.startsWith(ROW_PREFIX.roles));
  for (const o of rows) {
    const resources = stringsOf(field(o.request, 'resource_ids'));
    const roles = stringsOf(field(o.request, 'role_ids'));
    const complete = resources !== undefined && roles !== undefined;
    const answer = answerOf(o, 'RoleAssociationList', complete, 'list-roles');
    if ('judgement' in answer) {
      parts.push(answer.judgement);
      continue;
    }
    const shown = answer.shown.filter((a): a is RoleAssociation => matchesSchema('RoleAssociation', a));
    if (complete) reads.push({ o, resources: new Set(resources), roles: new Set(roles), shown });
  }
  if (reads.length < 2)
    return judgeAll([...parts, noEvidence('fewer than two list-roles rows with both filters were answered')]);
  if (reads.every((r) => r.shown.length === 0))
    return judgeAll([...parts, noEvidence('the resources read hold no role')]);
  const violations: Violation[] = [];
  for (const a of reads) {
    for (const b of reads) {
      if (a === b) continue;
      const keys = new Set(b.shown.map(associationKey));
      const missing = a.shown.find(
        (x) => b.resources.has(x.resource_id) && b.roles.has(x.role_id) && !keys.has(associationKey(x)),
      );
      if (missing === undefined) continue;
      violations.push({
        where: `list-roles pairwise: response.body association ${missing.resource_id}/${missing.role_id} (shown by ${a.o.step}, not by ${b.o.step})`,
        message:
          'must show every association its resource_ids and role_ids let through, as any other request naming them shows it: several ids give the union of each alone, in any order',
        expected: associationKey(missing),
        actual: b.shown.map(associationKey),
      });
    }
  }
  parts.push(violations);
  return judgeAll(parts);
}

/**
 * The filter rules' part of one answer (run by the driver for their owners):
 * each item is of a requested team and head (show-teams) or of a requested
 * resource and role (list-roles). A field left out filters nothing here.
 */
export function membership(o: Observed): { owner: 'team' | 'head' | 'roles'; violations: Violation[] }[] {
  if (!Array.isArray(o.body) || o.status !== 200) return [];
  const items: unknown[] = o.body;
  if (o.operation === 'resources.show-teams') {
    const teams = stringsOf(field(o.request, 'team_ids'));
    const head = field(o.request, 'head');
    const team: Violation[] = [];
    const heads: Violation[] = [];
    items.forEach((a, k) => {
      if (!matchesSchema('TeamAssignation', a)) return;
      if (teams && !teams.includes(a.team.id)) {
        team.push({
          where: at('show-teams', `team.id of response.body[${k}]`, o),
          message: 'must return the assignations of the requested teams, and only those, whatever the other filters',
          expected: teams,
          actual: a.team.id,
        });
      }
      if (typeof head === 'boolean' && a.head !== head) {
        heads.push({
          where: at('show-teams', `head of response.body[${k}]`, o),
          message: `must return only assignations whose head is ${head}, whatever the other filters`,
          expected: head,
          actual: a.head,
        });
      }
    });
    return [
      { owner: 'team', violations: team },
      { owner: 'head', violations: heads },
    ];
  }
  if (o.operation === 'resources.list-roles') {
    const resources = stringsOf(field(o.request, 'resource_ids'));
    const roles = stringsOf(field(o.request, 'role_ids'));
    const stray = items.flatMap((a, k): Violation[] =>
      matchesSchema('RoleAssociation', a) &&
      ((resources && !resources.includes(a.resource_id)) || (roles && !roles.includes(a.role_id)))
        ? [
            {
              where: at('list-roles', `resource_id/role_id of response.body[${k}]`, o),
              message:
                'must hold only associations of the requested resource_ids and role_ids, whatever their combination',
              expected: { resource_ids: resources, role_ids: roles },
              actual: a,
            },
          ]
        : [],
    );
    return [{ owner: 'roles', violations: stray }];
  }
  return [];
}
