/**
 * Correct servers choose differently where the spec says "not shown". The
 * reference server can take those other choices (variants); against each of
 * them, and all of them at once, the suite must find nothing to fail; nor
 * against the reference server at any `--depth` (a deeper run draws other
 * combinations). The runs go side by side: each has its own server.
 */
import { embeddedTiming } from '../src/core/timing.ts';
import { describe, test } from 'vitest';
import type { Depth, RunResult } from '../src/core/types.ts';
import { startReferenceServer, VARIANT_NAMES, type VariantName } from '../src/reference-server/index.ts';
import { loadCatalogue } from '../src/runner/catalogue.ts';
import { MUTATION_OPTIONS } from '../src/mutation/run-mutations.ts';
import { runRules } from '../src/runner/run-rules.ts';

async function runWith(variants: readonly VariantName[], depth: Depth = 'default'): Promise<RunResult> {
  const server = await startReferenceServer({ timing: embeddedTiming(), seed: 11, resources: 120, variants });
  try {
    return await runRules(
      await loadCatalogue(),
      {
        baseUrl: server.url,
        serviceVersion: '26.06.25',
        apiKey: server.apiKey,
        profile: server.profile,
        timing: server.timing,
      },
      { ...MUTATION_OPTIONS, depth },
    );
  } finally {
    await server.close();
  }
}

/** What a conformant server must not get: a FAIL, an ERROR, a FLAKY, or a SKIP but for what its depth leaves out. */
function departures(run: RunResult, depth: Depth = 'default') {
  const leftOut = (reason: string | undefined): boolean => reason?.includes(`left out at --depth ${depth}`) === true;
  return run.results
    .filter((r) => r.verdict !== 'PASS' && r.verdict !== 'OBSERVED' && !(r.verdict === 'SKIP' && leftOut(r.reason)))
    .map((r) => ({ rule: r.ruleId, verdict: r.verdict, why: r.violations[0] ?? r.reason }));
}

describe.concurrent('a conformant server that chooses differently passes', () => {
  for (const variant of [...VARIANT_NAMES.map((v) => [v]), VARIANT_NAMES]) {
    test(variant.length > 1 ? 'all variants together' : variant[0]!, async ({ expect }) => {
      expect(departures(await runWith(variant))).toEqual([]);
    });
  }
});

describe.concurrent('the reference server passes at every depth', () => {
  for (const depth of ['quick', 'deep'] as const) {
    test(depth, async ({ expect }) => {
      const run = await runWith([], depth);
      expect(departures(run, depth)).toEqual([]);
      expect(run.summary.outcome).toBe('conformant');
    });
  }
});
