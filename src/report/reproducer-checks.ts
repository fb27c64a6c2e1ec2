/**
 * The conditions a standalone reproducer judges its answers by: a FAIL's
 * judged condition, as data the script's judge (reproducer-judge.ts) reads.
 * A model-based FAIL brings its own (the failing step's ReplayCheck); for the
 * others it is derived from the first violation: the status the answer must
 * have, a body that must be JSON or empty, or the value the departing answer
 * showed at the violation's JSON path, which a fixed answer no longer shows.
 * A revocation's FAIL is judged over several answers (the roles read before,
 * the revocations, the roles read after): it is sent again from the read it
 * started from, which must show what it showed in the run (revocations cannot
 * be undone: on a target whose roles have moved on, the same requests say
 * nothing), and the read after must no longer show what the departing one did
 * (or, for revocations that must change nothing, must show what the read
 * before them did). FAILs over whole walks, answers compared and a write's
 * effect have their own modules (reproducer-walked.ts, reproducer-compared.ts,
 * reproducer-writes.ts).
 */
import type { Exchange } from '../core/exchange.ts';
import { canonicalJson } from '../core/canonical-json.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { ReplayCheck, RuleResult, Violation } from '../core/types.ts';
import { recordedErrorMessage } from '../core/error-message.ts';
import { trialsNeeded } from '../core/one-in-n.ts';
import { idsInAnyOrder, namedExchange } from './reproducer-steps.ts';
import { tokenChain, type TokenAlteration } from './reproducer-tokens.ts';
import { comparedPlan, type ComparedCheck } from './reproducer-compared.ts';
import { walkPlan, type WalkCheck, type WalkFollowed } from './reproducer-walks.ts';
import { walkedPlan, type WalkedCheck } from './reproducer-walked.ts';
import { writePlan, type WriteCheck } from './reproducer-writes.ts';
import { unassignRowsPlan, type UnassignRowsCheck } from './reproducer-unassign-rows.ts';
import { concurrentPlan } from './reproducer-concurrent.ts';

/** A model's check, its answer named by the script's request number instead. */
type AtRequest<C> = C extends ReplayCheck ? { at: number } & Omit<C, 'exchange'> : never;

/** `at`: the number of the script's request whose answer is judged (1 is the first). */
export type ReproducerCheck =
  | { at: number; kind: 'status'; expected: string[] }
  /** The write answered 2xx or a §4.3 warning (a body with a warning_type). */
  | { at: number; kind: 'done-or-warned' }
  | { at: number; kind: 'json' }
  | { at: number; kind: 'empty' }
  | { at: number; kind: 'value-at'; path: Array<string | number>; departing: unknown }
  /** The value at the path must be null: the run's was a value of the server's own (a page token), any value departs. */
  | { at: number; kind: 'null-at'; path: Array<string | number> }
  /** The resources listed at the path must each have one of these ids (a resource.ids filter). */
  | { at: number; kind: 'ids-within'; path: Array<string | number>; allowed: string[] }
  /** An error answer (4xx) must carry a message describing the problem (§7); another status says nothing (exit 3). */
  | { at: number; kind: 'error-message' }
  /** The list at the path must hold at most `max` entries (a page within its limit). */
  | { at: number; kind: 'length-at-most'; path: Array<string | number>; max: number }
  /** The value at the path must be of this JSON type ('array', 'object', 'string', 'number', 'boolean', 'null'). */
  | { at: number; kind: 'type-at'; path: Array<string | number>; type: JsonType }
  /** The page at the path must carry a count: total_count a number and total_count_approximate a boolean (§4.8). */
  | { at: number; kind: 'count-present'; path: Array<string | number> }
  /** Every record of the answer (a JSON list) has a date_range meeting this one (§4.5, §4.7: records in the range). */
  | { at: number; kind: 'ranges-meet'; range: string }
  /** A list-roles answer holds no association of these roles (roles hidden from the caller). */
  | { at: number; kind: 'roles-absent'; roleIds: string[] }
  /** The object at the path must have this property (a schema's required property). */
  | { at: number; kind: 'has-property'; path: Array<string | number>; property: string }
  /** The roles a list-roles read shows, whatever their order, must not be those the departing read showed. */
  | { at: number; kind: 'roles-not'; departing: unknown }
  /** The roles a list-roles read shows, whatever their order, must be those the run started from (else exit 3). */
  | { at: number; kind: 'start-roles'; recorded: unknown }
  /** The roles a list-roles read shows, whatever their order, must be those read `reference` showed. */
  | { at: number; kind: 'roles-same'; reference: number }
  /** A change (a revocation, a write) sent again must be accepted (2xx); otherwise what follows says nothing (exit 3). */
  | { at: number; kind: 'accepted' }
  | WalkCheck
  | WalkedCheck
  | WriteCheck
  | UnassignRowsCheck
  | ComparedCheck
  | AtRequest<ReplayCheck>;

/** What a script sends, in order, and how it judges the answers. */
export interface ReproducerPlan {
  /**
   * Each request with what it is for (a trace step's command, or the rule's
   * step); requests with a `branch` were sent at once in the run, each branch
   * in its order, and are sent so again; a request with `tokenFrom` sends
   * the `next_token` the live answer to that request (its number) gave in
   * place of the recorded one (reproducer-tokens.ts); a request with `body`
   * sends it in place of the recorded body (a read the run made otherwise:
   * the same query with limit null, the reference of walks compared); a
   * request with `alter` sends the live token altered as the run altered the
   * recorded one.
   */
  requests: Array<{
    label: string;
    exchange: Exchange;
    branch?: number;
    tokenFrom?: number;
    alter?: TokenAlteration;
    body?: string;
  }>;
  /** The walks the script follows from some of its requests, with the live tokens (reproducer-walks.ts). */
  walks?: WalkFollowed[];
  /**
   * The roles the first request, a list-roles read, showed in the run: the
   * state the evidence starts from. The script reads it first and sends
   * nothing else when the target shows other roles (exit 3).
   */
  startRoles?: unknown;
  checks: ReproducerCheck[];
}

/** `.data[0].team_ids` → ['data', 0, 'team_ids']; undefined when it does not read as a path. */
export function pathOf(text: string): Array<string | number> | undefined {
  const path: Array<string | number> = [];
  const step = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  let rest = text;
  while (rest !== '') {
    const m = step.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) path.push(m[1]);
    else if (m[2] !== undefined) path.push(Number(m[2]));
    else if (m[3] !== undefined) path.push(String(JSON.parse(m[3])));
    rest = rest.slice(m[0].length);
  }
  return path;
}

/** Each of '2xx', '4xx', '204', joined by ' or ': the statuses that conform. */
function statusesOf(expected: unknown): string[] | undefined {
  const text = typeof expected === 'number' ? String(expected) : typeof expected === 'string' ? expected : '';
  const tokens = text.split(' or ').map((t) => t.trim());
  return tokens.length > 0 && tokens.every((t) => /^[1-5](?:xx|\d\d)$/.test(t)) ? tokens : undefined;
}

/** A non-empty list of ids, as a violation of the ids filter names the ids allowed and those listed outside them. */
function idsOf(x: unknown): string[] | undefined {
  return Array.isArray(x) && x.length > 0 && x.every((id) => typeof id === 'string') ? x.map(String) : undefined;
}

/** The ids of the resources in a list, or undefined where it is no list. */
function listedIds(list: unknown): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((entry: unknown) =>
    typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'string' ? [entry.id] : [],
  );
}

const JSON_TYPES = ['array', 'object', 'string', 'number', 'boolean', 'null'] as const;
type JsonType = (typeof JSON_TYPES)[number];

function isJsonType(x: unknown): x is JsonType {
  return JSON_TYPES.some((t) => t === x);
}

/** A value's JSON type, as the script's judge names it. */
function jsonTypeOf(v: unknown): JsonType | 'absent' {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** The value at `path` of a JSON body, undefined where there is none. */
function valueAt(body: unknown, path: ReadonlyArray<string | number>): unknown {
  let v = body;
  for (const k of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = new Map(Object.entries(v)).get(String(k));
  }
  return v;
}

/** Two `start/end` ranges share no day (each end day included), as the read judges say; false where one does not read as a range. */
function disjoint(shown: unknown, asked: string): boolean {
  const [a, b] = [typeof shown === 'string' ? shown.split('/') : [], asked.split('/')];
  const [aStart, aEnd, bStart, bEnd] = [a[0], a[1], b[0], b[1]];
  if (a.length !== 2 || b.length !== 2 || !aStart || !aEnd || !bStart || !bEnd) return false;
  return aEnd < bStart || aStart > bEnd;
}

/** A field of a request's JSON body. */
function requestField(e: Exchange, name: string): unknown {
  const body = parseJsonText(e.request.body);
  return typeof body === 'object' && body !== null ? new Map(Object.entries(body)).get(name) : undefined;
}

/**
 * The recorded answer departs by the check, as the script's judge would say:
 * the check and the exchange are the FAIL's own only then (the same check on
 * another answer would read as a fix).
 */
function departsInRecording(check: ReproducerCheck, e: Exchange): boolean {
  const response = e.response;
  if (!response || response.truncated) return false;
  const status = String(response.status);
  const body = response.body;
  switch (check.kind) {
    case 'status':
      return !check.expected.some((x) => (x.endsWith('xx') ? status.charAt(0) === x.charAt(0) : status === x));
    case 'done-or-warned': {
      const answer = parseJsonText(body);
      return status.charAt(0) !== '2' && !(typeof answer === 'object' && answer !== null && 'warning_type' in answer);
    }
    case 'json':
      return parseJsonText(body) === undefined;
    case 'empty':
      return body !== '';
    case 'null-at':
      return valueAt(parseJsonText(body), check.path) !== null;
    case 'length-at-most': {
      const list = valueAt(parseJsonText(body), check.path);
      return Array.isArray(list) && list.length > check.max;
    }
    case 'type-at':
      return jsonTypeOf(valueAt(parseJsonText(body), check.path)) !== check.type;
    case 'has-property': {
      const at = valueAt(parseJsonText(body), check.path);
      return typeof at === 'object' && at !== null && !Array.isArray(at) && !(check.property in at);
    }
    case 'ranges-meet': {
      const list = parseJsonText(body);
      return Array.isArray(list) && list.some((x: unknown) => disjoint(valueAt(x, ['date_range']), check.range));
    }
    case 'roles-absent': {
      const list = parseJsonText(body);
      return (
        Array.isArray(list) &&
        list.some(
          (a: unknown) =>
            typeof a === 'object' && a !== null && check.roleIds.includes(String(valueAt(a, ['role_id']))),
        )
      );
    }
    case 'count-present': {
      const page = valueAt(parseJsonText(body), check.path);
      return (
        typeof page === 'object' &&
        page !== null &&
        (typeof valueAt(page, ['total_count']) !== 'number' ||
          typeof valueAt(page, ['total_count_approximate']) !== 'boolean')
      );
    }
    case 'ids-within': {
      const allowed = new Set(check.allowed);
      return (listedIds(valueAt(parseJsonText(body), check.path)) ?? []).some((id) => !allowed.has(id));
    }
    case 'error-message':
      return response.status >= 400 && response.status < 500 && recordedErrorMessage(body) === undefined;
    case 'value-at':
      return canonicalJson(valueAt(parseJsonText(body), check.path)) === canonicalJson(check.departing);
    default:
      return false;
  }
}

function checkOf(v: Violation, at: number, place: string): ReproducerCheck | undefined {
  if (place === 'response.status') {
    // A §4.3 warning is an answer of its own, whatever its status: it conforms where the clause allows it.
    if (v.expected === '2xx or a warning') return { at, kind: 'done-or-warned' };
    const expected = statusesOf(v.expected);
    return expected && { at, kind: 'status', expected };
  }
  if (!place.startsWith('response.body')) return undefined;
  const rest = place.slice('response.body'.length);
  if (rest === '' && v.expected === 'JSON') return { at, kind: 'json' };
  if (rest === '' && v.expected === '(empty)') return { at, kind: 'empty' };
  const path = pathOf(rest);
  if (!path) return undefined;
  // A count asked for: both of its fields, whatever the violation shows of them (they may be absent).
  if (path.at(-1) === 'total_count' && v.expected === 'an integer and a boolean')
    return { at, kind: 'count-present', path: path.slice(0, -1) };
  const most = typeof v.expected === 'string' ? /^<= (\d+)$/.exec(v.expected)?.[1] : undefined;
  if (most !== undefined) return { at, kind: 'length-at-most', path, max: Number(most) };
  if (isJsonType(v.expected)) return { at, kind: 'type-at', path, type: v.expected };
  const allowed = idsOf(v.expected);
  const offending = idsOf(v.actual);
  if (path.at(-1) === 'data' && allowed && offending && offending.every((id) => !allowed.includes(id)))
    return { at, kind: 'ids-within', path, allowed };
  const missing =
    typeof v.expected === 'string' ? /required \{"missingProperty":"([^"\\]+)"\}$/.exec(v.expected)?.[1] : undefined;
  if (missing !== undefined) return { at, kind: 'has-property', path, property: missing };
  // A token is the server's own (§4.9 rule 6): another server gives another; a token where null is due departs whatever it is.
  if (path.at(-1) === 'next_token' && typeof v.actual === 'string' && v.expected === null)
    return { at, kind: 'null-at', path };
  return v.actual !== undefined ? { at, kind: 'value-at', path, departing: v.actual } : undefined;
}

const LIST_ROLES = 'resources.list-roles';
const REVOKE_ROLES = 'resources.revoke-roles';

/** A list-roles read answered 200 with its whole body (a body cut for the report cannot be compared). */
function rolesRead(e: Exchange | undefined): unknown {
  if (e?.operation !== LIST_ROLES || e.response?.status !== 200 || e.response.truncated) return undefined;
  const body = parseJsonText(e.response.body);
  return Array.isArray(body) ? body : undefined;
}

function isRevocation(e: Exchange | undefined): boolean {
  return e?.operation === REVOKE_ROLES;
}

/**
 * A model-based FAIL: every step's requests in order, judged at the failing
 * step. A sequence of revocations starts with the roles read it started from
 * (its trace's first exchange): they must still be there before anything is
 * sent again. Undefined when the trace does not hold that read.
 */
function tracePlan(r: RuleResult): ReproducerPlan | undefined {
  const trace = r.trace ?? [];
  const failing = trace.at(-1);
  if (!failing?.check) return undefined;
  const requests = trace.flatMap((s) => s.exchanges.map((exchange) => ({ label: s.command, exchange })));
  const { exchange, ...check } = failing.check;
  const at = requests.length - failing.exchanges.length + exchange + 1;
  const checks: ReproducerCheck[] = [{ at, ...check }];
  if (!requests.some((q) => isRevocation(q.exchange))) return { requests, checks };
  const first = requests[0]?.exchange;
  const startRoles = isRevocation(requests[1]?.exchange) ? rolesRead(first) : undefined;
  if (!first || startRoles === undefined) return undefined;
  requests[0] = { label: first.step ?? first.operation, exchange: first };
  return { requests, startRoles, checks };
}

type HeldRoles = Record<string, unknown>;

/** The roles a violation says the read showed (`actual.roles`: role id → '*' or team ids), when it says so. */
function rolesOf(actual: unknown): HeldRoles | undefined {
  if (typeof actual !== 'object' || actual === null || !('roles' in actual)) return undefined;
  const { roles } = actual;
  return typeof roles === 'object' && roles !== null && !Array.isArray(roles) ? { ...roles } : undefined;
}

/** Team ids as compared: '*' as it is, a list sorted. */
function teamsKey(teams: unknown): string {
  return JSON.stringify(Array.isArray(teams) ? teams.map(String).sort() : teams);
}

/** The read shows each role of `roles` assigned on those teams (the roles the spec leaves open are not named). */
function showsRoles(read: unknown, roles: HeldRoles): boolean {
  if (!Array.isArray(read)) return false;
  const held = new Map<string, string>();
  for (const a of read) {
    if (typeof a !== 'object' || a === null || !('role_id' in a) || !('is_assigned' in a) || !('team_ids' in a))
      continue;
    if (a.is_assigned === true) held.set(String(a.role_id), teamsKey(a.team_ids));
  }
  return Object.entries(roles).every(([role, teams]) => held.get(role) === teamsKey(teams));
}

/**
 * Exchange `i` is a roles read among the reads right after a revocation (a
 * read, and the same read again a moment later): it belongs to the evidence,
 * not to the state the evidence starts from.
 */
function readAfterRevocation(all: readonly Exchange[], i: number): boolean {
  const read = all[i];
  if (read?.operation !== LIST_ROLES) return false;
  let at = i - 1;
  // The same read sent again a moment later (a read that lags a write), named after it
  // (`list-roles after, a moment later`): another read, such as a run's start, starts anew.
  const again = (e: Exchange | undefined) =>
    e?.operation === LIST_ROLES &&
    e.request.body === read.request.body &&
    (read.step ?? '').startsWith(e.step ?? '\u0000');
  while (at > 0 && again(all[at])) at -= 1;
  return isRevocation(all[at]);
}

/** `B2.1 revoke(…)`: the second branch of revocations sent at once. */
const BRANCH_STEP = /^B(\d+)\.\d+ /;

/**
 * A revocation's FAIL judged on a list-roles read after it: the read its
 * violation names, the revocations before it back to the read they started
 * from (a read right after a revocation belongs to the same evidence: a
 * revocation sent twice), sent again in the same order, at once where they
 * were. Undefined when the transcript does not hold them so.
 */
function revocationPlan(r: RuleResult, v: Violation): ReproducerPlan | undefined {
  const all = r.exchanges;
  const candidates = all.flatMap((e, i) =>
    e.step !== undefined &&
    v.where.includes(e.step) &&
    rolesRead(e) !== undefined &&
    all.slice(0, i).some((x) => isRevocation(x))
      ? [i]
      : [],
  );
  // The read the violation names is the one whose step it names most fully: `list-roles after the second
  // revocation` is not `list-roles after`, whose name it holds too.
  const longest = Math.max(0, ...candidates.map((i) => all[i]?.step?.length ?? 0));
  const named = candidates.filter((i) => all[i]?.step?.length === longest);
  // An example's departure is its first one (what follows confirms it); a property's runs share their
  // steps' names, so its failing read is the one showing the roles its violation names.
  const shownRoles = rolesOf(v.actual);
  const judged =
    r.kind === 'example' ? named[0] : shownRoles && named.find((i) => showsRoles(rolesRead(all[i]), shownRoles));
  if (judged === undefined) return undefined;
  const departing = rolesRead(all[judged]);
  if (departing === undefined) return undefined;
  return replayRevocations(all, judged, { kind: 'roles-not', departing }, !ANSWER_OPEN.has(r.ruleId));
}

/**
 * Rules whose revocations may be refused or accepted, the clause judging the
 * roles read after them only (a kind-defining role revoked: kept either way):
 * a refusal there is no reason the script cannot tell.
 */
const ANSWER_OPEN = new Set(['revoke-roles.defining-role-kept']);

/**
 * The revocations before read `judged` of the log, back to the read they
 * started from (a read right after a revocation belongs to the same
 * evidence), sent again in the same order, at once where they were, each
 * refused one making the script unable to tell (unless `acceptedOnly` is
 * false: the clause leaves the answer open); then `last` judges the read.
 * `last` may name an earlier read of the evidence (`reference`: its index in
 * the log), which the script then judges by its number.
 */
function replayRevocations(
  all: readonly Exchange[],
  judged: number,
  last: { kind: 'roles-not'; departing: unknown } | { kind: 'roles-same'; reference: number },
  acceptedOnly = true,
): ReproducerPlan | undefined {
  let start = judged - 1;
  while (start > 0 && (isRevocation(all[start]) || readAfterRevocation(all, start))) start -= 1;
  const startRoles = rolesRead(all[start]);
  const evidence = all.slice(start, judged + 1);
  if (startRoles === undefined || !evidence.some((e) => isRevocation(e))) return undefined;
  if (last.kind === 'roles-same' && (last.reference < start || last.reference >= judged)) return undefined;
  const requests = evidence.map((exchange) => {
    const label = exchange.step ?? exchange.operation;
    const branch = isRevocation(exchange) ? BRANCH_STEP.exec(label)?.[1] : undefined;
    return { label, exchange, ...(branch !== undefined ? { branch: Number(branch) } : {}) };
  });
  const accepted = requests.flatMap((q, i): ReproducerCheck[] =>
    acceptedOnly && isRevocation(q.exchange) ? [{ at: i + 1, kind: 'accepted' }] : [],
  );
  const judging: ReproducerCheck =
    last.kind === 'roles-same'
      ? { at: requests.length, kind: 'roles-same', reference: last.reference - start + 1 }
      : { at: requests.length, ...last };
  return { requests, startRoles, checks: [...accepted, judging] };
}

/** The rules whose revocations must leave the roles as an earlier read showed them: that read's step, and the judged one's. */
const UNCHANGED_BY: Record<string, { reference: string; after: string }> = {
  'revoke-roles.absent-role-no-change': { reference: 'list-roles before: roles', after: 'list-roles after: roles' },
  'revoke-roles.prop.idempotent': {
    reference: 'after the first revocation: roles',
    after: 'after the second revocation: roles',
  },
};

/**
 * Revocations that must change nothing (of what the resource does not hold,
 * or the same revocation again): the last read after them must show the
 * roles the read before them showed, both sent again, live, from the roles
 * the run started from.
 */
function unchangedPlan(r: RuleResult): ReproducerPlan | undefined {
  const steps = UNCHANGED_BY[r.ruleId];
  if (!steps) return undefined;
  const all = r.exchanges;
  const referenceOf = (judged: number) =>
    all.findLastIndex((e, i) => i < judged && e.step === steps.reference && rolesRead(e) !== undefined);
  // The last read that departs in the recording (a property's passing runs share its steps' names): the
  // script judges the condition its recorded answer departs by, never another run's.
  const judged = all.findLastIndex((e, i) => {
    const reference = referenceOf(i);
    return (
      e.step === steps.after &&
      rolesRead(e) !== undefined &&
      reference >= 0 &&
      !sameRoles(rolesRead(e), rolesRead(all[reference]))
    );
  });
  return judged < 0
    ? undefined
    : replayRevocations(all, judged, { kind: 'roles-same', reference: referenceOf(judged) });
}

/** Two list-roles reads show the same roles, whatever their order (team ids as a set). */
function sameRoles(a: unknown, b: unknown): boolean {
  const key = (read: unknown) =>
    Array.isArray(read)
      ? read
          .map((x: unknown) => {
            if (typeof x !== 'object' || x === null) return canonicalJson(x);
            const teams = 'team_ids' in x && Array.isArray(x.team_ids) ? [...x.team_ids].map(String).sort() : undefined;
            return canonicalJson(teams ? { ...x, team_ids: teams } : x);
          })
          .sort()
      : undefined;
  return JSON.stringify(key(a)) === JSON.stringify(key(b));
}

/**
 * Undefined when the FAIL's condition is judged neither on one answer, nor on
 * answers compared (reproducer-compared.ts), nor on a walk followed again
 * (reproducer-walks.ts), nor on whole walks followed again and compared
 * (reproducer-walked.ts), nor on a revocation's reads.
 */
export function reproducerPlan(r: RuleResult): ReproducerPlan | undefined {
  // A sequence stopped by its command's own answer (a status) has no model check: that answer is judged.
  if (r.trace?.at(-1)?.check) return tracePlan(r);
  const v = r.violations[0];
  if (!v) return undefined;
  const one = answerPlan(r, v) ?? errorAnswerPlan(r, v) ?? readPlacePlan(r, v) ?? hiddenRolesPlan(r, v);
  if (one) return one;
  const compared = comparedPlan(r, v);
  if (compared) return { requests: compared.requests, checks: [compared.check] };
  const walk = walkPlan(r, v);
  if (walk)
    return {
      requests: [{ label: walk.first.step ?? walk.first.operation, exchange: walk.first }],
      walks: [walk.walk],
      checks: [walk.check],
    };
  const walked = walkedPlan(r, v);
  if (walked) return walked;
  const written = writePlan(r) ?? unassignRowsPlan(r) ?? concurrentPlan(r);
  if (written) return written;
  return r.exchanges.some((e) => isRevocation(e))
    ? (rowRevocationPlan(r, v) ?? revocationPlan(r, v) ?? unchangedPlan(r))
    : undefined;
}

/** `list-roles after revoke-roles pairwise (row 12)`: the read of one resource named after the row before it. */
const ROW_READ = /list-roles after (revoke-roles pairwise \(row \d+\))/;

/**
 * A pairwise row's revocation judged on the read of one of its resources
 * right after it (the violation names the roles that read showed): that
 * resource's first read of the run (the state the target must still show),
 * every row before it that named the resource, the row, and the read after
 * it. The resources a row
 * names are the rule's own, given up for good, so sending the row again
 * changes nothing anyone else holds. Undefined when the transcript kept
 * neither the row nor the reads around it.
 */
function rowRevocationPlan(r: RuleResult, v: Violation): ReproducerPlan | undefined {
  const rowStep = ROW_READ.exec(v.where)?.[1];
  const shown = shownRolesOf(v.actual);
  if (rowStep === undefined || shown === undefined) return undefined;
  const all = r.exchanges;
  const judged = all.findLastIndex((e) => e.step === `list-roles after ${rowStep}` && showsRoles(rolesRead(e), shown));
  const read = all[judged];
  const resource = read ? requestField(read, 'resource_ids') : undefined;
  const row = all.findLastIndex((e, i) => i < judged && isRevocation(e) && e.step === rowStep);
  // The resource's first read of the run: the state every revocation of it since started from.
  const start = all.findIndex((e, i) => i < row && rolesRead(e) !== undefined && e.request.body === read?.request.body);
  const startRoles = rolesRead(all[start]);
  const departing = rolesRead(read);
  if (!read || !Array.isArray(resource) || start < 0 || startRoles === undefined || departing === undefined)
    return undefined;
  const named = (e: Exchange) => {
    const ids = requestField(e, 'resource_ids');
    return Array.isArray(ids) && ids.includes(resource[0]);
  };
  const revocations = all.slice(start + 1, row + 1).filter((e) => isRevocation(e) && named(e));
  const requests = [all[start], ...revocations, read].flatMap((exchange) =>
    exchange ? [{ label: exchange.step ?? exchange.operation, exchange }] : [],
  );
  return {
    requests,
    startRoles,
    checks: [
      ...revocations.map((_, i): ReproducerCheck => ({ at: i + 2, kind: 'accepted' })),
      { at: requests.length, kind: 'roles-not', departing },
    ],
  };
}

/** The roles a violation says a read showed: `actual.roles`, or `actual` itself as role id → '*' or team ids. */
function shownRolesOf(actual: unknown): HeldRoles | undefined {
  const wrapped = rolesOf(actual);
  if (wrapped) return wrapped;
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return undefined;
  const roles: HeldRoles = { ...actual };
  return Object.values(roles).every((t) => t === '*' || Array.isArray(t)) ? roles : undefined;
}

/**
 * A FAIL judged on one answer: the last one of the step the violation names
 * whose recorded answer departs by the violation's place in it (none: no
 * plan), sent again after the pages whose tokens lead to it.
 */
function answerPlan(r: RuleResult, v: Violation): ReproducerPlan | undefined {
  const named = placeNamed(v);
  if (!named) return undefined;
  const { step, check } = named;
  // The kind a resource must be of is the kind its request asked for: walks of other kinds are not the one named.
  const askedFor = (e: Exchange) =>
    check.kind !== 'value-at' ||
    check.path.at(-1) !== 'kind_id' ||
    typeof v.expected !== 'string' ||
    requestField(e, 'kind_id') === v.expected;
  const judged = namedExchange(
    r.exchanges,
    step,
    (e) => askedFor(e) && departsInRecording(check, e),
    check.kind === 'ids-within' ? idsInAnyOrder : undefined,
  );
  // A later page is sent again after the pages before it, each with the token its live answer gives.
  const chain = judged === undefined ? undefined : tokenChain(r.exchanges, judged);
  if (!chain) return undefined;
  const requests = chain.map(({ exchange, tokenFrom, alter }) => ({
    label: exchange.step ?? exchange.operation,
    exchange,
    ...(tokenFrom !== undefined ? { tokenFrom: tokenFrom + 1 } : {}),
    ...(alter ? { alter } : {}),
  }));
  const last = requests.at(-1);
  // A rule that sent its judged request again and again judges a departure that may come one time in N:
  // the script sends it as often as the suite needs to see one in ten (95%), each answer judged.
  if (chain.length === 1 && last && sentAgain(r.exchanges, last.exchange)) {
    const times = trialsNeeded();
    return {
      requests: Array.from({ length: times }, () => last),
      checks: Array.from({ length: times }, (_, i) => ({ ...check, at: i + 1 })),
    };
  }
  // A change refused or accepted because of an earlier change of the rule (an external_id another
  // resource already uses) departs only after it: the rule's earlier changes go first, in their order.
  const before = last && chain.length === 1 ? earlierChanges(r, last.exchange) : [];
  const all = [...before.map((exchange) => ({ label: exchange.step ?? exchange.operation, exchange })), ...requests];
  return { requests: all, checks: [{ ...check, at: all.length }] };
}

/**
 * `show-teams pairwise: response.status (show-teams pairwise row 3)`, `…: date_range of
 * response.body[0] (…row 9)`: how the judges of pairwise reads name a row's answer, the row's
 * step last, in parentheses.
 */
const ROW_PLACE = /: (date_range of )?(response\.\S*) \(([^()]+)\)$/;

/** `a range meeting 2028-01-01/2028-02-29`: the requested range a record must meet. */
const MEETING = /^a range meeting (\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2})$/;

/** The step whose answer the violation names and the check of that answer, where it names one so. */
function placeNamed(v: Violation): { step: string; check: ReproducerCheck } | undefined {
  const row = ROW_PLACE.exec(v.where);
  if (row) {
    const [, dated, place, step] = row;
    const range = typeof v.expected === 'string' ? MEETING.exec(v.expected)?.[1] : undefined;
    // A record's range against the requested one: every record of the answer is judged (a fixed
    // answer may hold others, or none, at that index).
    if (dated !== undefined)
      return range !== undefined && step !== undefined
        ? { step, check: { at: 1, kind: 'ranges-meet', range } }
        : undefined;
    const check = place === undefined ? undefined : checkOf(v, 1, place);
    return check && step !== undefined ? { step, check } : undefined;
  }
  const cut = v.where.lastIndexOf('response.');
  if (cut < 0) return undefined;
  const check = checkOf(v, 1, v.where.slice(cut));
  return check && { step: v.where.slice(0, cut).replace(/:\s*$/, ''), check };
}

/**
 * The requests of the judged one's operation the rule's own steps sent
 * before it, when the rule changes state (the state guard's restores, which
 * have no step, are not the rule's): the changes it may depend on. (Reads of
 * a read's operation among them change nothing.)
 */
function earlierChanges(r: RuleResult, judged: Exchange): Exchange[] {
  if (r.mutates === 'none') return [];
  const end = r.exchanges.indexOf(judged);
  return r.exchanges
    .slice(0, Math.max(0, end))
    .filter((e) => e.step !== undefined && e.operation === judged.operation && e.response !== undefined);
}

/** The rule sent this request more than once, the same step and body. */
function sentAgain(log: readonly Exchange[], e: Exchange): boolean {
  return log.filter((x) => x.step === e.step && x.request.body === e.request.body).length > 1;
}

/** The roles of the associations a violation lists (`actual`: associations shown that must not be). */
function rolesShown(actual: unknown): string[] | undefined {
  if (!Array.isArray(actual) || actual.length === 0) return undefined;
  const roles = actual.map((a: unknown) =>
    typeof a === 'object' && a !== null && 'role_id' in a && typeof a.role_id === 'string' ? a.role_id : undefined,
  );
  return roles.every((x) => x !== undefined) ? [...new Set(roles.map(String))] : undefined;
}

/**
 * A restricted caller shown associations of roles hidden from it: the read
 * the violation names (its step, `…: response.body`), which must show none
 * of the roles the departing associations are of.
 */
function hiddenRolesPlan(r: RuleResult, v: Violation): ReproducerPlan | undefined {
  if (r.ruleId !== 'list-roles.restricted-sees-subset' || v.expected !== '(none)') return undefined;
  const roleIds = rolesShown(v.actual);
  const step = v.where.replace(/: response\.body$/, '');
  const exchange = r.exchanges.findLast((e) => e.operation === LIST_ROLES && e.step === step);
  const check: ReproducerCheck | undefined = roleIds && { at: 1, kind: 'roles-absent', roleIds };
  if (!exchange || !check || !departsInRecording(check, exchange)) return undefined;
  return { requests: [{ label: step, exchange }], checks: [check] };
}

/**
 * `show-teams(7…2)[0].external_id`, `show-teams(7…2) with the main key[1].contract_number`,
 * `show-activity-rates[0].…`: how the redaction rules name a value of a read's answer, by the read's
 * operation, resource and key rather than its step.
 */
const READ_PLACE =
  /^(show-teams|show-activity-rates)(?:\((\d+)\))?( with the main key)?((?:\[\d+\]|\.[A-Za-z_$][\w$-]*)+)$/;

/** A value of a read's answer named by the read's operation, resource and key (READ_PLACE). */
function readPlacePlan(r: RuleResult, v: Violation): ReproducerPlan | undefined {
  const place = READ_PLACE.exec(v.where);
  if (!place) return undefined;
  const [, operation, resource, main, rest] = place;
  const path = rest === undefined ? undefined : pathOf(rest);
  if (!path || v.actual === undefined) return undefined;
  const check: ReproducerCheck = { at: 1, kind: 'value-at', path, departing: v.actual };
  const exchange = r.exchanges.findLast(
    (e) =>
      e.operation === `resources.${operation}` &&
      (e.step ?? '').includes('main key') === (main !== undefined) &&
      (resource === undefined || requestField(e, 'resource_id') === resource) &&
      departsInRecording(check, e),
  );
  return exchange && { requests: [{ label: exchange.step ?? exchange.operation, exchange }], checks: [check] };
}

/** `resources.list answered 400 (to a body that is not JSON)`: how errors.message-present names an error answer. */
const ERROR_ANSWER = /^(\S+) answered (\d{3})(?: \(to (.*)\))?$/;

/** An error answer without a message (§7): the request that had it, sent again, must now carry one. */
function errorAnswerPlan(r: RuleResult, v: Violation): ReproducerPlan | undefined {
  const m = ERROR_ANSWER.exec(v.where);
  if (!m) return undefined;
  const [, operation, status, step] = m;
  const check: ReproducerCheck = { at: 1, kind: 'error-message' };
  const judged = r.exchanges.findLastIndex(
    (e) =>
      e.operation === operation &&
      e.response?.status === Number(status) &&
      (e.step ?? e.operation) === (step ?? operation) &&
      departsInRecording(check, e),
  );
  if (judged < 0) return undefined;
  // A token the request sent is the server's: sent after the request whose live answer gives it.
  const requests = tokenChain(r.exchanges, judged).map(({ exchange, tokenFrom, alter }) => ({
    label: exchange.step ?? exchange.operation,
    exchange,
    ...(tokenFrom !== undefined ? { tokenFrom: tokenFrom + 1 } : {}),
    ...(alter ? { alter } : {}),
  }));
  return { requests, checks: [{ ...check, at: requests.length }] };
}
