/**
 * The catalogue as vitest tests, one per rule, named by rule id.
 *
 * By default against the embedded reference server, the oracle: every MUST
 * rule must PASS, with no ERROR and no SKIP. Pointed at another server with
 * DIRECTORY_BASE_URL (and DIRECTORY_PROFILE, DIRECTORY_API_KEY, optionally
 * DIRECTORY_RESTRICTED_API_KEY and DIRECTORY_ALLOW_MUTATIONS=1), the same
 * tests run there, so vitest's own reporters can be used:
 *   DIRECTORY_BASE_URL=… npx vitest run test/conformance.test.ts --reporter=junit
 * (the CLI is the richer runner: verdicts, ERROR apart from FAIL, reports).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MUTATION_OPTIONS, runAgainstReference } from '../src/mutation/run-mutations.ts';
import { loadCatalogue } from '../src/runner/catalogue.ts';
import type { RuleResult, RunResult } from '../src/core/types.ts';
import { runRules } from '../src/runner/run-rules.ts';
import { loadProfile } from '../src/target/load-profile.ts';

const external = process.env.DIRECTORY_BASE_URL;
const CATALOGUE = await loadCatalogue();
let run: RunResult;
let byId: Map<string, RuleResult>;

async function runExternal(baseUrl: string): Promise<RunResult> {
  const profile = await loadProfile(process.env.DIRECTORY_PROFILE ?? 'profile.json');
  if (process.env.DIRECTORY_RESTRICTED_API_KEY) profile.restrictedApiKey = process.env.DIRECTORY_RESTRICTED_API_KEY;
  const apiKey = process.env.DIRECTORY_API_KEY;
  return runRules(
    [...CATALOGUE],
    {
      baseUrl,
      serviceVersion: process.env.DIRECTORY_SERVICE_VERSION ?? '26.06.25',
      profile,
      ...(apiKey ? { apiKey } : {}),
    },
    {
      ...MUTATION_OPTIONS,
      allowMutations: process.env.DIRECTORY_ALLOW_MUTATIONS === '1',
      rate: 25,
    },
  );
}

beforeAll(async () => {
  run = external ? await runExternal(external) : await runAgainstReference([]);
  byId = new Map(run.results.map((r) => [r.ruleId, r]));
}, 600_000);

afterAll(() => {
  byId.clear();
});

for (const group of CATALOGUE) {
  describe(`${group.section} ${group.title}`, () => {
    for (const rule of group.rules) {
      test(`${rule.id} (${rule.clause})`, (ctx) => {
        const result = byId.get(rule.id);
        expect(result, 'the rule ran').toBeDefined();
        if (external && (result!.verdict === 'SKIP' || result!.verdict === 'NOT-TESTED'))
          ctx.skip(result!.reason ?? result!.verdict);
        const detail = JSON.stringify(
          { verdict: result!.verdict, reason: result!.reason, violations: result!.violations },
          null,
          2,
        );
        expect(result!.verdict, detail).toBe(rule.level === 'OBSERVED' ? 'OBSERVED' : 'PASS');
      });
    }
  });
}

test.skipIf(external !== undefined)('the reference run is conformant with full coverage', () => {
  expect(run.summary.byVerdict.FAIL).toBe(0);
  expect(run.summary.byVerdict.ERROR).toBe(0);
  expect(run.summary.conformant).toBe(true);
  expect(run.summary.coverage).toBe(1);
});
