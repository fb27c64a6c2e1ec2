/**
 * `run --sign KEYFILE` and `verify BUNDLE --public-key PEM`: a signed run is
 * verified by the holder of the public key, and refused, naming why, when one
 * verdict, one exchange or one hash in it was edited, whether or not the
 * editor signed it again: a signature says who vouches; the exchanges,
 * judged again, say whether the verdicts are true.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { parseJsonText } from '../../src/core/json-text.ts';
import { signBundle, type Bundle } from '../../src/session/bundle.ts';
import { checkedFile } from '../../src/schemas/files.ts';

let dir: string;
let signer: KeyObject;
let bundlePath: string;
let publicPem: string;
let runOutput: string;
let runCode: number;

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

const RULES = ['list-roles.plain-array', 'pagination.envelope', 'show-teams.response-shape'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-bundle-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  signer = privateKey;
  await writeFile(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  publicPem = join(dir, 'key.pub.pem');
  await writeFile(publicPem, publicKey.export({ type: 'spki', format: 'pem' }));
  const reports = join(dir, 'reports');
  const run = await cli([
    'run',
    '--seed',
    '1',
    '--reports',
    reports,
    '--sign',
    join(dir, 'key.pem'),
    ...RULES.flatMap((r) => ['--rule', r]),
  ]);
  runCode = run.code;
  runOutput = run.out;
  bundlePath = join(reports, 'conformance-bundle.json');
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readBundle(): Promise<Bundle> {
  return checkedFile('ConformanceBundle', parseJsonText(await readFile(bundlePath, 'utf8')), bundlePath);
}

/** `edit` applied to a copy of the bundle, signed again with the signer's key or left with its signature. */
async function edited(name: string, edit: (b: Bundle) => void, resign: boolean): Promise<string> {
  const bundle = await readBundle();
  edit(bundle);
  const { signature: _old, ...content } = bundle;
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify(resign ? signBundle(content, signer) : bundle));
  return path;
}

function resultOf(bundle: Bundle, ruleId: string): Bundle['results']['results'][number] {
  const result = bundle.results.results.find((r) => r.ruleId === ruleId);
  if (!result) throw new Error(`${ruleId} is not in the bundle`);
  return result;
}

describe('run --sign, then verify', () => {
  test('a signed run verifies, and its badge says what passed', async () => {
    expect(runCode, runOutput).toBe(0);
    expect(runOutput).toContain(`signed: ${bundlePath}`);
    const badge = join(dir, 'badge.svg');
    const { code, out } = await cli(['verify', bundlePath, '--public-key', publicPem, '--badge', badge]);
    expect(code, out).toBe(0);
    expect(out).toMatch(
      /^verified: .*conformant, 3 of 3 MUST rules passed, 0 of 3 rules skipped; 3 verdicts judged again from \d+ exchanges/m,
    );
    const svg = await readFile(badge, 'utf8');
    expect(svg).toContain('Directory conformance 26.06.25');
    expect(svg).toContain('3/3 MUST');
    expect(svg).not.toContain('skipped');
    // What it was judged with, and the target's fingerprint, are in it.
    const bundle = await readBundle();
    expect(bundle.hashes.catalogue).toMatch(/^sha256:/);
    expect(bundle.target.profileHash).toMatch(/^sha256:/);
    expect(bundle.har.log.entries.length).toBeGreaterThan(0);
  });

  test('an edited verdict: refused by the signature, and when signed again by its exchanges', async () => {
    const flip = (b: Bundle): void => {
      resultOf(b, 'list-roles.plain-array').verdict = 'FAIL';
      b.results.summary.byVerdict.PASS -= 1;
      b.results.summary.byVerdict.FAIL += 1;
    };
    const unsigned = await cli(['verify', await edited('verdict', flip, false), '--public-key', publicPem]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.out).toContain('refused: the signature does not match what the bundle holds');
    const resigned = await cli(['verify', await edited('verdict-resigned', flip, true), '--public-key', publicPem]);
    expect(resigned.code, resigned.out).toBe(1);
    expect(resigned.out).toContain('list-roles.plain-array: FAIL live, PASS from the recording');
  });

  test("a verdict edited without its summary is refused by the summary's counts", async () => {
    const path = await edited(
      'summary',
      (b) => {
        resultOf(b, 'pagination.envelope').verdict = 'SKIP';
      },
      true,
    );
    const { code, out } = await cli(['verify', path, '--public-key', publicPem]);
    expect(code).toBe(1);
    expect(out).toContain('refused: the summary counts 3 PASS where the results hold 2');
  });

  test('an edited exchange, signed again: the verdict it supported no longer follows', async () => {
    const path = await edited(
      'exchange',
      (b) => {
        // list-roles answered in an envelope: what list-roles.plain-array forbids.
        const entry = b.har.log.entries.find((e) => e._rule === 'list-roles.plain-array' && e.response.status === 200);
        if (!entry?.response.content?.text) throw new Error('no list-roles answer in the bundle');
        entry.response.content.text = JSON.stringify({ data: JSON.parse(entry.response.content.text) as unknown });
      },
      true,
    );
    const { code, out } = await cli(['verify', path, '--public-key', publicPem]);
    expect(code, out).toBe(1);
    expect(out).toContain('list-roles.plain-array: PASS live, FAIL from the recording');
  });

  test('an edited hash, signed again: judged with another catalogue, refused', async () => {
    const path = await edited(
      'hash',
      (b) => {
        b.hashes.catalogue = 'sha256:another';
      },
      true,
    );
    const { code, out } = await cli(['verify', path, '--public-key', publicPem]);
    expect(code).toBe(1);
    expect(out).toContain('refused: the bundle was judged with another rule catalogue (sha256:another');
  });

  test('another signer: refused, naming both keys', async () => {
    const other = join(dir, 'other.pub.pem');
    await writeFile(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    const { code, out } = await cli(['verify', bundlePath, '--public-key', other]);
    expect(code).toBe(1);
    expect(out).toMatch(/^refused: signed with another key \(sha256:[\w-]+\), not the one given \(sha256:[\w-]+\)$/m);
  });

  test('a key that is not Ed25519, or a file that is not a bundle: one line, exit 2', async () => {
    const rsa = join(dir, 'rsa.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    await writeFile(rsa, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const signing = await cli(['run', '--reports', join(dir, 'rsa-reports'), '--sign', rsa, '--rule', RULES[0]!]);
    expect(signing.code).toBe(2);
    expect(signing.out).toContain('holds an rsa key; signing takes Ed25519');
    const notBundle = await cli(['verify', join(dir, 'reports', 'results.json'), '--public-key', publicPem]);
    expect(notBundle.code).toBe(2);
    expect(notBundle.out.trim().split('\n')[0]).toMatch(/^error: .*results\.json/);
  });
});
