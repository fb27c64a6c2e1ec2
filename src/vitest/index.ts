/**
 * The catalogue inside a user's own vitest file: one test per rule, named by
 * rule id, against their base URL and profile. The run happens once, before
 * the tests; each test reports its rule's verdict: PASS passes, FAIL and
 * ERROR fail with the violation, SKIP and NOT-TESTED are vitest skips with
 * the reason (also a `skip-reason` annotation, so vitest's JUnit reporter,
 * which drops skip notes, writes it as a <property>), OBSERVED passes (the
 * spec leaves it open).
 *
 * Options not given are read from the environment variables `run` reads
 * (DIRECTORY_BASE_URL, DIRECTORY_PROFILE, DIRECTORY_API_KEY,
 * DIRECTORY_RESTRICTED_API_KEY, …); the options given win.
 *
 *   import { conformanceSuite } from 'directory-conformance/vitest';
 *   await conformanceSuite({ baseUrl: process.env.DIRECTORY_BASE_URL, profile: 'profile.json',
 *     apiKey: process.env.DIRECTORY_API_KEY, restrictedApiKey: process.env.DIRECTORY_RESTRICTED_API_KEY });
 */
import { beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { resolveConformanceOptions, type ConformanceOptions, type RuleResult, type RunResult } from '../api/index.ts';
import { runConfigured } from '../api/run-configured.ts';
import { loadCatalogue, selectRules } from '../runner/catalogue.ts';

/** `runConformance`'s options (a bad one throws here, before any test is made), and how long the run may take. */
export async function conformanceSuite(options: ConformanceOptions & { timeoutMs?: number } = {}): Promise<void> {
  const { timeoutMs, ...runOptions } = options;
  const { interrupt, ...given } = runOptions;
  const config = await resolveConformanceOptions(given, process.env);
  const groups = selectRules(await loadCatalogue(), config);
  let run: RunResult | undefined;
  const byId = new Map<string, RuleResult>();
  beforeAll(async () => {
    run = await runConfigured(config, interrupt);
    for (const r of run.results) byId.set(r.ruleId, r);
  }, timeoutMs ?? 600_000);
  for (const group of groups) {
    describe(`${group.section} ${group.title}`, () => {
      for (const rule of group.rules) {
        test(rule.id, async (ctx) => {
          const result = byId.get(rule.id);
          if (result === undefined) return expect.fail(`${rule.id} did not run`);
          if (result.verdict === 'SKIP' || result.verdict === 'NOT-TESTED') {
            const reason = `${result.verdict}: ${result.reason ?? 'no reason given'}`;
            // vitest's JUnit reporter drops the note of ctx.skip; an annotation becomes a <property> there.
            await annotate(ctx, reason);
            ctx.skip(reason);
          }
          if (result.verdict === 'FAIL' || result.verdict === 'ERROR') {
            const v = result.violations[0];
            const why = v ? `${v.where}: ${v.message}` : (result.reason ?? '');
            expect.fail(`${result.verdict} ${rule.id} (${rule.clause}): ${why}`);
          }
        });
      }
    });
  }
}

/** Records why a rule was not checked where every reporter keeps it; a test already ended cannot take one. */
async function annotate(ctx: TestContext, reason: string): Promise<void> {
  try {
    await ctx.annotate(reason, 'skip-reason');
  } catch {
    // The skip itself still carries the reason.
  }
}
