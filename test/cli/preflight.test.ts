/**
 * Preflight: what is wrong with the configuration is said once, before the
 * first request of a rule, with exit code 2 and no stack trace.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { startForwardingProxy } from '../helpers/forwarding-proxy.ts';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer({});
  dir = await mkdtemp(join(tmpdir(), 'dc-preflight-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(['run', ...args], { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

describe('preflight', () => {
  test('a mutable resource the target does not have is named, exit 2, nothing written', async () => {
    const kindId = server.profile.mutableResources[0]!.kindId;
    const profile = {
      ...server.profile,
      mutableResources: [...server.profile.mutableResources, { id: '1999999999999999999', kindId }],
    };
    const profilePath = join(dir, 'profile.json');
    await writeFile(profilePath, JSON.stringify(profile));
    const reports = join(dir, 'reports');
    const { code, out } = await run([
      '--base-url',
      server.url,
      '--profile',
      profilePath,
      '--api-key',
      server.apiKey,
      '--allow-mutations',
      '--reports',
      reports,
    ]);
    expect(code).toBe(2);
    expect(out).toContain('1999999999999999999');
    expect(out).not.toMatch(/\n\s+at /);
    expect(await readdir(reports)).toEqual([]);
  });

  test('a sort attribute or an attribute the target does not know is the profile field to fix, exit 2, never a FAIL', async () => {
    expect(server.profile.sortAttribute).toBeDefined();
    for (const [field, wrong] of [
      ['sortAttribute', { sortAttribute: 'lastnmae' }],
      ['attributes', { attributes: [...(server.profile.attributes ?? []), 'lastnmae'] }],
    ] as const) {
      const profilePath = join(dir, `${field}.json`);
      await writeFile(profilePath, JSON.stringify({ ...server.profile, ...wrong }));
      const reports = join(dir, `${field}-reports`);
      const args = ['--base-url', server.url, '--profile', profilePath, '--api-key', server.apiKey];
      const { code, out } = await run([...args, '--read-only', '--reports', reports]);
      expect(code, out).toBe(2);
      // The reference server lists an unknown attribute without it (keys inside attributes are not shown).
      expect(out).toContain(`${field} "lastnmae" (not in the attributes of the first resource listed`);
      expect(out).toContain('fix sortAttribute or attributes in the profile');
      expect(out).not.toContain('FAIL');
      expect(await readdir(reports)).toEqual([]);
    }
  });

  test('a reports path that is a file is a usage error before the run', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    const { code, out } = await run(['--rule', 'list.kind-id-required', '--reports', file]);
    expect(code).toBe(2);
    expect(out).toContain('cannot write reports to');
    expect(out).not.toContain('embedded reference server at');
  });

  test('unknown faults and variants are usage errors that point at the known names', async () => {
    const fault = await run(['--fault', 'revoke-nope']);
    expect(fault.code).toBe(2);
    expect(fault.out).toContain('revoke-star-removes-role');
    const variant = await run(['--variant', 'nope']);
    expect(variant.code).toBe(2);
    expect(variant.out).toContain('exclusive-end');
  });

  test('serve refuses an unknown fault or variant the same way: one line, exit 2, no stack', async () => {
    for (const args of [
      ['--fault', 'revoke-nope'],
      ['--variant', 'nope'],
    ]) {
      let out = '';
      const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
      expect(await main(['serve', '--port', '0', ...args], io)).toBe(2);
      expect(out).toMatch(/^error: unknown (fault "revoke-nope"|variant "nope")/);
      expect(out).not.toContain('internal error');
    }
  });

  test('reports of an earlier run are removed before a new run starts', async () => {
    const reports = join(dir, 'stale');
    await run(['--rule', 'list.kind-id-required', '--reports', reports]);
    expect((await readdir(reports)).sort()).toEqual([
      'exchanges.har',
      'index.html',
      'junit.xml',
      'results.json',
      'summary.md',
    ]);
    // A run that ends at preflight (a closed port) leaves no earlier run's report for CI to upload.
    const closed = await startReferenceServer({});
    await closed.close();
    const profilePath = join(dir, 'profile-closed.json');
    await writeFile(profilePath, JSON.stringify(server.profile));
    const { code, out } = await run([
      '--base-url',
      closed.url,
      '--profile',
      profilePath,
      '--api-key',
      server.apiKey,
      '--reports',
      reports,
    ]);
    expect(code).toBe(2);
    expect(out).toContain('cannot be reached');
    expect(await readdir(reports)).toEqual([]);
  });

  test('a kind of the profile the target does not have is named in one line, exit 2, before any rule', async () => {
    const profile = { ...server.profile, listKindId: '1888888888888888888' };
    const profilePath = join(dir, 'profile-kind.json');
    await writeFile(profilePath, JSON.stringify(profile));
    const reports = join(dir, 'reports-kind');
    const { code, out } = await run([
      '--base-url',
      server.url,
      '--profile',
      profilePath,
      '--api-key',
      server.apiKey,
      '--reports',
      reports,
    ]);
    expect(code).toBe(2);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toContain('kinds the target does not have');
    expect(out).toContain('1888888888888888888 (answered 404: kind_id: unknown kind 1888888888888888888)');
    expect(out).not.toContain('FAIL');
    expect(await readdir(reports)).toEqual([]);
  });

  for (const [name, reports] of [
    ['under /proc (unwritable even for root)', '/proc/dc-test/reports'],
    ['under a file', 'a-file/reports'],
  ] as const) {
    test(`a reports folder ${name} is one line and exit 2, before any request`, async () => {
      await writeFile(join(dir, 'a-file'), 'x');
      let requests = 0;
      const proxy = await startForwardingProxy(server.url, () => ((requests += 1), false));
      try {
        const profilePath = join(dir, 'profile-reports.json');
        await writeFile(profilePath, JSON.stringify(server.profile));
        const { code, out } = await run([
          '--base-url',
          proxy.url,
          '--profile',
          profilePath,
          '--api-key',
          server.apiKey,
          '--allow-mutations',
          '--reports',
          reports.startsWith('/') ? reports : join(dir, reports),
        ]);
        expect(code).toBe(2);
        expect(out.trim().split('\n')).toEqual([expect.stringMatching(/^error: cannot write reports to "/)]);
        expect(requests).toBe(0);
      } finally {
        await proxy.close();
      }
    }, 15_000);
  }
});
