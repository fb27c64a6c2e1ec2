import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPORT_FILES } from '../../src/report/reports-dir.ts';
import { main } from '../../src/cli/main.ts';

interface Captured {
  code: number;
  out: string;
  err: string;
}

async function cli(args: string[]): Promise<Captured> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (err += `${l}\n`) });
  return { code, out, err };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('CLI', () => {
  test('--help for every command exits 0', async () => {
    for (const args of [['--help'], ['run', '--help'], ['serve', '--help'], ['rules', '--help']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.out).toMatch(/directory-conformance/);
    }
  });

  test('usage mistakes exit 2 with a clear message', async () => {
    expect((await cli(['nope'])).code).toBe(2);
    const badFlag = await cli(['run', '--no-such-flag']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toMatch(/no-such-flag/);
    const noProfile = await cli(['run', '--base-url', 'http://127.0.0.1:9']);
    expect(noProfile.code).toBe(2);
    expect(noProfile.err).toMatch(/--profile/);
    expect((await cli(['run', '--level', 'SHOULD'])).code).toBe(2);
    expect((await cli(['run', '--rule', 'no.such.rule'])).code).toBe(2);
  });

  test('an unreachable target exits 2, never 0', async () => {
    const r = await cli([
      'run',
      '--base-url',
      'http://127.0.0.1:9',
      '--profile',
      'fixtures/example-profile.json',
      '--api-key',
      'k-0123456789',
      '--timeout',
      '500',
      '--reports',
      dir,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot be reached/);
    expect(r.out + r.err).not.toContain('k-0123456789');
  });

  test('a target that refuses the credential exits 2 before any rule runs', async () => {
    const { startReferenceServer } = await import('../../src/reference-server/index.ts');
    const server = await startReferenceServer({ resources: 50 });
    try {
      const r = await cli([
        'run',
        '--base-url',
        server.url,
        '--profile',
        'fixtures/example-profile.json',
        '--api-key',
        'dc-wrong-key-0123456789',
        '--reports',
        dir,
      ]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/refused the credential \(answered 401: the credentials are not valid\)/);
      expect(r.out + r.err).not.toContain('dc-wrong-key-0123456789');
    } finally {
      await server.close();
    }
  });

  test('rules lists the catalogue', async () => {
    const r = await cli(['rules', '--section', '4.9']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/pagination\.exact-multiple-empty-page/);
    expect(r.out).not.toMatch(/revoke-roles\./);
    // From a clone the group's source file is named; the installed package has none (test/package).
    expect(r.out).toContain('§4.9 Pagination protocol  (specs/pagination.spec.ts)');
  });

  test('run against the embedded server writes the three reports and exits 0', async () => {
    const r = await cli(['run', '--section', '4.9', '--reports', dir, '--seed', '7', '--num-runs', '3', '--quiet']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/CONFORMANT/);
    const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as {
      results: Array<{ ruleId: string; verdict: string }>;
    };
    expect(
      results.results.some((x) => x.ruleId === 'pagination.exact-multiple-empty-page' && x.verdict === 'PASS'),
    ).toBe(true);
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toMatch(/<html/i);
  });

  test("run --help's --reports names every file a run writes there", async () => {
    const help = (await cli(['run', '--help'])).out;
    const reports = help.slice(help.indexOf('  --reports DIR'), help.indexOf('  --history DIR'));
    for (const file of REPORT_FILES) expect(reports, file).toContain(file);
    expect(reports).toContain('journal.jsonl');
  });

  test('a server with a fault exits 1 and names the rule', async () => {
    const r = await cli([
      'run',
      '--rule',
      'pagination.exact-multiple-empty-page',
      '--fault',
      'pagination-no-trailing-empty-page',
      '--reports',
      dir,
      '--quiet',
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL pagination\.exact-multiple-empty-page/);
  });

  test('--dry-run sends nothing and lists the plan', async () => {
    const r = await cli(['run', '--dry-run', '--section', '4.1']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/revoke-roles\.star-to-explicit-enabled/);
    expect(r.out).toMatch(/nothing is sent/);
  });
});

describe('serve', () => {
  test('prints the URL, both keys and the profile, serves until stopped', async () => {
    const { serveCommand } = await import('../../src/cli/serve-command.ts');
    let out = '';
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const done = serveCommand(
      ['--port', '0', '--resources', '50'],
      { out: (l) => (out += `${l}\n`), err: () => undefined },
      stopped,
    );
    for (let i = 0; i < 50 && !out.includes('Target profile'); i++) await new Promise((r) => setTimeout(r, 20));
    const url = /listening at (\S+)/.exec(out)![1]!;
    const key = /API key:\s+(\S+)/.exec(out)![1]!;
    expect(out).toMatch(/restricted API key:\s+\S+/);
    expect(out).toMatch(/"mutableResources"/);
    const res = await fetch(`${url}/api/directory/resources.list-roles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: '{}',
    });
    expect(res.status).toBe(200);
    stop();
    expect(await done).toBe(0);
  });
});
