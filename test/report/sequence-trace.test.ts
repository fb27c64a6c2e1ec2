/**
 * A model-based FAIL carries the trace of its failing (shrunk) sequence: each
 * step's command with the ids it sent, its request and answers, the state the
 * model expected beside what the server showed, and their first difference by
 * JSON path: the judge's own replay told step by step (explainSequence,
 * explainRevocations). results.json keeps it, validated when read back; the HTML report
 * shows it. Tried on built-in faults the model-based properties catch.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RuleResult, RunResult } from '../../src/core/types.ts';
import { startReferenceServer, type FaultName, type ReferenceServer } from '../../src/reference-server/index.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { firstDifference } from '../../src/rules/judges/state-difference.ts';
import { runRulesOn } from '../helpers/rules-on.ts';
import { fileProblems, matchesFileSchema } from '../../src/schemas/files.ts';

describe('firstDifference', () => {
  test('walks the expected order and names the first differing place by JSON path', () => {
    expect(firstDifference({ a: 1, 'r-1': ['x', 'y'] }, { a: 1, 'r-1': ['x', 'z'] })).toEqual({
      path: '$["r-1"][1]',
      expected: 'y',
      shown: 'z',
    });
    expect(firstDifference({ rates: { '2026-01-02': 30 } }, { rates: {} })).toEqual({
      path: '$.rates["2026-01-02"]',
      expected: 30,
    });
    expect(firstDifference([1], [1, 2])).toEqual({ path: '$[1]', shown: 2 });
    expect(firstDifference({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBeUndefined();
  });
});

async function failingRun(fault: FaultName, rule: string): Promise<{ run: RunResult; result: RuleResult }> {
  const server: ReferenceServer = await startReferenceServer({ timing: embeddedTiming(), faults: [fault] });
  try {
    const run = await runRulesOn(server, [rule]);
    const result = run.results.find((r) => r.ruleId === rule);
    if (!result) throw new Error(`${rule} did not run`);
    return { run, result };
  } finally {
    await server.close();
  }
}

describe('the trace of a model-based FAIL', () => {
  let roles: { run: RunResult; result: RuleResult };
  let rates: { run: RunResult; result: RuleResult };
  beforeAll(async () => {
    roles = await failingRun('revoke-second-narrowing-restores', 'revoke-roles.prop.model-sequences');
    rates = await failingRun('rates-unassign-first-period-only', 'activity-rates.prop.model-sequences');
  }, 120_000);
  afterAll(() => undefined);

  test('revocations: every step of the shrunk sequence, with real ids, the failing one last', () => {
    const { result } = roles;
    expect(result.verdict).toBe('FAIL');
    const trace = result.trace ?? [];
    // The counterexample's steps that sent a revocation (a step whose teams resolve to none sends nothing).
    expect(trace.length).toBeGreaterThan(0);
    expect(trace.length).toBeLessThanOrEqual((result.replay?.counterexample?.match(/revoke\(/g) ?? []).length);
    for (const [i, step] of trace.entries()) {
      // Ids, not fast-check's indexes: the profile's role and team ids are long numbers.
      expect(step.command).toMatch(/^revoke-roles on resource \d{6,}: roles \[\d{6,}/);
      // The first step starts with the roles the sequence started from (what a reproducer reads first).
      expect(step.exchanges.map((e) => e.operation)).toEqual([
        ...(i === 0 ? ['resources.list-roles'] : []),
        'resources.revoke-roles',
        'resources.list-roles',
      ]);
      expect(step.expected).toBeDefined();
      expect(step.shown).toBeDefined();
    }
    const last = trace.at(-1);
    // The list narrowed a second time: the teams the first narrowing revoked came back.
    expect(last?.command).toContain('team_ids [');
    expect(last?.difference?.path).toMatch(/^\$\["\d+"\]/);
    expect(last?.check).toMatchObject({ kind: 'role-teams', exchange: trace.length === 1 ? 2 : 1 });
    // Only the failing step departs.
    expect(trace.slice(0, -1).filter((s) => s.difference)).toEqual([]);
  });

  test('rates: the first day that departs, as the judge saw it', () => {
    const { result } = rates;
    expect(result.verdict).toBe('FAIL');
    const last = result.trace?.at(-1);
    expect(last?.command).toMatch(
      /^unassign-activity-rate on resource \d+: date_range \d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}$/,
    );
    expect(last?.difference?.path).toMatch(/^\$\.rates\["\d{4}-\d{2}-\d{2}"\]$/);
    expect(last?.check).toMatchObject({ kind: 'rate-on-day', rate: null });
    // The violation names the same day.
    const day = last?.check?.kind === 'rate-on-day' ? last.check.day : 'none';
    expect(result.violations[0]?.where).toContain(`on ${day}`);
  });

  test('results.json keeps the trace, and a trace that does not match its schema is refused when read back', () => {
    const file: unknown = JSON.parse(renderJson(roles.run));
    expect(fileProblems('RunRecord', file)).toEqual([]);
    const read = matchesFileSchema('RunRecord', file) ? file : undefined;
    expect(read?.results[0]?.trace).toEqual(roles.result.trace);
    const broken = JSON.parse(renderJson(roles.run));
    broken.results[0].trace[0].check = { kind: 'role-teams', exchange: 1 };
    expect(fileProblems('RunRecord', broken).join('\n')).toMatch(/trace\/0\/check/);
  });

  test('the HTML report shows each step: command, exchanges, expected beside shown, first difference', () => {
    const html = renderHtml(roles.run);
    const trace = roles.result.trace ?? [];
    expect(html.match(/<li class="trace-step/g)?.length).toBe(trace.length);
    expect(html).toContain('class="model-expected"');
    expect(html).toContain('class="server-shown"');
    expect(html).toContain(
      `first difference at <code class="path">${trace.at(-1)?.difference?.path.replace(/"/g, '&quot;')}</code>`,
    );
  });
});
