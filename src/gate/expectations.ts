/**
 * Per-target expectations: a committed list of known failures with a reason
 * and an optional expiry date. In gate mode a known failure does not fail the
 * build, a new one does, and an unexpected pass or an expired expectation is
 * reported so the file gets tightened.
 */
import { writeFile } from 'node:fs/promises';
import type { RuleResult } from '../core/types.ts';
import { UsageError } from '../core/errors.ts';
import { readJsonFile } from './read-json-file.ts';

export interface Expectation {
  rule: string;
  reason: string;
  /** YYYY-MM-DD; after it, the expectation no longer excuses the failure. */
  expires?: string;
}

export interface ExpectationsFile {
  target?: string;
  expectations: Expectation[];
}

export interface GateOutcome {
  unexpectedFailures: RuleResult[];
  knownFailures: Array<{ result: RuleResult; expectation: Expectation }>;
  unexpectedPasses: Expectation[];
  expired: Expectation[];
  passed: boolean;
}

export async function loadExpectations(path: string): Promise<ExpectationsFile> {
  const data = await readJsonFile(path, 'expectations file');
  const file = data as Partial<ExpectationsFile>;
  const ok =
    Array.isArray(file.expectations) &&
    file.expectations.every(
      (x) =>
        typeof x?.rule === 'string' &&
        typeof x.reason === 'string' &&
        (x.expires === undefined || /^\d{4}-\d{2}-\d{2}$/.test(x.expires)),
    );
  if (!ok)
    throw new UsageError(
      `${path}: expected {"expectations": [{"rule": "...", "reason": "...", "expires"?: "YYYY-MM-DD"}]}`,
    );
  return file as ExpectationsFile;
}

export function applyExpectations(results: readonly RuleResult[], file: ExpectationsFile, today: string): GateOutcome {
  const byRule = new Map(file.expectations.map((e) => [e.rule, e]));
  const expired = file.expectations.filter((e) => e.expires !== undefined && e.expires < today);
  const live = (e: Expectation | undefined): e is Expectation =>
    e !== undefined && !(e.expires !== undefined && e.expires < today);
  const failing = results.filter((r) => r.level === 'MUST' && (r.verdict === 'FAIL' || r.verdict === 'ERROR'));
  const knownFailures = failing.flatMap((r) =>
    live(byRule.get(r.ruleId)) ? [{ result: r, expectation: byRule.get(r.ruleId)! }] : [],
  );
  const unexpectedFailures = failing.filter((r) => !live(byRule.get(r.ruleId)));
  const verdicts = new Map(results.map((r) => [r.ruleId, r.verdict]));
  const unexpectedPasses = file.expectations.filter((e) => verdicts.get(e.rule) === 'PASS');
  return { unexpectedFailures, knownFailures, unexpectedPasses, expired, passed: unexpectedFailures.length === 0 };
}

export function renderGate(g: GateOutcome): string[] {
  const lines = [
    `gate: ${g.passed ? 'PASSED' : 'FAILED'} — ${g.unexpectedFailures.length} new failure(s), ${g.knownFailures.length} known`,
  ];
  for (const r of g.unexpectedFailures) lines.push(`  new failure: ${r.ruleId} (${r.clause})`);
  for (const k of g.knownFailures) lines.push(`  known failure: ${k.result.ruleId} — ${k.expectation.reason}`);
  for (const e of g.unexpectedPasses) lines.push(`  unexpected pass: ${e.rule} — remove it from the expectations file`);
  for (const e of g.expired)
    lines.push(`  expired expectation: ${e.rule} (expired ${e.expires}) — fix the server or renew it`);
  return lines;
}

/** The expectations file a run would need: its MUST failures, keeping reasons and expiries already written. */
export async function updateExpectations(
  path: string,
  results: readonly RuleResult[],
  previous?: ExpectationsFile,
): Promise<ExpectationsFile> {
  const old = new Map((previous?.expectations ?? []).map((e) => [e.rule, e]));
  const expectations = results
    .filter((r) => r.level === 'MUST' && (r.verdict === 'FAIL' || r.verdict === 'ERROR'))
    .map(
      (r) =>
        old.get(r.ruleId) ?? {
          rule: r.ruleId,
          reason: `recorded from a run: ${r.violations[0]?.message ?? r.reason ?? r.verdict}`,
        },
    )
    .sort((a, b) => a.rule.localeCompare(b.rule));
  const file: ExpectationsFile = { ...(previous?.target ? { target: previous.target } : {}), expectations };
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}
