/**
 * A signed record of a run that anyone can check (`run --sign KEYFILE`,
 * `verify BUNDLE --public-key PEM`): the run's results.json and its redacted
 * HAR, beside what they were judged with (the hashes of the rule catalogue's
 * manifest and of the spec, the suite's version) and the target's fingerprint
 * (base URL, service version, the profile and its hash), signed with Ed25519
 * over the canonical JSON of all of it. A signature says who vouches for the
 * bundle; only judging its exchanges again says its verdicts are true, so
 * `verify` does both (verify-bundle.ts).
 */
import type { HonestCounts } from '../core/summarise.ts';
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canonicalJson } from '../core/canonical-json.ts';
import { parseJsonText } from '../core/json-text.ts';
import { UsageError } from '../core/errors.ts';
import { packagePath } from '../core/package-root.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { checkedFile, type FileType } from '../schemas/files.ts';
import type { TargetProfile } from '../target/profile.ts';

export const BUNDLE_FORMAT = 'directory-conformance-bundle/1';
export const BUNDLE_FILE = 'conformance-bundle.json';

export type Bundle = FileType<'ConformanceBundle'>;
/** A bundle before it is signed. */
export type BundleContent = Omit<Bundle, 'signature'>;

/** `sha256:` and the base64url digest of `bytes`. */
export function sha256Of(bytes: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('base64url')}`;
}

/** The hash of what a suite judges with: its catalogue (specs/manifest.json) and its spec (docs/spec.md). */
export async function suiteHashes(): Promise<{ catalogue: string; spec: string }> {
  const [manifest, spec] = await Promise.all([
    readFile(packagePath('specs', 'manifest.json')),
    readFile(packagePath('docs', 'spec.md')),
  ]);
  return { catalogue: sha256Of(manifest), spec: sha256Of(spec) };
}

/** A profile's hash: of its canonical JSON, so the order of its keys does not change it. */
export function profileHash(profile: TargetProfile | unknown): string {
  return sha256Of(canonicalJson(profile));
}

/** The public key's fingerprint: the hash of its SubjectPublicKeyInfo. */
export function keyFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return sha256Of(publicKey.export({ type: 'spki', format: 'der' }));
}

/** The bytes a signature covers: everything in the bundle but the signature, as canonical JSON. */
function signedBytes(content: BundleContent): Buffer {
  return Buffer.from(canonicalJson(content), 'utf8');
}

export function signBundle(content: BundleContent, key: KeyObject): Bundle {
  return {
    ...content,
    signature: {
      algorithm: 'Ed25519',
      publicKey: keyFingerprint(key),
      value: sign(null, signedBytes(content), key).toString('base64'),
    },
  };
}

/** True when `bundle`'s signature was made by `key`'s private half over exactly what the bundle holds. */
export function signatureHolds(bundle: Bundle, key: KeyObject): boolean {
  const { signature, ...content } = bundle;
  return verify(null, signedBytes(content), key, Buffer.from(signature.value, 'base64'));
}

/** The Ed25519 private key of `--sign` (PEM, PKCS#8): refused in one line before anything is sent. */
export async function loadSigningKey(path: string): Promise<KeyObject> {
  return ed25519(await keyText(path, '--sign'), path, (pem) => createPrivateKey(pem), 'private');
}

/** The Ed25519 public key of `verify --public-key` (PEM, SPKI; a private key gives its public half). */
export async function loadPublicKey(path: string): Promise<KeyObject> {
  return ed25519(await keyText(path, '--public-key'), path, (pem) => createPublicKey(pem), 'public');
}

async function keyText(path: string, flag: string): Promise<string> {
  await refuseIfNotRegularFile(path, `the key file of ${flag}`);
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the key file ${path} (${flag}): ${e instanceof Error ? e.message : String(e)}`);
  }
}

function ed25519(pem: string, path: string, parse: (pem: string) => KeyObject, half: string): KeyObject {
  let key: KeyObject;
  try {
    key = parse(pem);
  } catch {
    // The parser's message may quote the file: never a key's text in any output.
    throw new UsageError(`${path} holds no ${half} key in PEM form`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UsageError(`${path} holds an ${key.asymmetricKeyType ?? 'unknown'} key; signing takes Ed25519`);
  return key;
}

/**
 * A badge of a verified bundle: "Directory conformance 26.06.25 | 75/75 MUST",
 * with "· 3 skipped" when rules were skipped, green when conformant.
 */
export function renderBadge(serviceVersion: string, counts: HonestCounts, conformant: boolean): string {
  const label = `Directory conformance ${serviceVersion}`;
  const value = `${counts.mustPassed}/${counts.mustDecided} MUST${counts.skipped > 0 ? ` · ${counts.skipped} skipped` : ''}`;
  // About 7 px a character at 11 px Verdana, as badges usually reckon.
  const [lw, vw] = [label.length * 7 + 10, value.length * 7 + 10];
  const colour = conformant ? '#4c1' : '#e05d44';
  const text = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + vw}" height="20" role="img" aria-label="${text(`${label}: ${value}`)}">`,
    `<title>${text(`${label}: ${value}`)}</title>`,
    `<rect width="${lw}" height="20" fill="#555"/>`,
    `<rect x="${lw}" width="${vw}" height="20" fill="${colour}"/>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`,
    `<text x="${lw / 2}" y="14">${text(label)}</text>`,
    `<text x="${lw + vw / 2}" y="14">${text(value)}</text>`,
    `</g></svg>`,
    '',
  ].join('\n');
}

/**
 * Writes `conformance-bundle.json` beside a run's reports: the results.json
 * and exchanges.har just written (read back, so the bundle holds exactly the
 * redacted files the reports hold), signed with `key`. The profile goes in
 * without its restricted key: a bundle is made to be handed to others.
 */
export async function writeBundle(
  profile: TargetProfile,
  files: { results: string; har: string },
  key: KeyObject,
): Promise<string> {
  const [results, har] = await Promise.all([readBack('ResultsJson', files.results), readBack('HarFile', files.har)]);
  const { restrictedApiKey: _secret, ...shared } = profile;
  const path = join(dirname(files.results), BUNDLE_FILE);
  const bundle = signBundle(
    {
      format: BUNDLE_FORMAT,
      suite: results.tool,
      hashes: await suiteHashes(),
      target: {
        baseUrl: results.target.baseUrl,
        serviceVersion: results.target.serviceVersion,
        profileHash: profileHash(shared),
        profile: shared,
      },
      results,
      har,
    },
    key,
  );
  await writeFile(path, `${JSON.stringify(bundle)}\n`);
  return path;
}

async function readBack<N extends 'ResultsJson' | 'HarFile'>(name: N, path: string): Promise<FileType<N>> {
  return checkedFile(name, parseJsonText(await readFile(path, 'utf8')), path);
}
