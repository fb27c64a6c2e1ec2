import fc from 'fast-check';
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HarnessError } from '../../src/core/errors.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { checkProperty } from '../../src/rules/check-property.ts';
import type { PropertyReplay } from '../../src/core/types.ts';
import type { CheckContext } from '../../src/rules/types.ts';
import { fail } from '../../src/rules/assertions.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ timing: embeddedTiming(), faults: ['pagination-no-trailing-empty-page'] });
});
afterAll(() => server.close());

async function runProperty(seed: number, path?: string) {
  const groups = selectRules(await loadCatalogue(), { rules: ['pagination.prop.any-limit-once'] });
  const run = await runRules(
    groups,
    {
      baseUrl: server.url,
      serviceVersion: '26.06.25',
      apiKey: server.apiKey,
      profile: server.profile,
      timing: server.timing,
    },
    {
      ...DEFAULT_ENGINE_OPTIONS,
      numRuns: 30,
      seed,
      ...(path ? { path } : {}),
    },
  );
  return run.results[0]!;
}

describe('property failures replay', () => {
  test('a failing property reports seed, path and the shrunk counterexample, and replays from them', async () => {
    const first = await runProperty(1234);
    expect(first.verdict).toBe('FAIL');
    expect(first.replay).toMatchObject({ seed: 1234, numRuns: 30 });
    expect(first.replay!.path).toMatch(/^\d+(:\d+)*$/);
    expect(first.replay!.counterexample).toMatch(/"limit"/);
    const again = await runProperty(first.replay!.seed, first.replay!.path);
    expect(again.verdict).toBe('FAIL');
    expect(again.replay!.counterexample).toBe(first.replay!.counterexample);
    expect(again.requestCount).toBeLessThan(first.requestCount);
  });
});

function fakeContext(): { ctx: CheckContext; replays: PropertyReplay[] } {
  const replays: PropertyReplay[] = [];
  const ctx = {
    ruleId: 'x.prop',
    options: { numRuns: 50, seed: 7, allowMutations: false },
    setReplay: (r: PropertyReplay) => replays.push(r),
  } as unknown as CheckContext;
  return { ctx, replays };
}

describe('checkProperty', () => {
  test('a harness fault stops the run and is rethrown as it is, without shrinking', async () => {
    const { ctx, replays } = fakeContext();
    let calls = 0;
    const error = await checkProperty(ctx, fc.integer(), async () => {
      calls += 1;
      throw new HarnessError('DC_ERR_NETWORK', 'reset');
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect(calls).toBe(1);
    expect(replays).toEqual([]);
  });

  test('distinct: a value drawn again after it passed is replaced by a new one, so every run sends a value', async () => {
    const { ctx } = fakeContext();
    const sent: number[] = [];
    // Half the draws are one of three values: many come again.
    const value = fc.oneof(fc.constantFrom(1, 2, 3), fc.integer({ min: 10, max: 100_000 }));
    await checkProperty(ctx, value, async (n) => void sent.push(n), { distinct: true });
    expect(sent).toHaveLength(50);
    expect(new Set(sent).size).toBe(50);
  });

  test('distinct: a domain with fewer values than runs passes once each value has passed', async () => {
    const { ctx } = fakeContext();
    const sent: number[] = [];
    await checkProperty(ctx, fc.constantFrom(1, 2, 3), async (n) => void sent.push(n), { distinct: true });
    expect(sent.sort()).toEqual([1, 2, 3]);
  });

  test('a departure is shrunk to the smallest counterexample', async () => {
    const { ctx, replays } = fakeContext();
    const error = await checkProperty(ctx, fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n >= 10) fail({ where: 'n', message: 'must be below 10', expected: '< 10', actual: n });
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ConformanceFailure');
    expect(replays[0]!.counterexample).toBe('10');
  });
});
