/**
 * A concurrent run's FAIL, in a reproducer. The rule sends a serial prefix,
 * then branches of writes at once, then reads the whole state, and judges
 * the read by linearizability: some serial order of the writes must explain
 * it. A script cannot search the orders without the model, but part of the
 * answer holds in every order: the days of a write's range that no other
 * write of the run may touch (whichever way a range's end day is read) show
 * that write's effect, whatever order the server chose. The script sends the
 * prefix and the branches again (at once, as in the run) and the read, and
 * judges those days: an assigned rate shown over them, no period inside an
 * unassigned range, a head assignment's team shown over them. A write
 * refused live says nothing (exit 3). The writes change the target; nothing
 * is put back (the script says so).
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult } from '../core/types.ts';
import {
  addDays,
  carries,
  periodsOf,
  recordOf,
  showsTeam,
  spanOf,
  type PeriodAssignedCheck,
  type PeriodInsideCheck,
  type Span,
  type TeamAssignedCheck,
} from './reproducer-writes.ts';

type Plan = {
  requests: Array<{ label: string; exchange: Exchange; branch?: number }>;
  checks: Array<PeriodAssignedCheck | PeriodInsideCheck | TeamAssignedCheck | { at: number; kind: 'accepted' }>;
};

/** The read each concurrent rule ends its run with, by the rule. */
const READ_OF: Record<string, string> = {
  'activity-rates.prop.concurrent-sequences': 'show-activity-rates after the parallel commands',
  'activity-rates.prop.concurrent-other-days-kept': 'show-activity-rates after the parallel commands',
  'assign-team.prop.concurrent-sequences': 'show-teams after the parallel assignments',
  'assign-team.prop.concurrent-other-teams-kept': 'show-teams after the parallel assignments',
};
const COMMAND = /^(?:P\d+|B(\d+)\.\d+) /;
/** The most days of a range a script judges one by one. */
const MAX_DAYS = 800;

/** A write answered 2xx that is no §4.3 warning. */
function done(e: Exchange): boolean {
  const status = e.response?.status ?? 0;
  if (status < 200 || status >= 300) return false;
  const body = e.response && !e.response.truncated ? parseJsonText(e.response.body) : undefined;
  return !(typeof body === 'object' && body !== null && 'warning_type' in body);
}

/**
 * The days of `own` certainly covered (its end day left out) that no range of
 * `others` may cover (its end day included), as runs of consecutive days.
 */
export function ownDays(own: Span, others: readonly Span[]): Span[] {
  const pieces: Span[] = [];
  let current: Span | undefined;
  let n = 0;
  for (let d = own.start; d < own.end && n < MAX_DAYS; d = addDays(d, 1), n += 1) {
    const touched = others.some((o) => o.start <= d && d <= o.end);
    if (touched) {
      current = undefined;
      continue;
    }
    if (current && addDays(current.end, 1) === d) current.end = d;
    else pieces.push((current = { start: d, end: d }));
  }
  return pieces;
}

/** The checks a write's own days make of the read after the run (request `at`): each a piece of its range. */
function checksOf(write: Exchange, others: readonly Span[], at: number): Plan['checks'] {
  const body = recordOf(parseJsonText(write.request.body));
  const span = spanOf(body.get('date_range'));
  if (!span || !done(write)) return [];
  const pieces = ownDays(span, others).map((p) => `${p.start}/${p.end}`);
  const rate = body.get('average_rate');
  const teamId = body.get('team_id');
  if (write.operation === 'resources.assign-activity-rate' && typeof rate === 'number')
    return pieces.map((range) => ({
      at,
      kind: 'period-assigned',
      assigned: { date_range: range, average_rate: rate },
    }));
  if (write.operation === 'resources.unassign-activity-rate')
    return pieces.map((range) => ({ at, kind: 'period-inside', range, none: true }));
  if (write.operation === 'resources.assign-team' && typeof teamId === 'string' && body.get('head') === true)
    return pieces.map((range) => ({ at, kind: 'team-assigned', teamId, head: true, range }));
  return [];
}

/** Whether the recorded read departs by a check, as the script judges it. */
function departsInRecording(read: Exchange, check: Plan['checks'][number]): boolean {
  if (check.kind === 'period-assigned') return !(periodsOf(read) ?? []).some((p) => carries(p, check.assigned));
  if (check.kind === 'team-assigned') {
    const range = spanOf(check.range);
    return range !== undefined && !showsTeam(read, check.teamId, check.head, range);
  }
  if (check.kind === 'period-inside') {
    const range = spanOf(check.range);
    return (periodsOf(read) ?? []).some((p) => {
      const s = spanOf(p.get('date_range'));
      return s !== undefined && range !== undefined && s.start < range.end && range.start < s.end;
    });
  }
  return false;
}

/**
 * The plan of the last run whose read departs on a write's own days: its
 * commands (the prefix, then the branches at once) and the read after them.
 * Undefined where no run the transcript kept departs so.
 */
export function concurrentPlan(r: RuleResult): Plan | undefined {
  const readStep = READ_OF[r.ruleId];
  if (readStep === undefined) return undefined;
  const log = r.exchanges;
  for (let j = log.length - 1; j >= 0; j--) {
    const read = log[j];
    if (read?.step !== readStep || !periodsOf(read)) continue;
    let from = j;
    while (from > 0 && COMMAND.test(log[from - 1]?.step ?? '')) from -= 1;
    const commands = log.slice(from, j);
    if (commands.length === 0) continue;
    const spans = commands.map((c) => spanOf(recordOf(parseJsonText(c.request.body)).get('date_range')));
    const at = commands.length + 1;
    const checks = commands.flatMap((c, i) =>
      checksOf(
        c,
        spans.flatMap((s, k) => (k !== i && s ? [s] : [])),
        at,
      ),
    );
    if (!checks.some((c) => departsInRecording(read, c))) continue;
    const requests = [...commands, read].map((exchange) => {
      const branch = COMMAND.exec(exchange.step ?? '')?.[1];
      return { label: exchange.step ?? exchange.operation, exchange, ...(branch ? { branch: Number(branch) } : {}) };
    });
    return {
      requests,
      // A write the run had done must be done again; one it had refused changes nothing either way.
      checks: [...commands.flatMap((c, i) => (done(c) ? [{ at: i + 1, kind: 'accepted' as const }] : [])), ...checks],
    };
  }
  return undefined;
}
