/**
 * `--depth`: each property's runs at the run's depth (half when quick, twice
 * when deep, derived from its own `runs`; the concurrent properties left out
 * when quick, four times theirs when deep), the strength of the covering
 * arrays (each class, every pair, every triple), and the options that carry
 * it (results.json, the replay command).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Depth } from '../../src/core/types.ts';
import { replayCommand } from '../../src/report/describe-result.ts';
import { defineRuleGroup, property } from '../../src/rules/define.ts';
import { leftOutAtDepth, runsAtDepth, strengthAtDepth } from '../../src/rules/depth.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { drawCoveringArray, pairCoverage, renderCoverage } from '../../src/rules/input-models/coverage.ts';
import { INPUT_MODELS } from '../../src/rules/input-models/index.ts';
import { listInputModel } from '../../src/rules/input-models/resources-list.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import type { TargetProfile } from '../../src/target/profile.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';
import { loadProfile } from '../../src/target/load-profile.ts';
import { packagePath } from '../../src/core/package-root.ts';
import { rulesCommand } from '../../src/cli/rules-command.ts';

const profile: TargetProfile = {
  kinds: [{ id: '1', name: 'employee', supportsRoles: true }],
  roles: [],
  teams: [],
  allowRoleRevocation: true,
  mutableResources: [],
};
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((_req, res) => json(res, 200, { data: [], next_token: null }));
});
afterAll(() => server.close());

test('a property makes half its runs when quick (at least one), its own by default, twice when deep', () => {
  expect([1, 4, 5, 8].map((r) => runsAtDepth(r, 'quick'))).toEqual([1, 2, 3, 4]);
  expect([1, 4, 5, 8].map((r) => runsAtDepth(r, 'default'))).toEqual([1, 4, 5, 8]);
  expect([1, 4, 5, 8].map((r) => runsAtDepth(r, 'deep'))).toEqual([2, 8, 10, 16]);
  expect((['quick', 'default', 'deep'] as const).map(strengthAtDepth)).toEqual([1, 2, 3]);
});

test('a concurrent property is left out when quick, makes its own few runs by default and four times as many when deep', () => {
  const concurrent = { concurrent: true } as const;
  expect((['quick', 'default', 'deep'] as const).map((d) => runsAtDepth(3, d, concurrent))).toEqual([0, 3, 12]);
  expect(leftOutAtDepth(concurrent, 'quick')).toContain('--depth quick');
  expect([leftOutAtDepth(concurrent, 'default'), leftOutAtDepth(concurrent, 'deep')]).toEqual([undefined, undefined]);
  expect(leftOutAtDepth({}, 'quick')).toBeUndefined();
});

test('the concurrent properties of the catalogue say so', async () => {
  const concurrent = (await loadCatalogue()).flatMap((g) => g.rules.filter((r) => r.concurrent).map((r) => r.id));
  expect(concurrent.sort()).toEqual([
    'activity-rates.prop.concurrent-other-days-kept',
    'activity-rates.prop.concurrent-sequences',
    'assign-team.prop.concurrent-other-teams-kept',
    'assign-team.prop.concurrent-sequences',
    'revoke-roles.prop.concurrent-sequences',
  ]);
});

test('the engine SKIPs a concurrent property when quick, naming the depth, and hands it its runs at the others', async () => {
  const seen: number[] = [];
  const fixture = property({
    id: 't.concurrent-depth',
    clause: '§4.2 Response',
    quote: 'a sentence long enough',
    level: 'OBSERVED',
    runs: 3,
    concurrent: true,
    judge: () => [],
    drive: (ctx) => {
      seen.push(ctx.options.numRuns);
      return Promise.resolve();
    },
  });
  const group = { file: 'test', ...defineRuleGroup({ section: '§0', title: 'depth test', rules: [fixture] }) };
  const target = { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: 'depth-test-key-123456', profile };
  const verdicts: string[] = [];
  for (const depth of ['quick', 'default', 'deep'] as const) {
    const run = await runRules([group], target, { ...DEFAULT_ENGINE_OPTIONS, depth });
    const result = run.results[0];
    verdicts.push(`${result?.verdict ?? 'none'}: ${result?.reason ?? ''}`);
    if (depth === 'quick') expect(result?.skipCause).toBe('options');
  }
  expect(verdicts).toEqual([
    `SKIP: ${leftOutAtDepth({ concurrent: true }, 'quick') ?? ''}`,
    'OBSERVED: ',
    'OBSERVED: ',
  ]);
  expect(seen).toEqual([3, 12]);
});

test("the engine hands each property its runs at the run's depth, and results.json and the replay say the depth", async () => {
  const seen: Array<{ numRuns: number; depth: Depth }> = [];
  const fixture = property({
    id: 't.depth',
    clause: '§4.9 rule 1',
    quote: 'a sentence long enough',
    level: 'OBSERVED',
    runs: 6,
    judge: () => [],
    drive: (ctx) => {
      seen.push({ numRuns: ctx.options.numRuns, depth: ctx.options.depth });
      return Promise.resolve();
    },
  });
  const group = { file: 'test', ...defineRuleGroup({ section: '§0', title: 'depth test', rules: [fixture] }) };
  const target = { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: 'depth-test-key-123456', profile };
  const options: Array<{ depth: Depth; recorded: Depth | undefined }> = [];
  for (const depth of ['quick', 'default', 'deep'] as const) {
    const run = await runRules([group], target, { ...DEFAULT_ENGINE_OPTIONS, depth });
    options.push({ depth, recorded: run.options.depth });
    const result = run.results[0];
    expect(result).toBeDefined();
    if (result) expect(replayCommand(result, run).includes('--depth'), depth).toBe(depth !== 'default');
  }
  expect(seen).toEqual([
    { numRuns: 3, depth: 'quick' },
    { numRuns: 6, depth: 'default' },
    { numRuns: 12, depth: 'deep' },
  ]);
  // The default is not written: results.json of a run before the option reads the same.
  expect(options.map((o) => o.recorded)).toEqual(['quick', undefined, 'deep']);
  // --num-runs still sets every property's runs, at any depth.
  seen.length = 0;
  await runRules([group], target, { ...DEFAULT_ENGINE_OPTIONS, depth: 'deep', numRuns: 2 });
  expect(seen).toEqual([{ numRuns: 2, depth: 'deep' }]);
});

test('the covering array of resources.list covers each class when quick, every pair by default, every triple when deep', async () => {
  const model = listInputModel(await loadProfile(packagePath('fixtures/example-profile.json')));
  const rows: number[] = [];
  for (const depth of ['quick', 'default', 'deep'] as const) {
    const array = drawCoveringArray(model, 1, depth);
    expect(array?.strength).toBe(strengthAtDepth(depth));
    if (!array) continue;
    rows.push(array.rows.length);
    const coverage = pairCoverage(
      model,
      array,
      array.rows.map(() => true),
    );
    expect(coverage.pairs.exercised).toBe(coverage.pairs.servable);
    // Every interaction names as many factors as the strength.
    expect(array.interactions.every((i) => i.length === array.strength)).toBe(true);
  }
  const [quick = 0, pairwise = 0, triples = 0] = rows;
  expect(quick).toBeLessThan(pairwise);
  expect(pairwise).toBeLessThan(triples);
});

test("every operation's input model draws its covering array at every depth, as strong as its factors allow", async () => {
  const example = await loadProfile(packagePath('fixtures/example-profile.json'));
  for (const modelOf of Object.values(INPUT_MODELS)) {
    const model = modelOf(example);
    for (const depth of ['quick', 'default', 'deep'] as const) {
      const array = drawCoveringArray(model, 1, depth);
      expect(array?.strength, `${model.operation} at ${depth}`).toBe(
        Math.min(strengthAtDepth(depth), model.factors.length),
      );
    }
  }
});

test('rules --coverage says the depth and what it covers (three-way drawn above: slow to draw twice)', async () => {
  const example = await loadProfile(packagePath('fixtures/example-profile.json'));
  expect(renderCoverage(example, 1)[0]).toMatch(/\(seed 1, pairwise\), pairs covered (\d+)\/\1 \(100%\)/);
  expect(renderCoverage(example, 1, 'quick')[0]).toMatch(
    /\(seed 1, each class once: --depth quick\), classes covered (\d+)\/\1/,
  );
  const lines: string[] = [];
  await expect(rulesCommand(['--coverage', '--depth', 'deeper'], (l) => lines.push(l))).rejects.toThrow(
    '--depth must be one of quick, default, deep, got deeper',
  );
});
