/**
 * Real servers' wire habits never flip a verdict: the conformant reference
 * server behind a proxy that compresses its answers (gzip, br, deflate), one
 * that cuts every 7th answer to a read short, and one that answers one read
 * in 40 with a 500 gets the verdicts it gets directly. A read broken for good
 * (a gzip bomb, or a body cut short each time it is sent) says nothing of the
 * server's conformance: its rule ends in ERROR, never FAIL, and the run is
 * inconclusive (exit 3), not "not conformant".
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { RunResult } from '../../src/core/types.ts';
import { exitCodeOf } from '../../src/cli/exit-codes.ts';
import { HABITS, STUBBORN_FAULTS, startHabitProxy } from '../../src/hostile-server/habit-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

let server: ReferenceServer;
let direct: RunResult;

async function runAgainst(baseUrl: string, rules?: string[]): Promise<RunResult> {
  const catalogue = await loadCatalogue();
  return runRules(
    rules ? selectRules(catalogue, { rules }) : catalogue,
    { baseUrl, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile, timing: server.timing },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 5, seed: 11, requestTimeoutMs: 10_000 },
  );
}

const verdicts = (run: RunResult): Record<string, string> =>
  Object.fromEntries(run.results.map((r) => [r.ruleId, r.verdict]));

beforeAll(async () => {
  server = await startReferenceServer({ timing: embeddedTiming() });
  direct = await runAgainst(server.url);
}, 60_000);
afterAll(() => server.close());

describe('the verdicts of the direct run, behind a proxy with one habit', () => {
  test('the direct run is conformant (so equal verdicts mean no false FAIL or ERROR)', () => {
    expect(direct.summary.byVerdict.FAIL).toBe(0);
    expect(direct.summary.byVerdict.ERROR).toBe(0);
  });

  // Every habit in the full proof (`npm run proof` runs this file too); `npm test` tries one compression of the three.
  for (const habit of HABITS.filter((h) => inject('proof') === true || (h !== 'br' && h !== 'deflate'))) {
    test(
      habit,
      async () => {
        const proxy = await startHabitProxy({ habit, upstream: server.url });
        try {
          const run = await runAgainst(proxy.url);
          // The habit was met: the comparison is not vacuous.
          expect(proxy.changed).toBeGreaterThan(habit === 'server-error' || habit === 'cut-bodies' ? 2 : 50);
          const expected = verdicts(direct);
          const flipped = run.results
            .filter((r) => expected[r.ruleId] !== r.verdict)
            .map((r) => ({ rule: r.ruleId, verdict: r.verdict, why: r.reason ?? r.violations[0]?.message }));
          expect(flipped).toEqual([]);
        } finally {
          await proxy.close();
        }
      },
      60_000,
    );
  }
});

describe('one read broken for good: its rule ends in ERROR, the run inconclusive', () => {
  const WHY = { 'gzip-bomb': 'DC_ERR_BODY_TOO_LARGE', 'endless-cut': 'DC_ERR_BODY_CUT' } as const;
  for (const fault of STUBBORN_FAULTS) {
    test(
      fault,
      async () => {
        // The third read the rules send is the one: it is broken each time it is sent (retries included).
        const proxy = await startHabitProxy({ habit: fault, upstream: server.url, every: 3 });
        try {
          const run = await runAgainst(proxy.url, ['list-roles']);
          expect(proxy.changed).toBeGreaterThan(0);
          // A body cut short is sent again by the retry policy: the cut came back each time.
          if (fault === 'endless-cut') expect(proxy.changed).toBeGreaterThan(1);
          const failed = run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.ruleId);
          expect(failed).toEqual([]);
          const errors = run.results.filter((r) => r.verdict === 'ERROR');
          expect(errors.length).toBeGreaterThan(0);
          // Each ERROR is the broken read's, named by what broke it.
          expect(errors.map((r) => ({ rule: r.ruleId, code: r.errorCode }))).toEqual(
            errors.map((r) => ({ rule: r.ruleId, code: WHY[fault] })),
          );
          expect(run.summary.outcome).toBe('inconclusive');
          expect(exitCodeOf(run.summary)).toBe(3);
        } finally {
          await proxy.close();
        }
      },
      60_000,
    );
  }
});
