/**
 * Compares two runs rule by rule: what newly fails (a regression), what was
 * fixed, and which observations of open points changed. Serves two gates: a
 * version upgrade (same server, current vs candidate Service-Version) and a
 * regression run against staging (last good run vs today).
 */
import type { RuleResult, Verdict } from '../core/types.ts';
import { canonicalJson } from '../core/canonical-json.ts';
import { reachedVerdict, summarise } from '../core/summarise.ts';
import type { ResultsFile } from './results-file.ts';

export interface RuleChange {
  ruleId: string;
  clause: string;
  before: Verdict | 'absent';
  after: Verdict | 'absent';
  detail?: string;
  /** Why the rule ended as it did in the old run (first violation or reason), and in the new one. */
  reasonBefore?: string;
  reasonAfter?: string;
}

export interface RunSide {
  baseUrl: string;
  serviceVersion: string;
  startedAt: string;
  /** Share of that run's selection that reached a verdict on the server. */
  coverage: number;
  rules: number;
  /** Where that run's index.html is, relative to the comparison report, when known. */
  report?: string;
}

export interface Comparison {
  old: RunSide;
  new: RunSide;
  regressions: RuleChange[];
  /**
   * Rules that reached a verdict before and are now SKIP, NOT-TESTED or gone:
   * a gate that passes because less was checked is no gate.
   */
  coverageDrops: RuleChange[];
  /** The new run's coverage is lower than the old one's. */
  coverageLower: boolean;
  fixed: RuleChange[];
  newErrors: RuleChange[];
  observationsChanged: RuleChange[];
  otherChanges: RuleChange[];
  /** Rules that ended the same in both runs (what a CI page lists as passing testcases). */
  unchanged: RuleChange[];
}

const BAD: ReadonlySet<string> = new Set(['FAIL']);

function firstViolation(r: RuleResult | undefined): string | undefined {
  const v = r?.violations[0];
  return v ? `${v.where}: ${v.message}` : r?.reason;
}

function side(run: ResultsFile, report: string | undefined): RunSide {
  return {
    baseUrl: run.target.baseUrl,
    serviceVersion: run.target.serviceVersion,
    startedAt: run.startedAt,
    coverage: summarise(run.results).coverage,
    rules: run.results.length,
    ...(report ? { report } : {}),
  };
}

export function compareRuns(
  oldRun: ResultsFile,
  newRun: ResultsFile,
  reports: { old?: string; new?: string } = {},
): Comparison {
  const before = new Map(oldRun.results.map((r) => [r.ruleId, r]));
  const after = new Map(newRun.results.map((r) => [r.ruleId, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const oldSide = side(oldRun, reports.old);
  const newSide = side(newRun, reports.new);
  const c: Comparison = {
    old: oldSide,
    new: newSide,
    regressions: [],
    coverageDrops: [],
    // Compared in whole rules per thousand, so rounding never reads as a drop.
    coverageLower: Math.round(newSide.coverage * 1000) < Math.round(oldSide.coverage * 1000),
    fixed: [],
    newErrors: [],
    observationsChanged: [],
    otherChanges: [],
    unchanged: [],
  };
  for (const id of ids) {
    const a = before.get(id);
    const b = after.get(id);
    // Every id is of one run or the other.
    const either = b ?? a;
    if (either === undefined) continue;
    const reasonBefore = firstViolation(a);
    const reasonAfter = firstViolation(b);
    const change: RuleChange = {
      ruleId: id,
      clause: either.clause,
      before: a?.verdict ?? 'absent',
      after: b?.verdict ?? 'absent',
      ...(reasonBefore ? { reasonBefore } : {}),
      ...(reasonAfter ? { reasonAfter } : {}),
    };
    const unchecked = !b || b.verdict === 'SKIP' || b.verdict === 'NOT-TESTED';
    if (b && BAD.has(b.verdict) && !(a && BAD.has(a.verdict)))
      c.regressions.push({ ...change, detail: firstViolation(b) });
    else if (a && reachedVerdict(a) && unchecked)
      c.coverageDrops.push({ ...change, detail: b ? (firstViolation(b) ?? b.verdict) : 'not in the new run' });
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
    else c.unchanged.push(change);
  }
  return c;
}

/** A coverage regression: rules checked before that are not now, or lower coverage. */
export function coverageRegressed(c: Comparison): boolean {
  return c.coverageDrops.length > 0 || c.coverageLower;
}

export function renderComparisonText(c: Comparison, options: { allowCoverageDrop?: boolean } = {}): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const coverage = `coverage ${pct(c.old.coverage)} of ${c.old.rules} rules → ${pct(c.new.coverage)} of ${c.new.rules} rules`;
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
    coverage,
    ...section('NEWLY FAILING', c.regressions),
    ...section('COVERAGE DROPPED: checked before, not now', c.coverageDrops),
    ...section('fixed', c.fixed),
    ...section('new harness errors (not a verdict on the server)', c.newErrors),
    ...section('observations changed', c.observationsChanged),
    ...section('other changes', c.otherChanges),
    verdictLine(c, options),
  ].join('\n');
}

function verdictLine(c: Comparison, options: { allowCoverageDrop?: boolean }): string {
  const words: string[] = [];
  if (c.regressions.length > 0) words.push('REGRESSION');
  if (coverageRegressed(c))
    words.push(
      options.allowCoverageDrop ? 'coverage regression (allowed by --allow-coverage-drop)' : 'COVERAGE REGRESSION',
    );
  return words.length > 0 ? words.join('; ') : 'no regression';
}
