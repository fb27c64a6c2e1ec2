/**
 * One lock per real target: a run against http://127.0.0.1:P and one against
 * http://localhost:P, started 0.3 s apart, change the same server. One of
 * them (the later, unless the earlier had not yet taken the lock) refuses in
 * one line; the other runs, and no resource differs afterwards.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startRateLimitedProxy, type RateLimitedProxy } from '../../src/hostile-server/rate-limited-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { stateOfTarget } from '../helpers/target-state.ts';

let server: ReferenceServer;
let proxy: RateLimitedProxy;
let dir: string;
let profilePath: string;

beforeAll(async () => {
  server = await startReferenceServer({});
  // Latency keeps the first run changing resources when the second starts.
  proxy = await startRateLimitedProxy({
    upstream: server.url,
    latencyMs: 15,
    bucketSize: 1_000_000,
    refillPerSecond: 1_000_000,
    maxInFlight: 1_000,
  });
  dir = await mkdtemp(join(tmpdir(), 'dc-aliased-'));
  profilePath = join(dir, 'profile.json');
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  await writeFile(profilePath, JSON.stringify(profile));
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function run(baseUrl: string, reports: string): { done: Promise<number>; out: () => string } {
  let out = '';
  const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
  const done = main(
    [
      'run',
      '--base-url',
      baseUrl,
      '--profile',
      profilePath,
      '--api-key',
      server.apiKey,
      '--allow-mutations',
      '--rate',
      '0',
      '--num-runs',
      '3',
      '--reports',
      reports,
      '--rule',
      'activity-rates.*',
    ],
    io,
  );
  return { done, out: () => out };
}

test('two spellings of one server: one run refuses in one line, nothing is left changed', async () => {
  const initial = await stateOfTarget(server);
  const port = new URL(proxy.url).port;
  const first = run(`http://127.0.0.1:${port}`, join(dir, 'first'));
  await new Promise((r) => setTimeout(r, 300));
  const second = run(`http://localhost:${port}/`, join(dir, 'second'));
  const codes = [await first.done, await second.done];
  const refused = codes[1] === 2 ? second : first;
  expect(
    codes.filter((c) => c === 2),
    `${first.out()}\n${second.out()}`,
  ).toHaveLength(1);
  const lines = refused.out().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /another run \(process \d+, since .*\) is changing resource\(s\) .* \(the same server as its /,
  );
  expect(await stateOfTarget(server)).toBe(initial);
}, 60_000);
