/**
 * A key of any printable characters, echoed by a careless server in any
 * encoding (typed, JSON-escaped, percent-encoded three ways in either case,
 * hex, base64 and base64url of a text that holds it at any offset), in
 * headers, error bodies and a redirect's Location, reaches no output: every
 * report file and both streams are scanned for every encoding (by decoding,
 * see keyLeaks). A base URL whose user and password hold a `/` is refused
 * without a fragment of the key reaching a stream through a DNS error.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { KEY_ENCODING_NAMES } from '../../src/hostile-server/key-encodings.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { keyLeaks } from '../helpers/key-leaks.ts';

/** Printable ASCII without whitespace: a bearer credential ends at the first space. */
const keyChars = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
const key = (prefix: string): fc.Arbitrary<string> =>
  fc.string({ unit: keyChars, minLength: 6, maxLength: 30 }).map((k) => `${prefix}${k}`);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-encodings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A read-only rule, one that is refused (an error body), one that changes a resource (the journal). */
const RULES = ['list.resource-shape', 'auth.unknown-key-rejected', 'activity-rates.assign-no-content'];

test('property: no encoding of an echoed key reaches any output', async () => {
  let round = 0;
  await fc.assert(
    fc.asyncProperty(
      key('dcfull_'),
      key('dcrestricted_'),
      fc.subarray([...KEY_ENCODING_NAMES], { minLength: 1 }),
      fc.string({ unit: keyChars, maxLength: 5 }),
      async (apiKey, restrictedApiKey, encodings, before) => {
        round += 1;
        const server = await startReferenceServer({ apiKey, restrictedApiKey });
        const proxy = await startHostileProxy({
          mode: 'echo-encodings',
          upstream: server.url,
          every: 4,
          // Preflight passes (its reads of the kinds, the resources and each attribute name); later, every 4th
          // answer is a redirect whose Location holds the key.
          after: 16,
          echo: { encodings, before, after: '"}' },
        });
        try {
          const { restrictedApiKey: _omit, ...profile } = server.profile;
          const profilePath = join(dir, `profile-${round}.json`);
          await writeFile(profilePath, JSON.stringify(profile));
          const reports = join(dir, `reports-${round}`);
          const streams = { out: '', err: '' };
          await main(
            [
              'run',
              '--base-url',
              proxy.url,
              '--profile',
              profilePath,
              '--api-key',
              apiKey,
              '--restricted-api-key',
              restrictedApiKey,
              '--allow-mutations',
              '--rate',
              '0',
              '--reports',
              reports,
              ...RULES.flatMap((r) => ['--rule', r]),
            ],
            { out: (l) => (streams.out += `${l}\n`), err: (l) => (streams.err += `${l}\n`) },
          );
          const files = await readdir(reports).catch(() => []);
          expect(files, streams.out + streams.err).toContain('results.json');
          expect(files).toContain('journal.jsonl');
          const texts: Record<string, string> = { ...streams };
          for (const f of files) texts[f] = await readFile(join(reports, f), 'utf8');
          const leaks = Object.entries(texts).flatMap(([name, text]) =>
            [apiKey, restrictedApiKey].flatMap((k) => keyLeaks(text, k).map((l) => `${name}: ${l}`)),
          );
          expect(leaks).toEqual([]);
          // The echoes reached the transcripts, as placeholders: the scan looked where a key would be.
          expect(texts['results.json']).toContain('x-echo-');
          expect(texts['results.json']).toContain('$DIRECTORY_API_KEY');
        } finally {
          await proxy.close();
          await server.close();
        }
      },
    ),
    { numRuns: 6 },
  );
});

test('a base URL whose user and password hold a / is refused, and no piece of the key reaches a stream', async () => {
  const secret = 'k3y-part/second-part';
  let out = '';
  const reports = join(dir, 'reports-slash');
  // A profile that loads, so that without the refusal the run would go on to look the host up.
  const profile = 'fixtures/example-profile.json';
  const code = await main(
    ['run', '--base-url', `http://someone:${secret}@127.0.0.1:9`, '--profile', profile, '--reports', reports],
    { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
  );
  const bare = await main(
    ['run', '--base-url', `http://${secret}@127.0.0.1:9`, '--profile', profile, '--reports', reports],
    { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) },
  );
  expect([code, bare]).toEqual([2, 2]);
  for (const piece of secret.split('/')) expect(out).not.toContain(piece);
  expect(out).toContain('--base-url must not carry a user or password');
  await expect(readdir(reports)).rejects.toThrow();
});
