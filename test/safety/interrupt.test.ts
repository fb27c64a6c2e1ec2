/**
 * Staging safety on every path: an interrupted run puts back what it changed
 * and says so; a run killed outright leaves a journal that `restore` replays;
 * a journal with changes not put back stops the next run. The suite runs in a
 * child process against the reference server (in this process) behind a
 * proxy that adds latency, so the signal lands while a rule is changing state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { resourceLockPaths } from '../../src/session/target-lock.ts';
import { startRateLimitedProxy, type RateLimitedProxy } from '../../src/hostile-server/rate-limited-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';

let server: ReferenceServer;
let proxy: RateLimitedProxy;
let dir: string;
let profilePath: string;

beforeAll(async () => {
  server = await startReferenceServer({});
  proxy = await startRateLimitedProxy({
    upstream: server.url,
    latencyMs: 10,
    bucketSize: 1_000_000,
    refillPerSecond: 1_000_000,
    maxInFlight: 1_000,
  });
  dir = await mkdtemp(join(tmpdir(), 'dc-interrupt-'));
  profilePath = join(dir, 'profile.json');
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  await writeFile(profilePath, JSON.stringify(profile));
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Rates and teams of every mutable resource, read straight from the server. */
async function stateOfTarget(): Promise<string> {
  const parts: string[] = [];
  for (const r of server.profile.mutableResources) {
    for (const op of ['resources.show-teams', 'resources.show-activity-rates']) {
      const res = await request(`${server.url}/api/directory/${op}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.apiKey}`,
          'content-type': 'application/json',
          'service-version': '26.06.25',
        },
        body: JSON.stringify({ resource_id: r.id, date_range: '1900-01-01/2199-12-31' }),
      });
      const list = (await res.body.json()) as unknown[];
      parts.push(
        `${r.id} ${op} ${list
          .map((x) => JSON.stringify(x))
          .sort()
          .join('|')}`,
      );
    }
  }
  return parts.join('\n');
}

function startRun(reports: string): { child: ChildProcess; output: () => string } {
  const child = spawn(
    process.execPath,
    [
      'bin/directory-conformance.mjs',
      'run',
      '--base-url',
      proxy.url,
      '--profile',
      profilePath,
      '--allow-mutations',
      '--rate',
      '0',
      '--rule',
      'activity-rates.prop.model-sequences',
      '--rule',
      'activity-rates.prop.assign-then-show',
      '--num-runs',
      '40',
      '--reports',
      reports,
    ],
    { env: { ...process.env, DIRECTORY_API_KEY: server.apiKey }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return { child, output: () => out };
}

/** Resolves once the journal announces a change, then a little later: mid-change. */
async function whileChanging(journal: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const text = await readFile(journal, 'utf8').catch(() => '');
    if (text.includes('"event":"changing"')) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await new Promise((r) => setTimeout(r, 150));
}

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.once('close', (code) => resolve(code)));

/** Resolves once the output holds `text` (the child said it): a signal it has handled, not one still in flight. */
async function said(output: () => string, text: string): Promise<void> {
  for (let i = 0; i < 400 && !output().includes(text); i++) await new Promise((r) => setTimeout(r, 10));
  expect(output()).toContain(text);
}

/** The lock files a run against the proxy takes: none may outlive it. */
async function lockFilesLeft(): Promise<string[]> {
  const left: string[] = [];
  for (const r of server.profile.mutableResources) {
    for (const path of await resourceLockPaths(proxy.url, r.id)) {
      if (
        await access(path).then(
          () => true,
          () => false,
        )
      )
        left.push(path);
    }
  }
  return left;
}

describe('interrupts and the undo journal', () => {
  test('SIGINT: rules running finish and restore, the reports say interrupted, exit 130', async () => {
    const initial = await stateOfTarget();
    const reports = join(dir, 'sigint');
    const { child, output } = startRun(reports);
    await whileChanging(join(reports, 'journal.jsonl'));
    child.kill('SIGINT');
    const code = await exited(child);
    expect(code, output()).toBe(130);
    expect(output()).toContain('restored: every change the run made was put back');
    const results = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8')) as {
      interrupted?: { signal: string };
      results: Array<{ verdict: string }>;
    };
    expect(results.interrupted).toEqual({ signal: 'SIGINT' });
    expect(results.results.some((r) => r.verdict === 'NOT-TESTED')).toBe(true);
    expect(await readFile(join(reports, 'index.html'), 'utf8')).toContain('interrupted (SIGINT)');
    expect(await stateOfTarget()).toBe(initial);
  }, 60_000);

  test('SIGTERM: the same, exit 143; junit.xml marks the run interrupted; the restored resources are named', async () => {
    const initial = await stateOfTarget();
    const reports = join(dir, 'sigterm');
    const { child, output } = startRun(reports);
    await whileChanging(join(reports, 'journal.jsonl'));
    child.kill('SIGTERM');
    const code = await exited(child);
    expect(code, output()).toBe(143);
    expect(output()).toMatch(/restored: every change the run made was put back \(resource\(s\) \d+/);
    const results = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8')) as {
      interrupted?: { signal: string };
    };
    expect(results.interrupted).toEqual({ signal: 'SIGTERM' });
    const junit = await readFile(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="interrupted" value="true"/>');
    expect(junit).toContain('<property name="interruptedBy" value="SIGTERM"/>');
    expect(await lockFilesLeft()).toEqual([]);
    expect(await stateOfTarget()).toBe(initial);
  }, 60_000);

  test('a second signal exits at once, without reports, and prints the restore command; restore puts the target back', async () => {
    const initial = await stateOfTarget();
    const reports = join(dir, 'twice');
    const journal = join(reports, 'journal.jsonl');
    const { child, output } = startRun(reports);
    await whileChanging(journal);
    child.kill('SIGINT');
    await said(output, 'SIGINT: no new rule starts');
    const second = Date.now();
    child.kill('SIGINT');
    expect(await exited(child), output()).toBe(130);
    expect(Date.now() - second).toBeLessThan(5_000);
    expect(output()).toContain('SIGINT again: exiting now, without restoring');
    expect(output()).toContain(`put the target back with: directory-conformance restore ${journal}`);
    // It did not wait for the rules to finish: no reports were written.
    expect(await readdir(reports)).toEqual(['journal.jsonl']);
    expect(await lockFilesLeft()).toEqual([]);

    let out = '';
    const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
    expect(await main(['restore', journal, '--api-key', server.apiKey], io)).toBe(0);
    expect(await stateOfTarget()).toBe(initial);
  }, 60_000);

  test('kill -9 mid-change, then restore: the target is as before; restore again does nothing', async () => {
    const initial = await stateOfTarget();
    const reports = join(dir, 'sigkill');
    const journal = join(reports, 'journal.jsonl');
    const { child } = startRun(reports);
    await whileChanging(journal);
    // Killed the moment the target shows a change (a sequence's steps take tens of ms each).
    for (let i = 0; i < 300 && (await stateOfTarget()) === initial; i++) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await exited(child);
    // The killed run left the target changed: the test shows restore's work, not a no-op.
    expect(await stateOfTarget()).not.toBe(initial);

    // The next run refuses to start over a journal with changes not put back.
    let out = '';
    const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
    const args = ['--base-url', proxy.url, '--profile', profilePath, '--allow-mutations', '--reports', reports];
    expect(await main(['run', ...args, '--api-key', server.apiKey], io)).toBe(2);
    expect(out).toContain(`directory-conformance restore ${journal}`);

    out = '';
    expect(await main(['restore', journal, '--api-key', server.apiKey], io)).toBe(0);
    expect(out).toContain('restored resource');
    expect(out.includes(server.apiKey)).toBe(false);
    expect(await stateOfTarget()).toBe(initial);
    out = '';
    expect(await main(['restore', journal, '--api-key', server.apiKey], io)).toBe(0);
    expect(out).toContain('nothing to restore');
  }, 60_000);

  test('a second run against the same target and resources is refused while the first changes them', async () => {
    const initial = await stateOfTarget();
    const reports = join(dir, 'first');
    const { child } = startRun(reports);
    await whileChanging(join(reports, 'journal.jsonl'));
    let out = '';
    const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
    const args = [
      '--base-url',
      proxy.url,
      '--profile',
      profilePath,
      '--allow-mutations',
      '--reports',
      join(dir, 'second'),
    ];
    expect(await main(['run', ...args, '--api-key', server.apiKey], io)).toBe(2);
    expect(out).toContain('another run');
    child.kill('SIGINT');
    expect(await exited(child)).toBe(130);
    expect(await stateOfTarget()).toBe(initial);
  }, 60_000);
});
