/**
 * A misconfigured run is refused before its rules, in one line that keeps
 * the server's own words: a wrong base URL or Service-Version, a wrong
 * restricted key, a missing or empty API key; and a run whose key was
 * refused is never recorded as known failures.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';

let server: ReferenceServer;
let counting: TestServer;
let dir: string;
let profilePath: string;
beforeAll(async () => {
  server = await startReferenceServer({});
  counting = await startTestServer((_req, res) => {
    res.writeHead(500);
    res.end();
  });
  dir = await mkdtemp(join(tmpdir(), 'dc-keys-'));
  profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(server.profile));
});
afterAll(async () => {
  await server.close();
  await counting.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) }, env);
  return { code, out };
}

function external(extra: string[], reports: string): string[] {
  return ['run', '--base-url', server.url, '--profile', profilePath, '--reports', join(dir, reports), ...extra];
}

describe('preflight says what the server said', () => {
  test('a base URL with a wrong prefix: the server\'s "unknown operation", not the profile\'s kinds', async () => {
    const r = await cli(
      ['run', '--base-url', `${server.url}/v1`, '--profile', profilePath, '--reports', join(dir, 'v1')],
      { DIRECTORY_API_KEY: server.apiKey },
    );
    expect(r.code).toBe(2);
    expect(r.out).toContain('unknown operation "/v1/api/directory/resources.list"');
    expect(r.out).toContain('check --base-url and --service-version');
    expect(r.out).not.toContain('fix kinds');
    expect(r.out.trim().split('\n')).toHaveLength(1);
  });

  test("a Service-Version the server does not support: the server's words", async () => {
    const r = await cli(external(['--service-version', '27.01.01'], 'version'), { DIRECTORY_API_KEY: server.apiKey });
    expect(r.code).toBe(2);
    expect(r.out).toContain('Service-Version "27.01.01" is not supported');
    expect(r.out).not.toContain('fix kinds');
    expect(r.out.trim().split('\n')).toHaveLength(1);
  });

  test('a wrong restricted key is refused at preflight: exit 2, one line, no report written', async () => {
    const r = await cli(external([], 'restricted'), {
      DIRECTORY_API_KEY: server.apiKey,
      DIRECTORY_RESTRICTED_API_KEY: 'not-the-restricted-key',
    });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^cannot run: the target refused the restricted key \(answered 401: .*\); check /);
    expect(r.out).not.toContain('not-the-restricted-key');
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(await readdir(join(dir, 'restricted'))).toEqual([]);
  });

  test('the right restricted key passes preflight', async () => {
    const r = await cli(external(['--rule', 'list.kind-id-required', '--quiet'], 'restricted-ok'), {
      DIRECTORY_API_KEY: server.apiKey,
      DIRECTORY_RESTRICTED_API_KEY: server.restrictedApiKey,
    });
    expect(r.out).not.toContain('cannot run');
    expect(r.code).toBe(0);
  });
});

describe('an API key is required by an external target, before any request', () => {
  test.each([
    [
      'unset',
      {},
      'error: no API key for the target: set DIRECTORY_API_KEY (or --api-key, "apiKey") to the key the target issued',
    ],
    [
      'empty',
      { DIRECTORY_API_KEY: '' },
      'error: the API key is empty (DIRECTORY_API_KEY): set it to the key the target issued',
    ],
    [
      'blank',
      { DIRECTORY_API_KEY: '  ' },
      'error: the API key is empty (DIRECTORY_API_KEY): set it to the key the target issued',
    ],
  ])('%s: one line, exit 2, nothing sent', async (_name, env, says) => {
    const r = await cli(
      ['run', '--base-url', counting.url, '--profile', profilePath, '--reports', join(dir, 'nokey')],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.out).toBe(`${says}\n`);
    expect(counting.requests).toEqual([]);
  });
});

describe('expectations update', () => {
  test('refuses a run whose key the target refused: a misconfiguration is no known failure', async () => {
    const reports = join(dir, 'good');
    expect((await cli(['run', '--rule', 'list.*', '--quiet', '--seed', '1', '--reports', reports])).code).toBe(0);
    const results = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8')) as {
      results: Array<Record<string, unknown>>;
    };
    const [first, second] = results.results;
    for (const r of [first, second]) {
      if (!r) throw new Error('the run has fewer than two rules');
      Object.assign(r, {
        verdict: 'ERROR',
        errorCode: 'DC_ERR_UNAUTHENTICATED',
        reason: 'resources.list: the credential was refused (401)',
      });
    }
    const from = join(dir, 'refused.json');
    await writeFile(from, JSON.stringify(results));
    const file = join(dir, 'expectations.json');
    const r = await cli(['expectations', 'update', '--from', from, '--file', file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe(
      `error: ${from}: 2 rule(s) ERROR because the target refused a key (DC_ERR_UNAUTHENTICATED: ` +
        `${String(first?.ruleId)}, ${String(second?.ruleId)}); fix the key and run again: a misconfiguration is no known failure\n`,
    );
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });
});
