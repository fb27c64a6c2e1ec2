/**
 * The exit code is what a CI gate trusts: 0 conformant with the coverage
 * required, 1 a broken rule, 2 usage / configuration / unreachable, 3
 * inconclusive. Each case here was once answered wrongly.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';
import { readResults } from '../../src/gate/results-file.ts';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (err += `${l}\n`) });
  return { code, out, err };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-exit-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Results {
  selection?: { sections?: string[]; catalogueSize: number };
  summary: { outcome: string; coverage: number; total: number; byVerdict: Record<string, number> };
}

async function results(reports: string): Promise<Results> {
  return JSON.parse(await readFile(join(reports, 'results.json'), 'utf8')) as Results;
}

describe('exit codes of run', () => {
  test('a request budget that leaves rules NOT-TESTED is inconclusive (3), never CONFORMANT', async () => {
    const reports = join(dir, 'budget');
    const r = await cli(['run', '--max-requests', '100', '--quiet', '--seed', '1', '--reports', reports]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^INCONCLUSIVE: /m);
    expect(r.out).not.toMatch(/^CONFORMANT/m);
    expect(r.out).toMatch(/inconclusive: coverage .* below the required 100\.0% \(\d+ NOT-TESTED/);
    const run = await results(reports);
    expect(run.summary.outcome).toBe('inconclusive');
    expect(run.summary.byVerdict['NOT-TESTED']).toBeGreaterThan(0);
  });

  test('a time budget spent before the rules end leaves the rest NOT-TESTED naming it: inconclusive (3)', async () => {
    const reports = join(dir, 'time');
    // A millisecond is spent before the first rule sends: every rule is NOT-TESTED, whatever the machine's speed.
    const r = await cli(['run', '--max-time', '1ms', '--quiet', '--seed', '1', '--reports', reports]);
    expect(r.code).toBe(3);
    const run = await readResults(join(reports, 'results.json'));
    expect(run.results.filter((x) => x.verdict === 'NOT-TESTED').length).toBeGreaterThan(0);
    expect(run.results.find((x) => x.verdict === 'NOT-TESTED')?.reason).toContain('time budget of 1ms (--max-time)');
  });

  test('a time budget that is no duration is a usage error (2)', async () => {
    const r = await cli(['run', '--max-time', '15', '--quiet', '--reports', join(dir, 'bad-time')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('a duration: a whole number and a unit, such as 90s, 15m or 1h');
  });

  test('--min-coverage lowers the threshold; a threshold the run meets exits 0', async () => {
    const r = await cli([
      ...['run', '--max-requests', '100', '--concurrency', '1', '--quiet', '--seed', '1'],
      ...['--min-coverage', '1', '--reports', join(dir, 'low')],
    ]);
    expect(r.out).toMatch(/required 1\.0%/);
    expect(r.code).toBe(0);
  });

  test('a selection is named in every summary, and coverage is over it, not the catalogue', async () => {
    const reports = join(dir, 'section');
    const r = await cli(['run', '--section', '4.9', '--quiet', '--seed', '1', '--reports', reports]);
    expect(r.code).toBe(0);
    const run = await results(reports);
    expect(run.selection).toMatchObject({ sections: ['4.9'] });
    expect(run.summary.total).toBeLessThan(run.selection!.catalogueSize);
    expect(r.out).toContain(
      `selection: ${run.summary.total} of the ${run.selection!.catalogueSize} rules of the catalogue (--section 4.9)`,
    );
    expect(r.out).toMatch(/coverage 100\.0% of the selection/);
    expect(r.out).not.toMatch(/of the catalogue;/);
  });

  test('a run that skipped more than a quarter of its rules says so in its first line, and counts MUST rules only', async () => {
    // Read-only: every rule that changes state is SKIPped (the user's choice), well over a quarter of the catalogue.
    const r = await cli(['run', '--read-only', '--quiet', '--seed', '1', '--reports', join(dir, 'read-only')]);
    const run = await results(join(dir, 'read-only'));
    const skipped = run.summary.byVerdict.SKIP ?? 0;
    expect(skipped * 4).toBeGreaterThan(run.summary.total);
    // The summary's first line is the outcome's.
    const lines = r.out.split('\n');
    const at = lines.findIndex((l) => /^(CONFORMANT|NOT CONFORMANT|INCONCLUSIVE)\b/.test(l));
    const [first, second] = [lines[at], lines[at + 1]];
    expect(first).toContain(`(${skipped} of ${run.summary.total} rules skipped: the outcome covers only the rest)`);
    expect(second).toMatch(
      new RegExp(`^\\d+ of \\d+ MUST rules passed, ${skipped} of ${run.summary.total} rules skipped;`),
    );
  });

  test('--fail-on-skip makes a run with a SKIP inconclusive', async () => {
    // Read-only: the rules of §4.3 that change state are SKIPped, which by default is the user's choice.
    const readOnly = await cli([
      'run',
      '--read-only',
      '--section',
      '4.9',
      '--section',
      '4.3',
      '--quiet',
      '--reports',
      join(dir, 's2'),
    ]);
    const skipped = (await results(join(dir, 's2'))).summary.byVerdict.SKIP;
    expect(skipped).toBeGreaterThan(0);
    expect(readOnly.code).toBe(0);
    const strict = await cli([
      ...['run', '--read-only', '--section', '4.9', '--section', '4.3', '--quiet', '--fail-on-skip'],
      ...['--reports', join(dir, 's3')],
    ]);
    expect(strict.code).toBe(3);
    expect(strict.out).toMatch(new RegExp(`inconclusive: ${skipped} rule\\(s\\) SKIPped and --fail-on-skip is set`));
  });

  test('a run where nothing could run is inconclusive, not conformant', async () => {
    const r = await cli(['run', '--read-only', '--section', '4.1', '--quiet', '--reports', join(dir, 'none')]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/no selected rule could run/);
  });

  test('usage mistakes in the new flags exit 2', async () => {
    expect((await cli(['run', '--min-coverage', '120'])).code).toBe(2);
    expect((await cli(['run', '--min-coverage', 'most'])).code).toBe(2);
  });

  test('--help documents every exit code', async () => {
    for (const args of [['--help'], ['run', '--help']]) {
      const r = await cli(args);
      for (const code of ['0', '1', '2', '3']) expect(r.out).toMatch(new RegExp(`(^|\\s|;)${code} `, 'm'));
      expect(r.out).toMatch(/inconclusive/);
    }
  });
});

describe('an unusable target', () => {
  let upstream: ReferenceServer;
  let proxy: ForwardingProxy;
  let answered = 0;

  beforeAll(async () => {
    upstream = await startReferenceServer({ resources: 60 });
    // The target falls over after a few answers: every later request gets 503 (with Retry-After: 0, so retries are quick).
    proxy = await startForwardingProxy(upstream.url, (_path, _body, res) => {
      answered += 1;
      if (answered <= 3) return false;
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end('{"message":"down"}');
      return true;
    });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('ends with exit 3 and says so, not NOT CONFORMANT', async () => {
    const profile = join(dir, 'profile.json');
    const { restrictedApiKey: _, ...withoutKey } = upstream.profile;
    await writeFile(profile, JSON.stringify(withoutKey));
    const r = await cli([
      ...['run', '--base-url', proxy.url, '--profile', profile, '--api-key', upstream.apiKey, '--rate', '0'],
      ...['--section', '4.9', '--quiet', '--reports', join(dir, 'unusable')],
    ]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^INCONCLUSIVE: /m);
    expect(r.out).toMatch(/the target is unusable: \d+ of the \d+ rules tried ended in a harness ERROR/);
    expect(r.out).not.toMatch(/NOT CONFORMANT/);
  });
});
