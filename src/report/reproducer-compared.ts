/**
 * Answers compared, in a reproducer: a FAIL judged on a filtered read
 * against the unfiltered read of the same resource, which tells what the
 * filter must keep. The script sends both again (the unfiltered read first)
 * and judges the filtered answer against the live unfiltered one, never
 * against the run's: the target's data may have moved on, and the
 * comparison is what the clause says. So far the team and head filters of
 * show-teams (§4.5: the assignations of the requested teams, and only those;
 * only those whose head is the one asked for, and some where the unfiltered
 * read shows some), and the filters of list-roles (§4.6: a read of several
 * resources and roles holds only associations of those, and exactly those
 * the reads of each resource alone show of those roles).
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult, Violation } from '../core/types.ts';

/**
 * The filtered answer (request `at`) must hold exactly the entries of the
 * unfiltered one (request `reference`) on these teams (and with this head,
 * where the filtered read asked for one beside them).
 */
export interface TeamFilterCheck {
  at: number;
  kind: 'team-filter';
  reference: number;
  teamIds: string[];
  head?: boolean;
}

/** The filtered answer (request `at`) must hold only entries whose head is `head`, and some where the unfiltered one has some. */
export interface HeadFilterCheck {
  at: number;
  kind: 'head-filter';
  reference: number;
  head: boolean;
}

/**
 * The list-roles answer (request `at`) holds only associations of these
 * resources and roles, and, where `alone` names the reads of each of its
 * resources alone (every role), exactly the associations they show of these
 * roles.
 */
export interface RolesUnionCheck {
  at: number;
  kind: 'roles-union';
  alone: number[];
  resourceIds: string[];
  roleIds: string[];
}

/** The ids a list-roles request filters on. */
export interface RolesAsked {
  resourceIds: string[];
  roleIds: string[];
}

/**
 * Two list-roles reads (requests `reference` and `at`, asking `asked[0]` and
 * `asked[1]`) show alike every association both let through.
 */
export interface RolesAgreeCheck {
  at: number;
  kind: 'roles-agree';
  reference: number;
  asked: [RolesAsked, RolesAsked];
}

/**
 * Two reads over ranges (requests `reference` and `at`), and a record of the
 * wide read (request `wide`) for each (`records`: their date ranges, in that
 * order), which lies across the read's range the same way as the other's
 * across the other's: both shown (a period within it) or both left out.
 */
export interface ShownAlikeCheck {
  at: number;
  kind: 'shown-alike';
  reference: number;
  wide: number;
  records: [string, string];
}

export type ComparedCheck = TeamFilterCheck | HeadFilterCheck | RolesUnionCheck | RolesAgreeCheck | ShownAlikeCheck;

const SHOW_TEAMS = 'resources.show-teams';

function requestOf(e: Exchange): Map<string, unknown> | undefined {
  const body = parseJsonText(e.request.body);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? new Map(Object.entries(body)) : undefined;
}

/** An assignation as the rule compares them: its team, head and dates. */
function keysOf(e: Exchange): string[] | undefined {
  if (!e.response || e.response.truncated || e.response.status !== 200) return undefined;
  const body = parseJsonText(e.response.body);
  if (!Array.isArray(body)) return undefined;
  return body
    .map((a: unknown) => {
      const entry = typeof a === 'object' && a !== null ? new Map(Object.entries(a)) : new Map<string, unknown>();
      const team = entry.get('team');
      const id = typeof team === 'object' && team !== null && 'id' in team ? team.id : undefined;
      return `${String(id)}/${String(entry.get('head'))}/${String(entry.get('date_range'))}`;
    })
    .sort();
}

/** The unfiltered read of the same resource and dates, sent before exchange `at`. */
function unfilteredBefore(log: readonly Exchange[], at: number, asked: Map<string, unknown>): Exchange | undefined {
  return log.slice(0, at).findLast((e) => {
    const q = e.operation === SHOW_TEAMS ? requestOf(e) : undefined;
    return (
      q !== undefined &&
      !q.has('team_ids') &&
      !q.has('head') &&
      q.get('resource_id') === asked.get('resource_id') &&
      q.get('date_range') === asked.get('date_range')
    );
  });
}

export type ComparedPlan = { requests: Array<{ label: string; exchange: Exchange }>; check: ComparedCheck };

function planOf(reference: Exchange, filtered: Exchange, check: ComparedCheck): ComparedPlan {
  return {
    requests: [
      { label: reference.step ?? reference.operation, exchange: reference },
      { label: filtered.step ?? filtered.operation, exchange: filtered },
    ],
    check,
  };
}

/**
 * A show-teams read with `team_ids` (and no `head`), the one the violation
 * names, and the unfiltered read of the same resource and dates before it,
 * when the recorded answers depart as the clause says.
 */
function teamFilterPlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  // `show-teams(one team_ids beside head: false): team.id`: the read named, the field it departs on.
  const step = v.where.replace(/: team\.id$/, '');
  const at = r.exchanges.findLastIndex((e) => e.operation === SHOW_TEAMS && e.step === step);
  const filtered = r.exchanges[at];
  const asked = filtered && requestOf(filtered);
  const teamIds = asked?.get('team_ids');
  const head = asked?.get('head');
  if (
    !filtered ||
    !asked ||
    (head !== undefined && typeof head !== 'boolean') ||
    !Array.isArray(teamIds) ||
    !teamIds.every((t) => typeof t === 'string')
  )
    return undefined;
  const reference = unfilteredBefore(r.exchanges, at, asked);
  const all = reference && keysOf(reference);
  const shown = keysOf(filtered);
  if (!reference || !all || !shown) return undefined;
  const want = all.filter(
    (k) => teamIds.some((t) => k.startsWith(`${t}/`)) && (head === undefined || k.split('/')[1] === String(head)),
  );
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (JSON.stringify(want) === JSON.stringify(shown)) return undefined;
  return planOf(reference, filtered, {
    at: 2,
    kind: 'team-filter',
    reference: 1,
    teamIds: [...teamIds],
    ...(typeof head === 'boolean' ? { head } : {}),
  });
}

/** `show-teams(head true)[2].head`, or the step alone where nothing was shown: the read with `head` the violation names. */
function headFilterPlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  const step = v.where.replace(/\[\d+\]\.head$/, '');
  const at = r.exchanges.findLastIndex((e) => e.operation === SHOW_TEAMS && e.step === step);
  const filtered = r.exchanges[at];
  const asked = filtered && requestOf(filtered);
  const head = asked?.get('head');
  if (!filtered || !asked || typeof head !== 'boolean') return undefined;
  const reference = unfilteredBefore(r.exchanges, at, asked);
  const all = reference && keysOf(reference);
  const shown = keysOf(filtered);
  if (!reference || !all || !shown) return undefined;
  const other = shown.some((k) => !k.includes(`/${String(head)}/`));
  const none = shown.length === 0 && all.some((k) => k.includes(`/${String(head)}/`));
  if (!other && !none) return undefined;
  return planOf(reference, filtered, { at: 2, kind: 'head-filter', reference: 1, head });
}

const LIST_ROLES = 'resources.list-roles';
const ALONE = 'list-roles of one resource';

function stringsOf(x: unknown): string[] | undefined {
  return Array.isArray(x) && x.every((id) => typeof id === 'string') ? x.map(String) : undefined;
}

/** A list-roles read's associations by key (resource/role/is_assigned/teams), as the rule compares them; undefined when it is no list. */
function associationsOf(e: Exchange): Array<{ key: string; resource: unknown; role: unknown }> | undefined {
  if (!e.response || e.response.truncated || e.response.status !== 200) return undefined;
  const body = parseJsonText(e.response.body);
  if (!Array.isArray(body)) return undefined;
  return body.map((a: unknown) => {
    const entry = typeof a === 'object' && a !== null ? new Map(Object.entries(a)) : new Map<string, unknown>();
    const teams = entry.get('team_ids');
    const shown = Array.isArray(teams) ? teams.map(String).sort().join(',') : String(teams);
    const [resource, role] = [entry.get('resource_id'), entry.get('role_id')];
    return { key: `${String(resource)}/${String(role)}/${String(entry.get('is_assigned'))}/${shown}`, resource, role };
  });
}

/** `list-roles of one role (role_ids [2…1]): response.body`: the step, and the ids the words name of its request. */
const ROLES_PLACE = /^(.*?)(?: \((resource_ids|role_ids) \[([^\]]*)\]\))?: response\.body$/;

/**
 * The list-roles read the violation names (by its step and the ids its
 * words give), after the reads of each of its resources alone (none when it
 * is one of those), when the recording departs as the script will judge it.
 */
function rolesFilterPlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  const place = ROLES_PLACE.exec(v.where);
  if (!place) return undefined;
  const [, step, field, named] = place;
  const log = r.exchanges;
  const askedOf = (e: Exchange) => requestOf(e) ?? new Map<string, unknown>();
  const at = log.findLastIndex(
    (e) =>
      e.operation === LIST_ROLES &&
      e.step === step &&
      (field === undefined || (stringsOf(askedOf(e).get(field)) ?? []).join(', ') === named),
  );
  const filtered = log[at];
  const resourceIds = filtered && stringsOf(askedOf(filtered).get('resource_ids'));
  const roleIds = filtered && stringsOf(askedOf(filtered).get('role_ids'));
  const shown = filtered && associationsOf(filtered);
  if (!filtered || !resourceIds || !roleIds || !shown) return undefined;
  // A read of one resource alone is judged only by what it may hold; another is compared with those reads.
  const alone =
    step === ALONE
      ? []
      : resourceIds.map((id) =>
          log.slice(0, at).findLast((e) => {
            const asked = askedOf(e);
            return e.step === ALONE && (stringsOf(asked.get('resource_ids')) ?? []).join() === id;
          }),
        );
  const reads = alone.flatMap((e) => (e ? [e] : []));
  if (reads.length !== alone.length) return undefined;
  const stray = shown.some((a) => !resourceIds.includes(String(a.resource)) || !roleIds.includes(String(a.role)));
  const wanted = reads.map(associationsOf);
  const want = new Set(
    wanted.flatMap((w) => (w ?? []).filter((a) => roleIds.includes(String(a.role))).map((a) => a.key)),
  );
  const got = new Set(shown.map((a) => a.key));
  const differs =
    step !== ALONE &&
    wanted.every((w) => w !== undefined) &&
    (want.size !== got.size || [...want].some((k) => !got.has(k)));
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (!stray && !differs) return undefined;
  const requests = [...reads, filtered].map((e) => ({ label: e.step ?? e.operation, exchange: e }));
  return {
    requests,
    check: {
      at: requests.length,
      kind: 'roles-union',
      alone: reads.map((_, i) => i + 1),
      resourceIds,
      roleIds,
    },
  };
}

/** `…: response.body association R/Q (shown by A, not by B)`: the two reads the pairwise judge compared. */
const ROLES_DISAGREE = /: response\.body association \S+ \(shown by (.+), not by (.+)\)$/;

function rolesAsked(e: Exchange): RolesAsked | undefined {
  const asked = requestOf(e);
  const resourceIds = asked && stringsOf(asked.get('resource_ids'));
  const roleIds = asked && stringsOf(asked.get('role_ids'));
  return resourceIds && roleIds && { resourceIds, roleIds };
}

/** The two list-roles reads the violation names, when their recorded answers disagree on what both let through. */
function rolesAgreePlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  const place = ROLES_DISAGREE.exec(v.where);
  if (!place) return undefined;
  const [, shownBy, notBy] = place;
  const read = (step: string | undefined) => r.exchanges.findLast((e) => e.operation === LIST_ROLES && e.step === step);
  const [reference, other] = [read(shownBy), read(notBy)];
  const asked = reference && other && [rolesAsked(reference), rolesAsked(other)];
  const shown = reference && other && [associationsOf(reference), associationsOf(other)];
  if (!reference || !other || !asked?.[0] || !asked[1] || !shown?.[0] || !shown[1]) return undefined;
  const [x, y] = [asked[0], asked[1]];
  const both = (a: { resource: unknown; role: unknown }) =>
    [x, y].every((q) => q.resourceIds.includes(String(a.resource)) && q.roleIds.includes(String(a.role)));
  const keys = (list: Array<{ key: string; resource: unknown; role: unknown }>) =>
    JSON.stringify(
      list
        .filter(both)
        .map((a) => a.key)
        .sort(),
    );
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (keys(shown[0]) === keys(shown[1])) return undefined;
  return {
    requests: [reference, other].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
    check: { at: 2, kind: 'roles-agree', reference: 1, asked: [x, y] },
  };
}

/** `show-activity-rates pairwise row 3: 2024-01-01/2030-12-31 at 70`: a read and the record it showed or left out. */
const ROW_RECORD = /^(.+): (\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}) at \S+$/;

/** The date ranges of a read's records; undefined where it answered no list. */
function rangesOf(e: Exchange): string[] | undefined {
  if (!e.response || e.response.truncated || e.response.status !== 200) return undefined;
  const body = parseJsonText(e.response.body);
  if (!Array.isArray(body)) return undefined;
  return body.flatMap((p: unknown) =>
    typeof p === 'object' && p !== null && 'date_range' in p && typeof p.date_range === 'string' ? [p.date_range] : [],
  );
}

/** A read shows the record: a period within its range (a server may clip it to the range asked for). */
function shows(ranges: readonly string[], record: string): boolean {
  const [start, end] = record.split('/');
  return ranges.some((r) => {
    const [s, e] = r.split('/');
    return start !== undefined && end !== undefined && s !== undefined && e !== undefined && start <= s && e <= end;
  });
}

/**
 * Two pairwise rows of show-activity-rates that treat a record lying across
 * their ranges the same way differently: the wide read the record is of, then
 * both rows, compared live.
 */
function shownAlikePlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  const actual = v.actual;
  if (typeof actual !== 'object' || actual === null || !('shown' in actual) || !('left out' in actual))
    return undefined;
  const [shownBy, leftBy] = [actual.shown, actual['left out']];
  const one = typeof shownBy === 'string' ? ROW_RECORD.exec(shownBy) : null;
  const other = typeof leftBy === 'string' ? ROW_RECORD.exec(leftBy) : null;
  const [record, otherRecord] = [one?.[2], other?.[2]];
  if (!one || !other || record === undefined || otherRecord === undefined) return undefined;
  const log = r.exchanges;
  const read = (step: string | undefined) => log.findLast((e) => e.step === step);
  const [reference, compared] = [read(one[1]), read(other[1])];
  const holding = (e: Exchange) =>
    e.operation === reference?.operation && [record, otherRecord].every((x) => rangesOf(e)?.includes(x) === true);
  // The wide read the rows are judged against, where the transcript kept one; else any read showing both records whole.
  const wide = log.findLast((e) => holding(e) && (e.step ?? '').endsWith('the wide range')) ?? log.findLast(holding);
  const [a, b] = [reference && rangesOf(reference), compared && rangesOf(compared)];
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (!reference || !compared || !wide || !a || !b || shows(a, record) === shows(b, otherRecord)) return undefined;
  return {
    requests: [wide, reference, compared].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
    check: { at: 3, kind: 'shown-alike', reference: 2, wide: 1, records: [record, otherRecord] },
  };
}

/** The plan of a FAIL judged on answers compared, for the rules that have one. */
export function comparedPlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  if (r.ruleId === 'show-teams.team-filter') return teamFilterPlan(r, v);
  if (r.ruleId === 'show-teams.head-filter') return headFilterPlan(r, v);
  if (r.ruleId === 'list-roles.filters-respected') return rolesFilterPlan(r, v);
  if (r.ruleId === 'list-roles.prop.pairwise-combinations') return rolesAgreePlan(r, v);
  if (r.ruleId === 'show-activity-rates.prop.pairwise-combinations') return shownAlikePlan(r, v);
  return undefined;
}
