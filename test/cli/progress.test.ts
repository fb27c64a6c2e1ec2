import { describe, expect, test } from 'vitest';
import { Progress } from '../../src/cli/progress.ts';
import { defineRuleGroup, rule } from '../../src/rules/define.ts';
import type { RuleResult } from '../../src/core/types.ts';

const mk = (id: string) =>
  rule({
    id,
    clause: '§4.9 rule 1',
    quote: 'a sentence long enough',
    level: 'MUST',
    judge: () => [],
    drive: () => Promise.resolve(),
  });
const group = {
  file: 'x',
  ...defineRuleGroup({
    section: '§4.9',
    title: 'Pagination protocol',
    rules: [mk('a.one'), mk('a.two')],
  }),
};
const result = (ruleId: string, verdict: RuleResult['verdict']): RuleResult => ({
  ruleId,
  clause: '§4.9 rule 1',
  sentence: '',
  section: '§4.9',
  group: 'Pagination protocol',
  level: 'MUST',
  kind: 'example',
  mutates: 'none',
  verdict,
  violations: [],
  observations: [],
  exchanges: [],
  requestCount: 3,
  durationMs: 1,
});

describe('progress', () => {
  test('outside a terminal: one line per rule, in the order the rules started, whatever order they end in', () => {
    const lines: string[] = [];
    const p = new Progress(2, { line: (l) => lines.push(l) });
    p.ruleStarted(group.rules[0]!);
    p.ruleStarted(group.rules[1]!);
    p.ruleEnded({ ...result('a.two', 'FAIL'), violations: [{ where: 'response.status', message: 'must be 400' }] });
    // a.one, started first, has not ended: a.two waits for it.
    expect(lines).toEqual([]);
    p.ruleEnded(result('a.one', 'PASS'));
    p.stop();
    expect(lines).toEqual([
      '[1/2] PASS       a.one (§4.9 rule 1, 3 req, 1 ms)',
      '[2/2] FAIL       a.two (§4.9 rule 1, 3 req, 1 ms) — response.status: must be 400',
    ]);
  });

  test('in a terminal: a live line with done/total, current rule, rate and failures', () => {
    const live: string[] = [];
    const p = new Progress(2, { line: () => undefined, live: (t) => live.push(t) });
    p.ruleStarted(group.rules[1]!);
    p.ruleEnded(result('a.two', 'FAIL'));
    p.stop();
    expect(live.some((t) => /^\[1\/2\] a\.two\s+\d+ req\/s\s+1 failing$/.test(t))).toBe(true);
  });

  test('a heartbeat when nothing was printed for a while', async () => {
    const lines: string[] = [];
    const p = new Progress(2, { line: (l) => lines.push(l) }, 20);
    p.ruleStarted(group.rules[0]!);
    await new Promise((r) => setTimeout(r, 60));
    p.stop();
    expect(lines.some((l) => /running a\.one/.test(l))).toBe(true);
  });
});
