/**
 * A reports folder belongs to one run: two shards started together with the
 * default `--reports` (two processes, one working folder) never wipe each
 * other's reports or write one journal together. One is refused in one line
 * naming the folder and `--reports`, before it wipes or writes anything, and
 * without telling the user to `restore` the live run's journal; the other
 * runs, its reports and journal whole, and nothing is left changed.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRateLimitedProxy, type RateLimitedProxy } from '../../src/hostile-server/rate-limited-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { pendingChanges, readJournal } from '../../src/runner/undo-journal.ts';
import { lockReportsDir } from '../../src/session/reports-lock.ts';
import { stateOfTarget } from '../helpers/target-state.ts';

let server: ReferenceServer;
let proxy: RateLimitedProxy;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({});
  proxy = await startRateLimitedProxy({
    upstream: server.url,
    latencyMs: 10,
    bucketSize: 1_000_000,
    refillPerSecond: 1_000_000,
    maxInFlight: 1_000,
  });
  dir = await mkdtemp(join(tmpdir(), 'dc-shared-reports-'));
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  await writeFile(join(dir, 'profile.json'), JSON.stringify(profile));
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The built CLI in a child process whose working folder is `dir`: its default reports folder is dir/reports. */
function shard(index: number): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [
      resolve('bin/directory-conformance.mjs'),
      'run',
      '--base-url',
      proxy.url,
      '--profile',
      'profile.json',
      '--allow-mutations',
      '--rate',
      '0',
      '--shard',
      `${index}/2`,
      '--section',
      '4.2',
    ],
    { cwd: dir, env: { ...process.env, DIRECTORY_API_KEY: server.apiKey }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  child.stderr.on('data', (d: Buffer) => (out += String(d)));
  return new Promise((done) => child.on('close', (code) => done({ code, out })));
}

test('two shards started together on the default folder: one refuses in one line, the other runs whole', async () => {
  const initial = await stateOfTarget(server);
  const [one, two] = await Promise.all([shard(1), shard(2)]);
  const refused = [one, two].filter((s) => s.code === 2);
  expect(refused, `${one.out}\n${two.out}`).toHaveLength(1);
  const ran = one.code === 2 ? two : one;
  const lines = refused[0]!.out.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^error: the reports folder .*reports is in use by another run \(process \d+, since .*\): .*--reports$/,
  );
  expect(lines[0]).not.toContain('restore');
  expect(ran.code, ran.out).not.toBe(2);
  // The run that ran has its reports and a journal of its own, every change put back.
  const reports = join(dir, 'reports');
  expect((await readdir(reports)).sort()).toEqual(
    ['exchanges.har', 'index.html', 'journal.jsonl', 'junit.xml', 'results.json', 'summary.md'].sort(),
  );
  const journal = await readFile(join(reports, 'journal.jsonl'), 'utf8');
  expect(journal).not.toContain('\0');
  expect(pendingChanges(await readJournal(join(reports, 'journal.jsonl')))).toEqual([]);
  expect(JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'))).toHaveProperty('results');
  expect(await stateOfTarget(server)).toBe(initial);
}, 120_000);

test('a folder reached through another path is the same folder; released, it is free again', async () => {
  const held = await lockReportsDir(join(dir, 'same'));
  await expect(lockReportsDir(join(dir, '.', 'x', '..', 'same/'))).rejects.toThrow(
    /the reports folder .*same is in use by another run .*--reports/,
  );
  await held.release();
  const again = await lockReportsDir(join(dir, 'same'));
  await again.release();
});
