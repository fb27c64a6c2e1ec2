/**
 * `runConformance` is `directory-conformance run` in-process: the same
 * selection record, gate and outcome, every report, and against an external
 * target that may be changed, the same safety measures (lock, undo journal,
 * preflight).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type RunResult } from '../../src/api/index.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { lockTarget } from '../../src/session/target-lock.ts';

let dir: string;
let server: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-api-'));
  server = await startReferenceServer({});
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** results.json less what only the file has (its schema version, requests per rule), results in run order. */
async function resultsFile(reports: string, order: RunResult): Promise<unknown> {
  const {
    schemaVersion: _v,
    requestsPerRule: _r,
    ...file
  } = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8')) as RunResult & {
    schemaVersion: number;
    requestsPerRule: unknown;
  };
  const at = new Map(order.results.map((r, i) => [r.ruleId, i]));
  return { ...file, results: [...file.results].sort((a, b) => at.get(a.ruleId)! - at.get(b.ruleId)!) };
}

describe('runConformance', () => {
  test('returns what results.json holds, selection included, and writes every report the CLI writes', async () => {
    const reports = join(dir, 'reports');
    const run = await runConformance({ sections: ['4.9'], shard: { index: 1, count: 2 }, seed: 7, reports });
    expect(run.selection).toEqual({
      sections: ['4.9'],
      shard: { index: 1, count: 2 },
      catalogueSize: expect.any(Number) as number,
    });
    expect(run.selection!.catalogueSize).toBeGreaterThan(run.results.length);
    expect((await readdir(reports)).sort()).toEqual([
      'exchanges.har',
      'index.html',
      'junit.xml',
      'results.json',
      'summary.md',
    ]);
    expect(await resultsFile(reports, run)).toEqual(JSON.parse(JSON.stringify(run)));
    expect(await readFile(join(reports, 'summary.md'), 'utf8')).toContain('conformant');
  });

  test('expectations (a parsed object) excuse a known failure: the gate is recorded and the outcome follows it', async () => {
    const asked = {
      faults: ['pagination-no-trailing-empty-page' as const],
      rules: ['pagination.exact-multiple-empty-page'],
    };
    const plain = await runConformance(asked);
    expect(plain.summary.outcome).toBe('not-conformant');
    expect(plain.gate).toBeUndefined();

    const reports = join(dir, 'gate');
    const expectations = {
      expectations: [{ rule: 'pagination.exact-multiple-empty-page', reason: 'vendor ticket 123' }],
    };
    const gated = await runConformance({ ...asked, expectations, reports });
    expect(gated.results[0]!.verdict).toBe('FAIL');
    expect(gated.gate).toMatchObject({
      passed: true,
      knownFailures: [{ rule: 'pagination.exact-multiple-empty-page', reason: 'vendor ticket 123' }],
      unexpectedFailures: [],
    });
    expect(gated.summary.outcome).toBe('conformant');
    expect(await resultsFile(reports, gated)).toEqual(JSON.parse(JSON.stringify(gated)));

    // A path works too, and a wrong entry is an error naming it, never silently ignored.
    const file = join(dir, 'expectations.json');
    await writeFile(file, JSON.stringify(expectations));
    expect((await runConformance({ ...asked, expectations: file })).gate?.file).toBe(file);
    await expect(
      runConformance({ ...asked, expectations: { expectations: [{ rule: 'no.such-rule', reason: 'x' }] } }),
    ).rejects.toThrow('no.such-rule');
  });

  test('minCoverage holds the outcome to the coverage asked; failOnSkip makes any SKIP inconclusive', async () => {
    // One request for five rules, one at a time: the rest are NOT-TESTED, coverage far below 100%.
    const starved = { rules: ['pagination.*'], maxRequests: 1, concurrency: 1, numRuns: 2 };
    const strict = await runConformance(starved);
    expect(strict.summary.outcome).toBe('inconclusive');
    expect(strict.summary.inconclusive.join(' ')).toContain('below the required 100.0%');
    const lenient = await runConformance({ ...starved, minCoverage: 0 });
    expect(lenient.summary.requiredCoverage).toBe(0);
    expect(lenient.options.minCoverage).toBe(0);
    expect(lenient.summary.outcome).toBe('conformant');

    // Read-only: the mutating rule is SKIPped, which only failOnSkip holds against the run.
    const readOnly = { rules: ['activity-rates.assign-no-content', 'pagination.envelope'], readOnly: true };
    const skipping = await runConformance(readOnly);
    expect(skipping.results.map((r) => r.verdict).sort()).toEqual(['PASS', 'SKIP']);
    expect(skipping.summary.outcome).toBe('conformant');
    const skipped = await runConformance({ ...readOnly, failOnSkip: true });
    expect(skipped.options.failOnSkip).toBe(true);
    expect(skipped.summary.inconclusive.join(' ')).toContain('--fail-on-skip');
    expect(skipped.summary.outcome).toBe('inconclusive');
  });

  describe('against an external target with allowMutations', () => {
    const external = () => ({
      baseUrl: server.url,
      apiKey: server.apiKey,
      profile: server.profile,
      allowMutations: true,
      rate: 0 as const,
      rules: ['activity-rates.assign-no-content'],
    });

    test('changes are journaled before they are made and marked restored', async () => {
      const reports = join(dir, 'journaled');
      const run = await runConformance({ ...external(), reports });
      expect(run.results[0]!.verdict).toBe('PASS');
      const journal = (await readFile(join(reports, 'journal.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event: string });
      expect(journal[0]!.event).toBe('run');
      expect(journal.map((l) => l.event)).toEqual(expect.arrayContaining(['changing', 'restored']));
      expect(await readFile(join(reports, 'journal.jsonl'), 'utf8')).not.toContain(server.apiKey);
    });

    test('a run is refused while another holds the target lock', async () => {
      const lock = await lockTarget(
        server.url,
        server.profile.mutableResources.map((r) => r.id),
        { wait: false },
      );
      try {
        await expect(runConformance({ ...external(), reports: join(dir, 'locked') })).rejects.toThrow(
          `process ${process.pid}`,
        );
      } finally {
        await lock.release();
      }
    });

    test('a journal with changes not put back stops the run', async () => {
      const reports = join(dir, 'pending');
      const first = await runConformance({ ...external(), reports });
      expect(first.results[0]!.verdict).toBe('PASS');
      const path = join(reports, 'journal.jsonl');
      const lines = (await readFile(path, 'utf8')).trim().split('\n');
      // As if the run had been killed between a change and its restoration.
      await writeFile(path, `${lines.filter((l) => !l.includes('"restored"')).join('\n')}\n`);
      await expect(runConformance({ ...external(), reports })).rejects.toThrow('directory-conformance restore');
    });

    test('preflight: a mutable resource the target lacks is an error before any rule runs', async () => {
      const kindId = server.profile.mutableResources[0]!.kindId;
      const profile = {
        ...server.profile,
        mutableResources: [...server.profile.mutableResources, { id: '1999999999999999999', kindId }],
      };
      const reports = join(dir, 'preflight');
      await expect(runConformance({ ...external(), profile, reports })).rejects.toThrow(
        /cannot run: .*1999999999999999999/,
      );
      expect(await readdir(reports)).toEqual([]);
    });
  });
});
