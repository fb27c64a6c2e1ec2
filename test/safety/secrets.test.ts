/**
 * API keys never appear in reports, console output, error messages or
 * transcripts: a run with known keys against a failing server, then every
 * output file and stream is scanned.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer({ faults: ['pagination-no-trailing-empty-page', 'redaction-leaks-external-id'] });
  dir = await mkdtemp(join(tmpdir(), 'dc-secrets-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('no key in any output of a failing run', async () => {
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  const profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(profile));
  let out = '';
  const code = await main(
    [
      'run',
      '--base-url',
      server.url,
      '--profile',
      profilePath,
      '--api-key',
      server.apiKey,
      '--restricted-api-key',
      server.restrictedApiKey,
      '--allow-mutations',
      '--rate',
      '0',
      '--reports',
      join(dir, 'reports'),
      '--num-runs',
      '3',
    ],
    { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
  );
  expect(code).toBe(1);
  expect(out).toMatch(/FAIL pagination\.exact-multiple-empty-page/);
  const secrets = [server.apiKey, server.restrictedApiKey, Buffer.from(`:${server.apiKey}`).toString('base64')];
  const files = await readdir(join(dir, 'reports'));
  // The journal of the changes is scanned too.
  expect(files.sort()).toEqual([
    'exchanges.har',
    'index.html',
    'journal.jsonl',
    'junit.xml',
    'results.json',
    'summary.md',
  ]);
  const texts = [out, ...(await Promise.all(files.map((f) => readFile(join(dir, 'reports', f), 'utf8'))))];
  for (const text of texts) for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  // The evidence is there, with placeholders instead of keys.
  const junit = await readFile(join(dir, 'reports', 'junit.xml'), 'utf8');
  expect(junit).toContain('$DIRECTORY_API_KEY');
});

test('a server that echoes the credential in headers and bodies leaks it into no output', async () => {
  const proxy = await startHostileProxy({ mode: 'echo-credentials', upstream: server.url });
  try {
    const { restrictedApiKey: _omit, ...profile } = server.profile;
    const profilePath = join(dir, 'profile-echo.json');
    await writeFile(profilePath, JSON.stringify(profile));
    let out = '';
    const reports = join(dir, 'reports-echo');
    await main(
      [
        'run',
        '--base-url',
        proxy.url,
        '--profile',
        profilePath,
        '--api-key',
        server.apiKey,
        '--restricted-api-key',
        server.restrictedApiKey,
        '--allow-mutations',
        '--rate',
        '0',
        '--reports',
        reports,
        '--num-runs',
        '2',
      ],
      { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
    );
    const files = await readdir(reports);
    expect(files).toContain('results.json');
    const texts = [out, ...(await Promise.all(files.map((f) => readFile(join(reports, f), 'utf8'))))];
    for (const text of texts) {
      expect(text.includes(server.apiKey)).toBe(false);
      expect(text.includes(server.restrictedApiKey)).toBe(false);
    }
    // The echo reached the transcripts, as placeholders: the scan above looked where the key would be.
    const results = await readFile(join(reports, 'results.json'), 'utf8');
    expect(results).toContain('x-echo-authorization');
    expect(results).toContain('Bearer $DIRECTORY_API_KEY');
  } finally {
    await proxy.close();
  }
});

test('a base URL with a user or password is refused before anything is sent or written', async () => {
  const url = new URL(server.url);
  let out = '';
  const reports = join(dir, 'reports-userinfo');
  const code = await main(
    ['run', '--base-url', `http://someone:${server.apiKey}@${url.host}`, '--profile', 'x.json', '--reports', reports],
    { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
  );
  expect(code).toBe(2);
  expect(out).toContain('DIRECTORY_API_KEY');
  expect(out.includes(server.apiKey)).toBe(false);
  await expect(readdir(reports)).rejects.toThrow();
});
