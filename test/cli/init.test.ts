/**
 * `init` as a new vendor uses it: against a server whose choices on the open
 * points differ from the default reference server's (another seed, other
 * statuses and error bodies), given only what no read reveals (the address,
 * the keys, the kinds, the sandbox and the attribute names), the profile it
 * writes, unedited but for what it asked for, gives a conformant read-only
 * run and a conformant run with mutations. Its mistakes are one line, exit 2.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadProfile } from '../../src/target/load-profile.ts';

let server: ReferenceServer;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startReferenceServer({ seed: 7, resources: 120, variants: ['status-422', 'problem-details'] });
  dir = await mkdtemp(join(tmpdir(), 'dc-init-'));
  env = { DIRECTORY_API_KEY: server.apiKey, DIRECTORY_RESTRICTED_API_KEY: server.profile.restrictedApiKey };
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function said(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) }, env);
  return { code, lines };
}

/** What the user knows without a read: the kinds (listed one first), the sandbox, the attribute names. */
function given(out: string): string[] {
  return [
    'init',
    '--base-url',
    server.url,
    '--kinds',
    server.profile.kinds.map((k) => k.id).join(','),
    '--mutable',
    server.profile.mutableResources.map((r) => r.id).join(','),
    '--attributes',
    (server.profile.attributes ?? []).join(','),
    '--out',
    out,
  ];
}

describe('a profile written by init', () => {
  let path: string;
  let lines: string[];

  beforeAll(async () => {
    path = join(dir, 'profile.json');
    const outcome = await said(given(path));
    expect(outcome.code, outcome.lines.join('\n')).toBe(0);
    lines = outcome.lines;
  });

  test('holds what the reads show and never a key', async () => {
    const text = await readFile(path, 'utf8');
    const profile = await loadProfile(path);
    expect(text).not.toContain(server.apiKey);
    expect(text).not.toContain(String(env.DIRECTORY_RESTRICTED_API_KEY));
    const truth = server.profile;
    expect(profile.kinds.map((k) => [k.id, k.supportsRoles, k.definingRoleId])).toEqual(
      truth.kinds.map((k) => [k.id, k.supportsRoles, k.definingRoleId]),
    );
    expect(profile.mutableResources).toEqual(truth.mutableResources);
    expect(new Set(profile.roles.map((r) => r.id))).toEqual(new Set(truth.roles.map((r) => r.id)));
    expect(new Set(profile.restrictedHiddenRoleIds)).toEqual(new Set(truth.restrictedHiddenRoleIds));
    expect(new Set(profile.restrictedRedactedFields)).toEqual(new Set(truth.restrictedRedactedFields));
    expect(new Set(profile.workRegimeIds)).toEqual(new Set(truth.workRegimeIds));
    expect(profile.sortAttribute).toBe(truth.attributes?.[0]);
    const enabled = new Set(truth.teams.filter((t) => t.enabled).map((t) => t.id));
    for (const t of profile.teams) expect(enabled.has(t.id), `team ${t.id} is enabled on the server`).toBe(true);
  });

  test('names what it could not read, each in one line with how to fill it', () => {
    const toFill = lines.filter((l) => l.startsWith('  - '));
    expect(toFill.some((l) => l.includes('teams:') && l.includes('enabled false'))).toBe(true);
    expect(toFill.some((l) => l.includes('allowRoleRevocation'))).toBe(true);
  });

  test('gives a conformant read-only run, and a conformant run with mutations once revocation is allowed', async () => {
    const run = (reports: string, ...more: string[]): Promise<{ code: number; lines: string[] }> =>
      said(['run', '--base-url', server.url, '--profile', path, '--reports', join(dir, reports), '--quiet', ...more]);
    const readOnly = await run('read-only', '--seed', '3');
    expect(readOnly.code, readOnly.lines.join('\n')).toBe(0);
    // What init asked for: revocation is the user's to allow.
    await writeFile(path, JSON.stringify({ ...(await loadProfile(path)), allowRoleRevocation: true }));
    const mutating = await run('mutating', '--seed', '3', '--allow-mutations');
    expect(mutating.code, mutating.lines.join('\n')).toBe(0);
    expect(mutating.lines.join('\n')).toMatch(/CONFORMANT: \d+ PASS, \d+ OBSERVED;/);
  }, 120_000);
});

describe('its mistakes: one line, exit 2', () => {
  test('a kind the target refuses', async () => {
    const args = given(join(dir, 'never.json'));
    args[args.indexOf('--kinds') + 1] = '1999999999999999999';
    const { code, lines } = await said(args);
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: the target refused resources\.list of kind 1999999999999999999 \(answered 4\d\d/);
  });

  test('a sandbox resource of none of the kinds', async () => {
    const args = given(join(dir, 'never.json'));
    args[args.indexOf('--mutable') + 1] = '7999999999999999999';
    const { code, lines } = await said(args);
    expect(code).toBe(2);
    expect(lines).toEqual([
      'error: the target has no resource 7999999999999999999 of the kinds given (looked up by a resource.ids ' +
        'filter on each); check --mutable and --kinds',
    ]);
  });

  test('an existing file is kept unless --force', async () => {
    const path = join(dir, 'kept.json');
    await writeFile(path, 'mine');
    const { code, lines } = await said(given(path));
    expect(code).toBe(2);
    expect(lines).toEqual([`error: ${path} exists; give --force to replace it`]);
    expect(await readFile(path, 'utf8')).toBe('mine');
  });
});
