/**
 * API keys never appear in reports, console output, error messages or
 * transcripts: a run with known keys against a failing server, then every
 * output file and stream is scanned.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';

/**
 * Keys with characters that JSON escapes and URLs percent-encode, so each form
 * a key can take in text is a different string and the scan looks for each.
 */
const KEYS = { apiKey: 'dcfull_k3y"q\\b/s+p&a=e%25', restrictedApiKey: 'dcrestricted_"r\\/+&=%' };

/** Every form a key can take in an output: typed, in basic credentials, escaped in JSON (once, twice), percent-encoded. */
function formsOf(key: string): string[] {
  const json = JSON.stringify(key).slice(1, -1);
  return [
    key,
    Buffer.from(`:${key}`).toString('base64'),
    json,
    JSON.stringify(json).slice(1, -1),
    encodeURIComponent(key),
    encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  ];
}

function leaks(texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [name, text] of Object.entries(texts)) {
    for (const key of [server.apiKey, server.restrictedApiKey]) {
      for (const form of formsOf(key)) if (text.includes(form)) found.push(`${name}: ${form}`);
    }
  }
  return found;
}

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer({
    faults: ['pagination-no-trailing-empty-page', 'redaction-leaks-external-id'],
    ...KEYS,
  });
  dir = await mkdtemp(join(tmpdir(), 'dc-secrets-'));
  // Signed runs: the bundle holds the results and the exchanges again, and is scanned with the rest.
  const { privateKey } = generateKeyPairSync('ed25519');
  await writeFile(join(dir, 'signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
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
      '--sign',
      join(dir, 'signing-key.pem'),
    ],
    { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
  );
  expect(code).toBe(1);
  expect(out).toMatch(/FAIL pagination\.exact-multiple-empty-page/);
  expect(new Set(formsOf(server.apiKey)).size).toBe(6);
  const files = await filesUnder(join(dir, 'reports'));
  expect(files.filter((f) => !f.startsWith('reproduce/')).sort()).toEqual([
    'conformance-bundle.json',
    'exchanges.har',
    'index.html',
    'journal.jsonl',
    'junit.xml',
    'results.json',
    'summary.md',
  ]);
  // A reproducer per FAIL, scanned with the rest.
  expect(files).toContain('reproduce/pagination.exact-multiple-empty-page.sh');
  expect(files).toContain('reproduce/auth.restricted-fields-redacted.sh');
  const texts: Record<string, string> = { output: out };
  for (const f of files) texts[f] = await readFile(join(dir, 'reports', f), 'utf8');
  // The journal of the changes is among the files scanned, and holds what a leak would hide in.
  expect(texts['journal.jsonl']).toContain('"event":"changing"');
  expect(leaks(texts)).toEqual([]);
  // The evidence is there, with placeholders instead of keys.
  const junit = await readFile(join(dir, 'reports', 'junit.xml'), 'utf8');
  expect(junit).toContain('$DIRECTORY_API_KEY');
});

/** Every file a run wrote in the folder, its reproducers included, by its path there. */
async function filesUnder(folder: string): Promise<string[]> {
  const names = await readdir(folder, { recursive: true });
  const files = await Promise.all(names.map(async (n) => ((await stat(join(folder, n))).isFile() ? [n] : [])));
  return files.flat();
}

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
        '--sign',
        join(dir, 'signing-key.pem'),
      ],
      { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
    );
    const files = await filesUnder(reports);
    expect(files).toContain('results.json');
    expect(files).toContain('journal.jsonl');
    expect(files).toContain('conformance-bundle.json');
    const texts: Record<string, string> = { output: out };
    for (const f of files) texts[f] = await readFile(join(reports, f), 'utf8');
    expect(leaks(texts)).toEqual([]);
    // The echo reached the transcripts, as placeholders: the scan above looked where the key would be.
    const results = await readFile(join(reports, 'results.json'), 'utf8');
    expect(results).toContain('x-echo-authorization');
    expect(results).toContain('Bearer $DIRECTORY_API_KEY');
    // The percent-encoded echo and the one escaped inside a JSON error body were redacted too.
    expect(results).toContain('login?key=$DIRECTORY_API_KEY');
    expect(results).toContain('refused for Bearer $DIRECTORY_API_KEY');
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
