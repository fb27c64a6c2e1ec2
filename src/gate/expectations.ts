/**
 * Per-target expectations: a committed list of known failures with a reason
 * and an optional expiry date. In gate mode a known failure does not fail the
 * build, a new one does, and an unexpected pass or an expired expectation is
 * reported so the file gets tightened.
 */
import { writeFile } from 'node:fs/promises';
import type { GateRecord, RuleResult } from '../core/types.ts';
import { UsageError } from '../core/errors.ts';
import { fileProblems, matchesFileSchema, oneLine } from '../schemas/files.ts';
import { valueAt } from '../schemas/index.ts';
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

/**
 * Reads and checks an expectations file: its shape (src/schemas/files.ts:
 * real dates, a reason that says why, no unknown field) and, with the
 * catalogue's rule ids, that each rule exists and is listed once (a typo
 * would otherwise excuse nothing, silently). A bad file is one line naming
 * it and the JSON path of its first problem; never a half-read file.
 */
export async function loadExpectations(path: string, knownRules?: ReadonlySet<string>): Promise<ExpectationsFile> {
  return checkedExpectations(await readJsonFile(path, 'expectations file'), path, knownRules);
}

/** `data` as an expectations file, or a usage error in one line naming `file` and the first problem. */
export function checkedExpectations(data: unknown, file: string, knownRules?: ReadonlySet<string>): ExpectationsFile {
  const problems = expectationProblems(data, knownRules);
  if (problems.length === 0 && matchesFileSchema('ExpectationsFile', data)) return data;
  throw new UsageError(oneLine(file, problems), { seeHelp: false });
}

/** What is wrong with a would-be expectations file, one "/path must …" per problem; none for a good one. */
export function expectationProblems(data: unknown, knownRules?: ReadonlySet<string>): string[] {
  const problems = fileProblems('ExpectationsFile', data);
  const entries = valueAt(data, '/expectations');
  if (!Array.isArray(entries)) return problems;
  const seen = new Set<string>();
  entries.forEach((entry: unknown, i) => {
    const rule = valueAt(entry, '/rule');
    if (typeof rule !== 'string' || rule === '') return;
    if (knownRules && !knownRules.has(rule))
      problems.push(
        `/expectations/${i}/rule is not a rule id of the catalogue (see \`directory-conformance rules\`): ${rule}`,
      );
    else if (seen.has(rule)) problems.push(`/expectations/${i}/rule is listed twice: ${rule}`);
    seen.add(rule);
  });
  // In the file's order: each entry's problems together, the first entry's first.
  const pathOf = (problem: string) => problem.split(' ', 1)[0] ?? '';
  return problems.sort((a, b) => pathOf(a).localeCompare(pathOf(b), 'en', { numeric: true }));
}

export function applyExpectations(results: readonly RuleResult[], file: ExpectationsFile, today: string): GateOutcome {
  const byRule = new Map(file.expectations.map((e) => [e.rule, e]));
  const expired = file.expectations.filter((e) => e.expires !== undefined && e.expires < today);
  const live = (e: Expectation | undefined): e is Expectation =>
    e !== undefined && !(e.expires !== undefined && e.expires < today);
  const failing = results.filter((r) => r.level === 'MUST' && (r.verdict === 'FAIL' || r.verdict === 'ERROR'));
  const knownFailures = failing.flatMap((r) => {
    const expectation = byRule.get(r.ruleId);
    return live(expectation) ? [{ result: r, expectation }] : [];
  });
  const unexpectedFailures = failing.filter((r) => !live(byRule.get(r.ruleId)));
  const verdicts = new Map(results.map((r) => [r.ruleId, r.verdict]));
  const unexpectedPasses = file.expectations.filter((e) => verdicts.get(e.rule) === 'PASS');
  return { unexpectedFailures, knownFailures, unexpectedPasses, expired, passed: unexpectedFailures.length === 0 };
}

/** The gate's outcome as plain data for results.json and the reports. */
export function gateRecord(file: string, g: GateOutcome): GateRecord {
  const plain = (e: Expectation) => ({ rule: e.rule, reason: e.reason, ...(e.expires ? { expires: e.expires } : {}) });
  return {
    file,
    passed: g.passed,
    knownFailures: g.knownFailures.map((k) => plain(k.expectation)),
    unexpectedFailures: g.unexpectedFailures.map((r) => r.ruleId),
    unexpectedPasses: g.unexpectedPasses.map((e) => e.rule),
    expired: g.expired.map(plain),
  };
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
