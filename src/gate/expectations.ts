/**
 * Per-target expectations: a committed list of known failures with a reason
 * and an optional expiry date. In gate mode a known failure does not fail the
 * build, a new one does, and an unexpected pass or an expired expectation is
 * reported so the file gets tightened.
 */
import { writeFile } from 'node:fs/promises';
import type { GateRecord, RuleResult } from '../core/types.ts';
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

/**
 * Reads and checks an expectations file. Every problem names the entry it is
 * in; a rule id the catalogue does not know is one (a typo would otherwise
 * excuse nothing, silently). Never returns a half-read file.
 */
export async function loadExpectations(path: string, knownRules?: ReadonlySet<string>): Promise<ExpectationsFile> {
  const data = await readJsonFile(path, 'expectations file');
  const problems = expectationProblems(data, knownRules);
  if (problems.length > 0) {
    throw new UsageError(`${path} is not a valid expectations file:\n  ${problems.join('\n  ')}`);
  }
  return data as ExpectationsFile;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(text: string): boolean {
  return DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

/** What is wrong with a would-be expectations file, one line per problem; none for a good one. */
export function expectationProblems(data: unknown, knownRules?: ReadonlySet<string>): string[] {
  const shape = 'expected {"expectations": [{"rule": "...", "reason": "...", "expires"?: "YYYY-MM-DD"}]}';
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [shape];
  const file = data as Record<string, unknown>;
  if (!Array.isArray(file.expectations)) return [`"expectations" must be an array; ${shape}`];
  if (file.target !== undefined && typeof file.target !== 'string') return ['"target" must be a string'];
  const problems: string[] = [];
  const seen = new Set<string>();
  file.expectations.forEach((entry: unknown, i) => {
    const record =
      typeof entry === 'object' && entry !== null && !Array.isArray(entry)
        ? (entry as Record<string, unknown>)
        : undefined;
    const rule = record?.rule;
    const name = `entry ${i + 1}${typeof rule === 'string' ? ` (${rule})` : ''}`;
    if (!record) return problems.push(`${name}: must be an object with "rule" and "reason"`);
    if (typeof rule !== 'string' || rule === '') problems.push(`${name}: "rule" must be a rule id`);
    else if (knownRules && !knownRules.has(rule))
      problems.push(`${name}: unknown rule id (see \`directory-conformance rules\`)`);
    else if (seen.has(rule)) problems.push(`${name}: the rule is listed twice`);
    if (typeof rule === 'string') seen.add(rule);
    if (typeof record.reason !== 'string' || record.reason.trim() === '')
      problems.push(`${name}: "reason" must say why`);
    if (record.expires !== undefined && (typeof record.expires !== 'string' || !isCalendarDate(record.expires))) {
      problems.push(`${name}: "expires" must be a date YYYY-MM-DD, got ${JSON.stringify(record.expires)}`);
    }
    const unknownKeys = Object.keys(record).filter((k) => !['rule', 'reason', 'expires'].includes(k));
    if (unknownKeys.length > 0) problems.push(`${name}: unknown field(s) ${unknownKeys.join(', ')}`);
    return undefined;
  });
  return problems;
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
