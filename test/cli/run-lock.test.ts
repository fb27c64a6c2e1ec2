/**
 * The lock as the CLI takes it: a run whose mutable resources overlap those
 * another run holds on the same target (however its base URL is written) is
 * refused in one line naming that run's process and the shared resources,
 * before it touches the reports folder, so the other run's reports and
 * journal stay as they are; with --wait-lock it waits and then runs.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { shareOf } from '../../src/session/run-session.ts';
import { folded, lockTarget } from '../../src/session/target-lock.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';

let server: ReferenceServer;
let dir: string;
let profilePath: string;
beforeAll(async () => {
  server = await startReferenceServer({});
  dir = await mkdtemp(join(tmpdir(), 'dc-run-lock-'));
  profilePath = join(dir, 'profile.json');
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  await writeFile(profilePath, JSON.stringify(profile));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): { done: Promise<number>; out: () => string } {
  let out = '';
  const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
  const done = main(
    ['run', '--profile', profilePath, '--api-key', server.apiKey, '--allow-mutations', '--rate', '0', ...args],
    io,
  );
  return { done, out: () => out };
}

const ids = (): string[] => server.profile.mutableResources.map((r) => r.id);

test('a run overlapping the resources another run holds is refused in one line; its reports folder is left as it was', async () => {
  // The first run holds its shard's resources, its base URL written with a trailing slash.
  const first = await lockTarget(`${server.url}/`, shareOf(ids(), 1, 2), { wait: false });
  try {
    const reports = join(dir, 'shared-reports');
    await mkdir(reports, { recursive: true });
    const earlier = { 'results.json': '{"earlier":true}', 'journal.jsonl': '{"event":"run"}\n' };
    for (const [name, text] of Object.entries(earlier)) await writeFile(join(reports, name), text);

    const second = run(['--base-url', server.url, '--reports', reports, '--rule', 'activity-rates.assign-no-content']);
    expect(await second.done).toBe(2);
    const lines = second.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`another run (process ${process.pid}, since `);
    // Many ids are folded: the first few, then how many more.
    expect(lines[0]).toContain(`resource(s) ${folded([...shareOf(ids(), 1, 2)].sort())} of ${server.url}`);
    for (const [name, text] of Object.entries(earlier)) expect(await readFile(join(reports, name), 'utf8')).toBe(text);

    // The other shard shares no resource with the first: it runs.
    const disjoint = run([
      '--base-url',
      server.url,
      '--shard',
      '2/2',
      '--reports',
      join(dir, 'shard2'),
      '--rule',
      'activity-rates.*',
    ]);
    expect(await disjoint.done, disjoint.out()).toBe(0);
  } finally {
    await first.release();
  }
}, 60_000);

test('with --wait-lock the run waits for the resources, then runs', async () => {
  const first = await lockTarget(server.url, ids().slice(0, 1), { wait: false });
  const reports = join(dir, 'waiting');
  const waiting = run([
    '--base-url',
    `${server.url}/`,
    '--wait-lock',
    '--reports',
    reports,
    '--rule',
    'activity-rates.assign-no-content',
  ]);
  let ended = false;
  void waiting.done.then(() => (ended = true));
  await new Promise((r) => setTimeout(r, 1_200));
  expect(ended).toBe(false);
  // Waiting, it has not touched the reports folder.
  await expect(readdir(reports)).rejects.toThrow();
  await first.release();
  expect(await waiting.done, waiting.out()).toBe(0);
  expect(await readdir(reports)).toContain('results.json');
}, 60_000);
