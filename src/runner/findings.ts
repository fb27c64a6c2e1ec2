/**
 * Departures a rule's exchanges showed from another rule's clause, and how
 * they become that rule's verdict. A shared step reports them (`owned` in
 * src/rules/assertions.ts) while the rule that walked the pages runs; once
 * every rule has ended, each owner FAILs with them, whatever its own requests
 * showed: a departure seen anywhere in a run belongs to the rule whose clause
 * it breaks. An owner the run did not select is added to the results as a
 * FAIL, so the run fails on it and the reports say where it showed.
 */
import type { Exchange } from '../core/exchange.ts';
import type { RuleResult, Violation } from '../core/types.ts';
import type { Rule, RuleGroup } from '../rules/types.ts';
import { emptyResult } from './rule-result.ts';

/** Exchanges of the finder kept as the evidence of one finding: those its violations name, and the last ones. */
const EVIDENCE_EXCHANGES = 3;
/** Findings kept per owner: the first ones say it; a broken server must not fill the memory. */
const KEPT_PER_OWNER = 20;

export interface Finding {
  owner: string;
  /** The rule whose exchanges showed it. */
  foundBy: string;
  violations: readonly Violation[];
  evidence: readonly Exchange[];
}

export class Findings {
  private readonly byOwner = new Map<string, Finding[]>();

  /** A departure from `owner`'s clause that `foundBy`'s exchanges (the last of `transcript`) showed. */
  add(owner: string, foundBy: string, violations: readonly Violation[], transcript: readonly Exchange[]): void {
    const list = this.byOwner.get(owner) ?? [];
    if (list.length >= KEPT_PER_OWNER) return;
    // The exchanges the violations name by their step (a pairwise row's page judged at the end of the run), and
    // the last ones, where a departure found as it came is.
    const named = transcript.filter(
      (e) => e.step !== undefined && violations.some((v) => v.where.includes(`${e.step}:`)),
    );
    const evidence = [...new Set([...named.slice(-EVIDENCE_EXCHANGES), ...transcript.slice(-EVIDENCE_EXCHANGES)])];
    list.push({ owner, foundBy, violations, evidence });
    this.byOwner.set(owner, list);
  }

  get size(): number {
    return this.byOwner.size;
  }

  owners(): string[] {
    return [...this.byOwner.keys()];
  }

  of(owner: string): readonly Finding[] {
    return this.byOwner.get(owner) ?? [];
  }
}

/** How a finding's departure was driven again (confirm-findings.ts). */
export interface FindingCheck {
  /** confirmed: the departure repeated; not-repeated: it did not; unconfirmed: it could not be driven again. */
  outcome: 'confirmed' | 'not-repeated' | 'unconfirmed';
  /** The requests sent again and their answers, and the evidence of findings found again. */
  exchanges: Exchange[];
}

/** Where to find a rule the run did not select: the whole catalogue. */
export type RuleLookup = (ruleId: string) => { rule: Rule; group: RuleGroup } | undefined;

/**
 * The results with every finding charged to its owner: a selected owner that
 * did not FAIL now does, with the findings as its violations and their
 * exchanges as evidence (a FAIL keeps its own violations first); an owner not
 * selected is added as a FAIL marked `selected: false`. An OBSERVED owner
 * records them as observations: it never fails. Findings that did not
 * repeat when their request was sent again (`checks`, confirm-findings.ts)
 * make an owner that did not FAIL on its own FLAKY instead.
 */
export function chargeFindings(
  results: readonly RuleResult[],
  findings: Findings,
  lookup: RuleLookup,
  checks: ReadonlyMap<string, FindingCheck> = new Map(),
): RuleResult[] {
  const out = results.map((r) => charge(r, findings.of(r.ruleId), checks.get(r.ruleId)));
  const present = new Set(results.map((r) => r.ruleId));
  for (const owner of findings.owners()) {
    if (present.has(owner)) continue;
    const found = lookup(owner);
    const base = found ? unselected(found.rule, found.group) : unknownOwner(owner);
    out.push(charge(base, findings.of(owner), checks.get(owner)));
  }
  return blockedOnlyByFailures(out);
}

function charge(result: RuleResult, found: readonly Finding[], check: FindingCheck | undefined): RuleResult {
  if (found.length === 0) return result;
  const violations = found.flatMap((f) => f.violations.map((v) => ({ ...v, foundBy: f.foundBy })));
  const evidence = [...found.flatMap((f) => f.evidence), ...(check?.exchanges ?? [])];
  if (result.level === 'OBSERVED') {
    return {
      ...result,
      observations: [...result.observations, ...violations.map((v) => ({ subject: v.where, value: v }))],
    };
  }
  const { reason: _reason, errorCode: _code, blockedBy: _blocked, skipCause: _cause, ...rest } = result;
  if (check?.outcome === 'not-repeated') {
    // Its own FAIL was confirmed on its own requests; a departure elsewhere that did not repeat adds nothing.
    if (result.verdict === 'FAIL') return result;
    return {
      ...rest,
      verdict: 'FLAKY',
      reason: `${reasonOfCharge(result, found)}, but not when the request that showed it was sent again (both answers are shown)`,
      violations: [...result.violations, ...violations],
      exchanges: [...result.exchanges, ...evidence],
    };
  }
  return {
    ...rest,
    verdict: 'FAIL',
    ...(result.verdict === 'FAIL' ? {} : { reason: reasonOfCharge(result, found) }),
    ...(check?.outcome === 'confirmed' && result.verdict !== 'FAIL' ? { confirmed: true } : {}),
    violations: [...result.violations, ...violations],
    exchanges: [...result.exchanges, ...evidence],
  };
}

function reasonOfCharge(result: RuleResult, found: readonly Finding[]): string {
  const by = [...new Set(found.map((f) => f.foundBy))].join(', ');
  const seen = `a departure from this rule's clause showed in the requests of ${by}`;
  if (result.selected === false) return `not selected for this run, but ${seen}`;
  const own = result.verdict === 'PASS' ? 'passed' : `ended ${result.verdict}`;
  return `${seen} (this rule's own requests ${own})`;
}

/**
 * A rule stopped by a departure it reported for another rule says "blocked
 * by" that rule only when that rule FAILed: an OBSERVED owner never does, so
 * the stopped rule is a SKIP for the data instead.
 */
function blockedOnlyByFailures(results: RuleResult[]): RuleResult[] {
  const failed = new Set(results.filter((r) => r.verdict === 'FAIL').map((r) => r.ruleId));
  return results.map((r) => {
    if (r.blockedBy === undefined || failed.has(r.blockedBy)) return r;
    const { blockedBy: _blocked, ...rest } = r;
    return {
      ...rest,
      skipCause: 'precondition',
      reason: `${r.reason ?? ''} (recorded by ${r.blockedBy}, which does not fail on it)`,
    };
  });
}

function unselected(rule: Rule, group: RuleGroup): RuleResult {
  return emptyResult(rule, group, 'PASS', { selected: false });
}

/** An owner the catalogue does not hold (a fixture catalogue in tests): named, with no clause to show. */
function unknownOwner(ruleId: string): RuleResult {
  const rule = { id: ruleId, clause: '', sentence: '', level: 'MUST', kind: 'example', mutates: 'none' } as const;
  return emptyResult(rule, { section: '', title: '' }, 'PASS', { selected: false });
}
