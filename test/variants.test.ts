/**
 * Correct servers choose differently where the spec says "not shown". The
 * reference server can take those other choices (variants); against each of
 * them, and all of them at once, the suite must find nothing to fail.
 */
import { describe, expect, test } from 'vitest';
import { startReferenceServer, VARIANT_NAMES, type VariantName } from '../src/reference-server/index.ts';
import { loadCatalogue } from '../src/runner/catalogue.ts';
import { MUTATION_OPTIONS } from '../src/mutation/run-mutations.ts';
import { runRules } from '../src/runner/run-rules.ts';

async function runWith(variants: readonly VariantName[]) {
  const server = await startReferenceServer({ seed: 11, resources: 120, variants });
  try {
    return await runRules(
      await loadCatalogue(),
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
      MUTATION_OPTIONS,
    );
  } finally {
    await server.close();
  }
}

describe('a conformant server that chooses differently passes', () => {
  for (const variant of [...VARIANT_NAMES.map((v) => [v]), VARIANT_NAMES]) {
    test(variant.length > 1 ? 'all variants together' : variant[0]!, async () => {
      const run = await runWith(variant);
      const bad = run.results
        .filter((r) => r.verdict === 'FAIL' || r.verdict === 'ERROR')
        .map((r) => ({ rule: r.ruleId, verdict: r.verdict, why: r.violations[0] ?? r.reason }));
      expect(bad).toEqual([]);
      expect(run.summary.byVerdict.SKIP).toBe(0);
    });
  }
});
