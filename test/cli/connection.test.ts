/**
 * How requests reach the target: fixed extra headers (`--header`, the value
 * of a credential-like one never in a report), an HTTP proxy (`--proxy`, or
 * HTTP_PROXY/HTTPS_PROXY/NO_PROXY) and extra CA certificates (`--ca-cert`),
 * each through the one run configuration; and fail-fast (`--max-failures`).
 * Everything on loopback: a forward proxy and an HTTPS front, both on port 0,
 * with a certificate made by node:crypto.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { toCurl } from '../../src/report/curl.ts';
import { matchesFileSchema } from '../../src/schemas/files.ts';
import { parseHeaders, proxyFromEnv } from '../../src/session/connection-options.ts';
import { keyLeaks } from '../helpers/key-leaks.ts';
import { selfSignedCertificate } from '../helpers/self-signed.ts';

const TOKEN = 'hdr_S3CRET-token-value-9f8e7d';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A forward proxy: each request comes in absolute form and goes to `upstream` (whatever host it names). */
async function startProxy(upstream: () => string): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] =>
            typeof e[1] === 'string' && !['host', 'connection', 'proxy-connection', 'content-length'].includes(e[0]),
        ),
      );
      request(`${upstream()}${path}`, { method: 'POST', headers, body: Buffer.concat(chunks) })
        .then(async (up) => {
          const type = up.headers['content-type'];
          res.writeHead(up.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
          res.end(Buffer.from(await up.body.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  return { ...(await listen(server, 'http')), seen };
}

async function listen(server: Server, scheme: string): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let server: ReferenceServer;
let dir: string;
let profilePath: string;
beforeAll(async () => {
  server = await startReferenceServer({});
  dir = await mkdtemp(join(tmpdir(), 'dc-connection-'));
  profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(server.profile));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) }, env);
  return { code, out };
}

const RULE = ['--rule', 'list.kind-id-required', '--quiet'];

function run(baseUrl: string, reports: string, extra: string[]): string[] {
  return ['run', '--base-url', baseUrl, '--profile', profilePath, '--reports', join(dir, reports), ...RULE, ...extra];
}

/** Every report of a folder as one text. */
async function reportsText(folder: string): Promise<string> {
  const files = await readdir(join(dir, folder));
  const texts = await Promise.all(files.map((f) => readFile(join(dir, folder, f), 'utf8')));
  return texts.join('\n');
}

describe('--proxy and the proxy variables', () => {
  test('--proxy: every request of the run, preflight included, goes through the proxy', async () => {
    const proxy = await startProxy(() => server.url);
    try {
      const r = await cli(run(server.url, 'proxy', ['--proxy', proxy.url]), { DIRECTORY_API_KEY: server.apiKey });
      expect(r.code, r.out).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(1);
      for (const s of proxy.seen) expect(s.url).toMatch(new RegExp(`^${server.url}/api/directory/`));
    } finally {
      await proxy.close();
    }
  });

  test('HTTP_PROXY reaches a target by its name through the proxy; a config file gives way to it', async () => {
    const proxy = await startProxy(() => server.url);
    const unused = await startProxy(() => server.url);
    const config = join(dir, 'proxy-config.json');
    await writeFile(config, JSON.stringify({ proxy: unused.url }));
    try {
      // The name is never looked up: the proxy is asked for it.
      const r = await cli(run('http://directory.example:8080', 'env-proxy', ['--config', config]), {
        DIRECTORY_API_KEY: server.apiKey,
        HTTP_PROXY: proxy.url,
      });
      expect(r.code, r.out).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(1);
      expect(proxy.seen[0]?.url).toBe('http://directory.example:8080/api/directory/resources.list');
      expect(unused.seen).toHaveLength(0);
    } finally {
      await proxy.close();
      await unused.close();
    }
  });

  test('the variables never proxy a loopback target', async () => {
    const proxy = await startProxy(() => server.url);
    try {
      const r = await cli(run(server.url, 'loopback', []), { DIRECTORY_API_KEY: server.apiKey, HTTP_PROXY: proxy.url });
      expect(r.code, r.out).toBe(0);
      expect(proxy.seen).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  });

  test('which variable for which target, and NO_PROXY', () => {
    const env = { HTTPS_PROXY: 'http://s.proxy:3128', http_proxy: 'http://lower.proxy:3128', HTTP_PROXY: 'http://p:1' };
    expect(proxyFromEnv(env, 'https://api.example.com')?.proxy).toBe('http://s.proxy:3128');
    expect(proxyFromEnv(env, 'http://api.example.com')).toEqual({
      proxy: 'http://lower.proxy:3128',
      variable: 'http_proxy',
    });
    expect(proxyFromEnv({ HTTP_PROXY: 'http://p:1' }, 'https://api.example.com')).toBeUndefined();
    for (const noProxy of [
      'api.example.com',
      '.example.com',
      'example.com',
      '*.example.com',
      'x, example.com:443',
      '*',
    ])
      expect(proxyFromEnv({ ...env, NO_PROXY: noProxy }, 'https://api.example.com'), noProxy).toBeUndefined();
    for (const noProxy of ['other.com', 'ample.com', 'example.com:8443'])
      expect(proxyFromEnv({ ...env, NO_PROXY: noProxy }, 'https://api.example.com'), noProxy).toBeDefined();
    for (const host of ['http://localhost:8080', 'http://127.0.0.1', 'http://[::1]:80'])
      expect(proxyFromEnv(env, host), host).toBeUndefined();
    expect(() => proxyFromEnv({ HTTP_PROXY: 'socks://p:1' }, 'http://a.example')).toThrow(
      /^HTTP_PROXY must be an http\(s\) proxy URL/,
    );
  });
});

describe('--header', () => {
  test('each header goes with every request; a credential-like value is in no report, a plain one is', async () => {
    const proxy = await startProxy(() => server.url);
    try {
      const r = await cli(
        run(server.url, 'headers', [
          '--proxy',
          proxy.url,
          '--header',
          'X-Tenant: acme',
          '--header',
          `X-Api-Token: ${TOKEN}`,
        ]),
        { DIRECTORY_API_KEY: server.apiKey },
      );
      expect(r.code, r.out).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(1);
      for (const s of proxy.seen) {
        expect(s.headers['x-tenant']).toBe('acme');
        expect(s.headers['x-api-token']).toBe(TOKEN);
      }
      const text = await reportsText('headers');
      expect(keyLeaks(text, TOKEN)).toEqual([]);
      expect(text).toContain('$DIRECTORY_HEADER_X_API_TOKEN');
      const results = await readFile(join(dir, 'headers', 'results.json'), 'utf8');
      expect(results).toContain('"x-tenant": "acme"');
      // The curl replay expands the placeholder from the user's environment.
      const file: unknown = JSON.parse(results);
      if (!matchesFileSchema('ResultsFile', file)) throw new Error('results.json does not match its schema');
      const exchange = file.results[0]?.exchanges[0];
      expect(exchange && toCurl(exchange)).toContain('-H "x-api-token: $DIRECTORY_HEADER_X_API_TOKEN"');
    } finally {
      await proxy.close();
    }
  });

  test('runConformance and a config file take them too', async () => {
    const proxy = await startProxy(() => server.url);
    try {
      await runConformance({
        baseUrl: server.url,
        apiKey: server.apiKey,
        profile: server.profile,
        proxy: proxy.url,
        headers: ['X-Tenant: from-api'],
        rules: ['list.kind-id-required'],
      });
      expect(proxy.seen.map((s) => s.headers['x-tenant'])).toContain('from-api');
    } finally {
      await proxy.close();
    }
  });

  test('what is refused, in one line that never repeats the value', () => {
    expect(parseHeaders(['X-A: 1', 'x-b:two words '])).toEqual({ 'x-a': '1', 'x-b': 'two words' });
    const refusals: Array<[string[], RegExp]> = [
      [['no colon here'], /^--header must be "Name: value" with a header name before the colon, got no colon$/],
      [['bad name: x'], /got "bad name:"$/],
      [
        [`Authorization: Bearer ${TOKEN}`],
        /^--header cannot set Authorization: the suite sets it itself from the API key/,
      ],
      [['Service-Version: 1'], /--service-version/],
      [['X-A: 1', 'x-a: 2'], /^--header x-a is given twice$/],
    ];
    for (const [entries, message] of refusals) {
      expect(() => parseHeaders(entries)).toThrow(message);
      try {
        parseHeaders(entries);
      } catch (e) {
        expect(String(e)).not.toContain(TOKEN);
      }
    }
  });

  test('the CLI refuses a bad header, proxy or CA file before any request, exit 2', async () => {
    const garbage = join(dir, 'garbage.pem');
    await writeFile(garbage, 'not a certificate\n');
    const broken = join(dir, 'broken.pem');
    await writeFile(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const cases: Array<[string[], string]> = [
      [['--header', `Authorization: ${TOKEN}`], 'error: --header cannot set Authorization'],
      [
        ['--proxy', 'ftp://proxy:21'],
        'error: --proxy must be an http(s) proxy URL such as http://proxy.example:3128, got "ftp://proxy:21"',
      ],
      [
        ['--proxy', 'http://user:pw@'],
        'error: --proxy must be an http(s) proxy URL such as http://proxy.example:3128, got "http://…@"',
      ],
      [
        ['--ca-cert', join(dir, 'missing.pem')],
        `error: cannot read the CA certificate file ${join(dir, 'missing.pem')}: ENOENT`,
      ],
      [['--ca-cert', garbage], `error: the CA certificate file ${garbage} holds no PEM certificate`],
      [['--ca-cert', broken], `error: the CA certificate file ${broken}: certificate 1 of 1 does not parse`],
      [['--ca-cert', dir], `error: the CA certificate file ${dir} is a folder, not a regular file`],
      [['--max-failures', '0'], 'error: --max-failures must be >= 1, got 0'],
    ];
    for (const [flags, message] of cases) {
      const r = await cli(run('http://127.0.0.1:9', 'refused', flags), { DIRECTORY_API_KEY: 'k-1234' });
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.out.split('\n')[0], flags.join(' ')).toContain(message);
      expect(r.out).not.toContain(TOKEN);
    }
  });
});

describe('restore', () => {
  test('reaches the target as the run did: through --proxy, with the --header values', async () => {
    const proxy = await startProxy(() => server.url);
    // A run that changed a resource and put it back, its journal then cut as a crash would leave it:
    // the change announced, never marked restored.
    const reports = join(dir, 'restore-run');
    const changed = await cli(
      run(server.url, 'restore-run', ['--allow-mutations', '--rule', 'activity-rates.assign-no-content']),
      { DIRECTORY_API_KEY: server.apiKey },
    );
    expect(changed.code, changed.out).toBe(0);
    const journal = join(reports, 'journal.jsonl');
    const kept = (await readFile(journal, 'utf8')).split('\n').filter((l) => !l.includes('"restored"'));
    expect(kept.some((l) => l.includes('"changing"'))).toBe(true);
    await writeFile(journal, kept.join('\n'));
    try {
      const args = ['restore', journal, '--api-key', server.apiKey, '--proxy', proxy.url];
      const r = await cli([...args, '--header', `X-Api-Token: ${TOKEN}`]);
      expect(r.code, r.out).toBe(0);
      expect(r.out).not.toContain(TOKEN);
      expect(proxy.seen.length).toBeGreaterThan(0);
      for (const s of proxy.seen) expect(s.headers['x-api-token']).toBe(TOKEN);
    } finally {
      await proxy.close();
    }
  });
});

describe('--ca-cert', () => {
  test('a target whose certificate chains to the given CA is reached; without it, refused at preflight', async () => {
    const { cert, key } = selfSignedCertificate();
    const caPath = join(dir, 'ca.pem');
    await writeFile(caPath, cert);
    // An HTTPS front for the reference server, its certificate signed by nobody the machine trusts.
    const front = createHttpsServer({ cert, key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            (e): e is [string, string] =>
              typeof e[1] === 'string' && !['host', 'connection', 'content-length'].includes(e[0]),
          ),
        );
        request(`${server.url}${req.url ?? '/'}`, { method: 'POST', headers, body: Buffer.concat(chunks) })
          .then(async (up) => {
            const type = up.headers['content-type'];
            res.writeHead(up.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
            res.end(Buffer.from(await up.body.arrayBuffer()));
          })
          .catch(() => res.destroy());
      });
    });
    const https = await listen(front, 'https');
    try {
      const trusted = await cli(run(https.url, 'tls', ['--ca-cert', caPath]), { DIRECTORY_API_KEY: server.apiKey });
      expect(trusted.code, trusted.out).toBe(0);
      const untrusted = await cli(run(https.url, 'tls-untrusted', []), { DIRECTORY_API_KEY: server.apiKey });
      expect(untrusted.code).toBe(2);
      expect(untrusted.out).toMatch(/self[- ]signed/i);
      // The variable names the file as well.
      const fromEnv = await cli(run(https.url, 'tls-env', []), {
        DIRECTORY_API_KEY: server.apiKey,
        DIRECTORY_CA_CERT: caPath,
      });
      expect(fromEnv.code, fromEnv.out).toBe(0);
    } finally {
      await https.close();
    }
  });
});

describe('--max-failures', () => {
  test('after N FAILs no rule starts: the rest is NOT-TESTED with the reason, and the run exits 1', async () => {
    const reports = join(dir, 'fail-fast');
    const r = await cli([
      'run',
      '--fault',
      'pagination-limit-exceeded',
      '--concurrency',
      '1',
      '--max-failures',
      '1',
      '--reports',
      reports,
      '--quiet',
    ]);
    expect(r.code, r.out).toBe(1);
    const file: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
    if (!matchesFileSchema('ResultsFile', file)) throw new Error('results.json does not match its schema');
    const rows = file.results;
    const failed = rows.filter((x) => x.verdict === 'FAIL');
    const stopped = rows.filter((x) => x.reason?.includes('--max-failures'));
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(stopped.length).toBeGreaterThan(0);
    expect(failed.length + stopped.length).toBeLessThanOrEqual(rows.length);
    for (const s of stopped) {
      expect(s.verdict).toBe('NOT-TESTED');
      expect(s.reason).toBe('not started: the run stopped after 1 FAIL (--max-failures)');
    }
  });
});
