/**
 * The conditions a standalone reproducer judges its answers by: a FAIL's
 * judged condition, as data the script's judge (reproducer-judge.ts) reads.
 * A model-based FAIL brings its own (the failing step's ReplayCheck); for the
 * others it is derived from the first violation: the status the answer must
 * have, a body that must be JSON or empty, or the value the departing answer
 * showed at the violation's JSON path, which a fixed answer no longer shows.
 */
import type { Exchange } from '../core/exchange.ts';
import type { ReplayCheck, RuleResult, Violation } from '../core/types.ts';

/** A model's check, its answer named by the script's request number instead. */
type AtRequest<C> = C extends ReplayCheck ? { at: number } & Omit<C, 'exchange'> : never;

/** `at`: the number of the script's request whose answer is judged (1 is the first). */
export type ReproducerCheck =
  | { at: number; kind: 'status'; expected: string[] }
  | { at: number; kind: 'json' }
  | { at: number; kind: 'empty' }
  | { at: number; kind: 'value-at'; path: Array<string | number>; departing: unknown }
  | AtRequest<ReplayCheck>;

/** What a script sends, in order, and how it judges the answers. */
export interface ReproducerPlan {
  /** Each request with what it is for (a trace step's command, or the rule's step). */
  requests: Array<{ label: string; exchange: Exchange }>;
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

/** The exchange the violation is about: the last one of the step it names, else the rule's last. */
function judgedExchange(r: RuleResult, step: string): Exchange | undefined {
  const named = r.exchanges.filter((e) => e.step === step || step.endsWith(e.step ?? '\u0000'));
  return named.at(-1) ?? r.exchanges.at(-1);
}

function checkOf(v: Violation, at: number, place: string): ReproducerCheck | undefined {
  if (place === 'response.status') {
    const expected = statusesOf(v.expected);
    return expected && { at, kind: 'status', expected };
  }
  if (!place.startsWith('response.body')) return undefined;
  const rest = place.slice('response.body'.length);
  if (rest === '' && v.expected === 'JSON') return { at, kind: 'json' };
  if (rest === '' && v.expected === '(empty)') return { at, kind: 'empty' };
  const path = pathOf(rest);
  return path && v.actual !== undefined ? { at, kind: 'value-at', path, departing: v.actual } : undefined;
}

/** A model-based FAIL: every step's requests in order, judged at the failing step. */
function tracePlan(r: RuleResult): ReproducerPlan | undefined {
  const trace = r.trace ?? [];
  const failing = trace.at(-1);
  if (!failing?.check) return undefined;
  const requests = trace.flatMap((s) => s.exchanges.map((exchange) => ({ label: s.command, exchange })));
  const { exchange, ...check } = failing.check;
  const at = requests.length - failing.exchanges.length + exchange + 1;
  return { requests, checks: [{ at, ...check }] };
}

/** Undefined when the FAIL's condition cannot be judged on one answer (a walk, several answers compared). */
export function reproducerPlan(r: RuleResult): ReproducerPlan | undefined {
  // A sequence stopped by its command's own answer (a status) has no model check: that answer is judged.
  const sequence = r.trace ? tracePlan(r) : undefined;
  if (sequence) return sequence;
  const v = r.violations[0];
  if (!v) return undefined;
  const cut = v.where.lastIndexOf('response.');
  if (cut < 0) return undefined;
  const step = v.where.slice(0, cut).replace(/:\s*$/, '');
  const exchange = judgedExchange(r, step);
  if (!exchange) return undefined;
  const check = checkOf(v, 1, v.where.slice(cut));
  return check && { requests: [{ label: exchange.step ?? exchange.operation, exchange }], checks: [check] };
}
