/**
 * Answers compared, in a reproducer: a FAIL judged on a filtered read
 * against the unfiltered read of the same resource, which tells what the
 * filter must keep. The script sends both again (the unfiltered read first)
 * and judges the filtered answer against the live unfiltered one, never
 * against the run's: the target's data may have moved on, and the
 * comparison is what the clause says. So far the team and head filters of
 * show-teams (§4.5: the assignations of the requested teams, and only those;
 * only those whose head is the one asked for, and some where the unfiltered
 * read shows some).
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult, Violation } from '../core/types.ts';

/** The filtered answer (request `at`) must hold exactly the entries of the unfiltered one (request `reference`) on these teams. */
export interface TeamFilterCheck {
  at: number;
  kind: 'team-filter';
  reference: number;
  teamIds: string[];
}

/** The filtered answer (request `at`) must hold only entries whose head is `head`, and some where the unfiltered one has some. */
export interface HeadFilterCheck {
  at: number;
  kind: 'head-filter';
  reference: number;
  head: boolean;
}

export type ComparedCheck = TeamFilterCheck | HeadFilterCheck;

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

type ComparedPlan = { requests: Array<{ label: string; exchange: Exchange }>; check: ComparedCheck };

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
  const at = r.exchanges.findLastIndex((e) => e.operation === SHOW_TEAMS && e.step === v.where);
  const filtered = r.exchanges[at];
  const asked = filtered && requestOf(filtered);
  const teamIds = asked?.get('team_ids');
  if (
    !filtered ||
    !asked ||
    asked.has('head') ||
    !Array.isArray(teamIds) ||
    !teamIds.every((t) => typeof t === 'string')
  )
    return undefined;
  const reference = unfilteredBefore(r.exchanges, at, asked);
  const all = reference && keysOf(reference);
  const shown = keysOf(filtered);
  if (!reference || !all || !shown) return undefined;
  const want = all.filter((k) => teamIds.some((t) => k.startsWith(`${t}/`)));
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (JSON.stringify(want) === JSON.stringify(shown)) return undefined;
  return planOf(reference, filtered, { at: 2, kind: 'team-filter', reference: 1, teamIds: [...teamIds] });
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

/** The plan of a FAIL judged on answers compared, for the rules that have one. */
export function comparedPlan(r: RuleResult, v: Violation): ComparedPlan | undefined {
  if (r.ruleId === 'show-teams.team-filter') return teamFilterPlan(r, v);
  if (r.ruleId === 'show-teams.head-filter') return headFilterPlan(r, v);
  return undefined;
}
