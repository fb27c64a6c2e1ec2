/**
 * Compares two runs rule by rule: what newly fails (a regression), what was
 * fixed, and which observations of open points changed. Serves two gates: a
 * version upgrade (same server, current vs candidate Service-Version) and a
 * regression run against staging (last good run vs today).
 */
import type { RuleResult, Verdict } from '../core/types.ts';
import { canonicalJson } from '../core/canonical-json.ts';
import type { ResultsFile } from './results-file.ts';

export interface RuleChange {
  ruleId: string;
  clause: string;
  before: Verdict | 'absent';
  after: Verdict | 'absent';
  detail?: string;
}

export interface Comparison {
  old: { baseUrl: string; serviceVersion: string; startedAt: string };
  new: { baseUrl: string; serviceVersion: string; startedAt: string };
  regressions: RuleChange[];
  fixed: RuleChange[];
  newErrors: RuleChange[];
  observationsChanged: RuleChange[];
  otherChanges: RuleChange[];
}

const BAD: ReadonlySet<string> = new Set(['FAIL']);

function firstViolation(r: RuleResult | undefined): string | undefined {
  const v = r?.violations[0];
  return v ? `${v.where}: ${v.message}` : r?.reason;
}

export function compareRuns(oldRun: ResultsFile, newRun: ResultsFile): Comparison {
  const before = new Map(oldRun.results.map((r) => [r.ruleId, r]));
  const after = new Map(newRun.results.map((r) => [r.ruleId, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const c: Comparison = {
    old: { baseUrl: oldRun.target.baseUrl, serviceVersion: oldRun.target.serviceVersion, startedAt: oldRun.startedAt },
    new: { baseUrl: newRun.target.baseUrl, serviceVersion: newRun.target.serviceVersion, startedAt: newRun.startedAt },
    regressions: [],
    fixed: [],
    newErrors: [],
    observationsChanged: [],
    otherChanges: [],
  };
  for (const id of ids) {
    const a = before.get(id);
    const b = after.get(id);
    const change: RuleChange = {
      ruleId: id,
      clause: (b ?? a)!.clause,
      before: a?.verdict ?? 'absent',
      after: b?.verdict ?? 'absent',
    };
    if (b && BAD.has(b.verdict) && !(a && BAD.has(a.verdict)))
      c.regressions.push({ ...change, detail: firstViolation(b) });
    else if (a && BAD.has(a.verdict) && b?.verdict === 'PASS') c.fixed.push(change);
    else if (b?.verdict === 'ERROR' && a?.verdict !== 'ERROR') c.newErrors.push({ ...change, detail: b.reason });
    else if (
      a &&
      b &&
      canonicalJson(a.observations) !== canonicalJson(b.observations) &&
      (a.verdict === 'OBSERVED' || b.verdict === 'OBSERVED')
    ) {
      c.observationsChanged.push({
        ...change,
        detail: `${canonicalJson(a.observations)} → ${canonicalJson(b.observations)}`,
      });
    } else if (change.before !== change.after) c.otherChanges.push(change);
  }
  return c;
}

export function renderComparisonText(c: Comparison): string {
  const section = (title: string, changes: RuleChange[]): string[] =>
    changes.length === 0
      ? []
      : [
          `${title} (${changes.length}):`,
          ...changes.map(
            (x) => `  ${x.ruleId} (${x.clause}): ${x.before} → ${x.after}${x.detail ? ` — ${x.detail}` : ''}`,
          ),
        ];
  return [
    `old: ${c.old.baseUrl} Service-Version ${c.old.serviceVersion} (${c.old.startedAt})`,
    `new: ${c.new.baseUrl} Service-Version ${c.new.serviceVersion} (${c.new.startedAt})`,
    ...section('NEWLY FAILING', c.regressions),
    ...section('fixed', c.fixed),
    ...section('new harness errors (not a verdict on the server)', c.newErrors),
    ...section('observations changed', c.observationsChanged),
    ...section('other changes', c.otherChanges),
    c.regressions.length > 0 ? 'REGRESSION' : 'no regression',
  ].join('\n');
}
