/**
 * Another party's change, told apart for certain: two reads of a resource's
 * state (its activity rates, its team assignations) between which the suite
 * had no change of that resource in flight must show the same state on the
 * days both covered. When they do not, nothing the suite sent explains it:
 * someone else changed the resource. A FAIL of a rule that changed state is
 * not reported when its reads show that (run-rules.ts): the departure may be
 * the other party's doing (ERROR, DC_ERR_FOREIGN_CHANGE).
 *
 * Only what the server showed is compared, day by day (a period clipped to
 * the range asked for and the same period unclipped cover the same days;
 * whether a range's end day is included is read the same way in both), and
 * every doubt counts as the suite's own change: a change of an unknown
 * resource counts for every resource, a change sent more than once or not
 * answered (it may take effect later) counts from the start of the rule or
 * until its end. So a server whose state changes only when asked never shows
 * a difference here, whatever its departures.
 *
 * A resource's roles have no dates, and a revocation cannot be undone, so
 * they are told apart otherwise: two reads of a resource's roles (with the
 * same filters and credential) with none of the rule's revocations between
 * them that differ on a role no revocation of the rule ever named on that
 * resource show another party's revocation (§4.1 changes only the roles a
 * request names, and nothing of the rule's was sent). A difference on a role
 * the rule named, or across one of its revocations (a server that revokes
 * the wrong role departs there), is the rule's own: a departure there is the
 * rule's to report.
 */
import { canonicalJson } from '../core/canonical-json.ts';
import type { Exchange } from '../core/exchange.ts';
import { READ_OPERATIONS } from '../schemas/operations.ts';
import type { DateSpan } from './dates.ts';
import { isRecord } from './json-values.ts';
import { parseJsonText } from '../core/json-text.ts';
import { dateSpan } from './own-mutations.ts';

/** Reads whose answers are a resource's state by date: a list of items that each carry a `date_range`. */
const STATE_READS: ReadonlySet<string> = new Set(['resources.show-activity-rates', 'resources.show-teams']);

interface Item {
  span: DateSpan;
  /** The item without its date range, as canonical JSON. */
  content: string;
}

interface StateRead {
  range: DateSpan;
  items: Item[];
  /** When it was sent (ms since the epoch; -Infinity when unknown). */
  from: number;
  /** When its answer had come (ms since the epoch). */
  to: number;
}

interface Change {
  resourceId: string | undefined;
  from: number;
  to: number;
}

/** A resource's role shown two ways by two reads with none of the rule's revocations between, none naming it there. */
export interface RoleDifference {
  resourceId: string;
  operation: 'resources.list-roles';
  roleId: string;
  /** The association as each read showed it (canonical JSON), or none. */
  before: string | undefined;
  after: string | undefined;
}

/** Two reads of a resource that show different states with nothing of the suite's in flight between them. */
export interface QuietDifference {
  resourceId: string;
  operation: string;
  /** The first days whose state differs. */
  days: DateSpan;
  before: string[];
  after: string[];
}

export class QuietReads {
  /**
   * `readLagMs`: how long after its answer a change of the suite's may still
   * show in reads as not yet made (the timing's readLagMs): a server may
   * serve a read that lags a write (a stale read is the departure of the rule
   * that made the write, not another party's change).
   */
  constructor(private readonly readLagMs: number) {}

  private readonly last = new Map<string, StateRead>();
  private readonly changes: Change[] = [];
  private readonly differences: Array<QuietDifference & { from: number; to: number }> = [];
  private readonly held = new Set<string>();
  /**
   * Each resource's roles as the last read with the same filters showed them (role id → association), and
   * how many revocations the rule had sent by then.
   */
  private readonly lastRoles = new Map<string, { roles: Map<string, string>; revocations: number }>();
  /** Revocations the rule sent so far, answered or not. */
  private revocations = 0;
  /** `resource\nrole` pairs a revocation of the rule named; `*` when one could not be read (it names all). */
  private readonly namedRoles = new Set<string>();
  private readonly roleDifferences: RoleDifference[] = [];

  /** A resource the rule held: only its reads count (another rule of the run may change any other). */
  hold(resourceId: string): void {
    this.held.add(resourceId);
  }

  /** Records one of the rule's own exchanges, whose answer had come (or failed) at `endedAt`. */
  add(exchange: Exchange, endedAt: number): void {
    const sent = exchange.startedAt === undefined ? Number.NaN : Date.parse(exchange.startedAt);
    // An earlier attempt was sent before the last one: when, the exchange does not say.
    const from = exchange.attempts > 1 || Number.isNaN(sent) ? Number.NEGATIVE_INFINITY : sent;
    const body = parsed(exchange.request.body);
    if (exchange.operation === REVOKE) this.revoked(body);
    if (exchange.operation === LIST_ROLES) this.rolesRead(body, exchange);
    if (!READ_OPERATIONS.has(exchange.operation)) {
      this.changes.push({
        resourceId: typeof body?.resource_id === 'string' ? body.resource_id : undefined,
        from,
        // Not answered: it may still take effect at any time; answered, reads may lag it a moment.
        to: exchange.response ? endedAt + this.readLagMs : Number.POSITIVE_INFINITY,
      });
      return;
    }
    if (!STATE_READS.has(exchange.operation) || !body || typeof body.resource_id !== 'string') return;
    const { response } = exchange;
    if (response?.status !== 200 || response.truncated) return;
    const range = typeof body.date_range === 'string' ? dateSpan(body.date_range) : undefined;
    const items = range ? itemsOf(response.body) : undefined;
    if (!range || !items) return;
    const { resource_id: resourceId, date_range: _range, ...filters } = body;
    const key = `${resourceId}\n${exchange.operation}\n${canonicalJson(filters)}`;
    const read: StateRead = { range, items, from, to: endedAt };
    const before = this.last.get(key);
    this.last.set(key, read);
    const difference = before ? firstDifference(before, read) : undefined;
    if (before && difference) {
      this.differences.push({
        resourceId,
        operation: exchange.operation,
        ...difference,
        from: before.from,
        to: read.to,
      });
    }
  }

  /** The pairs a revocation names, or every pair when it cannot be read (sent or not: it may have taken effect). */
  private revoked(body: Record<string, unknown> | undefined): void {
    this.revocations += 1;
    const resources = stringsOf(body?.resource_ids);
    const roles = stringsOf(body?.role_ids);
    if (!resources || !roles) this.namedRoles.add('*');
    else for (const r of resources) for (const role of roles) this.namedRoles.add(`${r}\n${role}`);
  }

  /** A read of roles, against the last read of each of its resources with the same filters, when no revocation came between. */
  private rolesRead(body: Record<string, unknown> | undefined, exchange: Exchange): void {
    const { response } = exchange;
    const resources = stringsOf(body?.resource_ids);
    if (!body || !resources || response?.status !== 200 || response.truncated) return;
    const answer = parseJsonText(response.body);
    if (!Array.isArray(answer)) return;
    const { resource_ids: _resources, ...filters } = body;
    for (const resourceId of new Set(resources)) {
      const now = new Map<string, string>();
      for (const a of answer) {
        if (!isRecord(a) || a.resource_id !== resourceId || typeof a.role_id !== 'string') continue;
        now.set(a.role_id, canonicalJson(a));
      }
      // Read with the same filters and the same credential (a restricted key sees fewer roles).
      const credential = exchange.request.headers.authorization ?? '';
      const key = `${resourceId}\n${canonicalJson(filters)}\n${credential}`;
      const last = this.lastRoles.get(key);
      this.lastRoles.set(key, { roles: now, revocations: this.revocations });
      if (!last || last.revocations !== this.revocations) continue;
      const before = last.roles;
      for (const roleId of new Set([...before.keys(), ...now.keys()])) {
        if (before.get(roleId) === now.get(roleId)) continue;
        this.roleDifferences.push({
          resourceId,
          operation: LIST_ROLES,
          roleId,
          before: before.get(roleId),
          after: now.get(roleId),
        });
      }
    }
  }

  /** The resources the rule held. */
  heldResources(): string[] {
    return [...this.held];
  }

  /** The differences between reads of a resource held with none of the suite's changes of it in flight between. */
  foreign(): Array<QuietDifference | RoleDifference> {
    const roles = this.namedRoles.has('*')
      ? []
      : this.roleDifferences.filter(
          (d) => this.held.has(d.resourceId) && !this.namedRoles.has(`${d.resourceId}\n${d.roleId}`),
        );
    return [...this.differencesOfDates(), ...roles];
  }

  private differencesOfDates(): QuietDifference[] {
    return this.differences
      .filter((d) => this.held.has(d.resourceId))
      .filter(
        (d) =>
          !this.changes.some(
            (c) => (c.resourceId === undefined || c.resourceId === d.resourceId) && c.from <= d.to && d.from <= c.to,
          ),
      )
      .map(({ from: _from, to: _to, ...d }) => d);
  }
}

/** One difference in a line: the resource, the operation, the days (or role) and what each read showed. */
export function describeQuietDifference(d: QuietDifference | RoleDifference): string {
  if ('roleId' in d) {
    return (
      `${d.operation} of resource ${d.resourceId} showed role ${d.roleId} first as ${d.before ?? '(not held)'}, ` +
      `then as ${d.after ?? '(not held)'}, with no revocation of the rule between, and none that named that role there`
    );
  }
  const shown = (items: string[]): string => (items.length > 0 ? items.join(' ') : '(nothing)');
  return (
    `${d.operation} of resource ${d.resourceId}, read twice with no change of the suite's in between, ` +
    `showed on ${d.days.start}/${d.days.end} first ${shown(d.before)}, then ${shown(d.after)}`
  );
}

const REVOKE = 'resources.revoke-roles';
const LIST_ROLES = 'resources.list-roles';

/** A list of strings, or undefined when it is not one. */
function stringsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter((v): v is string => typeof v === 'string');
  return strings.length === value.length ? strings : undefined;
}

function parsed(text: string): Record<string, unknown> | undefined {
  const value = parseJsonText(text);
  return isRecord(value) ? value : undefined;
}

/** The answer's items with their spans, or undefined when it is not a list of items with a readable date range. */
function itemsOf(text: string): Item[] | undefined {
  const value = parseJsonText(text);
  if (!Array.isArray(value)) return undefined;
  const items: Item[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.date_range !== 'string') return undefined;
    const span = dateSpan(entry.date_range);
    if (!span) return undefined;
    const { date_range: _range, ...rest } = entry;
    items.push({ span, content: canonicalJson(rest) });
  }
  return items;
}

/**
 * The first days, inside the range both reads asked for, whose items differ
 * (compared without their date ranges). A day is an item's when it is on or
 * after its start and before its end, the same reading in both reads.
 */
function firstDifference(a: StateRead, b: StateRead): Pick<QuietDifference, 'days' | 'before' | 'after'> | undefined {
  const start = a.range.start > b.range.start ? a.range.start : b.range.start;
  const end = a.range.end < b.range.end ? a.range.end : b.range.end;
  if (start >= end) return undefined;
  const bounds = new Set<string>([start]);
  for (const item of [...a.items, ...b.items]) {
    for (const day of [item.span.start, item.span.end]) if (day > start && day < end) bounds.add(day);
  }
  const days = [...bounds].sort();
  for (const [i, day] of days.entries()) {
    const before = on(a.items, day);
    const after = on(b.items, day);
    if (before.join('\n') !== after.join('\n')) return { days: { start: day, end: days[i + 1] ?? end }, before, after };
  }
  return undefined;
}

function on(items: readonly Item[], day: string): string[] {
  return items
    .filter((i) => i.span.start <= day && day < i.span.end)
    .map((i) => i.content)
    .sort();
}
