/**
 * `directory-conformance proxy`: in front of the embedded reference server
 * (and of small upstreams on loopback that gzip, fail or echo a key), each
 * answer comes back as the upstream gave it, byte for byte; an upstream that
 * refuses or breaks the connection has the client's reset, never a 502; an
 * ordinary client's traffic through it shows no violation against the
 * conformant server and the broken rule against a faulty one, printed as it
 * is found and in the reports; the key is in no file it writes, in any
 * encoding; the header is added only with --annotate; SIGUSR1 writes the
 * reports and the proxy goes on.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.ts';
import { main } from '../../src/cli/main.ts';
import { reportsAsked } from '../../src/cli/proxy-command.ts';
import { KEY_ENCODINGS, KEY_ENCODING_NAMES } from '../../src/hostile-server/key-encodings.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import type { FaultName } from '../../src/reference-server/faults.ts';
import { allRules, loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { resultsJsonProblems } from '../../src/schemas/results-schema.ts';
import { startProxy, VIOLATIONS_HEADER, type ProxySession } from '../../src/session/proxy-session.ts';
import { listKindId, type TargetProfile } from '../../src/target/profile.ts';
import { browse } from '../helpers/browse.ts';
import { startTestServer } from '../helpers/http-server.ts';
import { keyLeaks } from '../helpers/key-leaks.ts';
import { PlainHarClient } from '../helpers/plain-har.ts';

let dir: string;
let reference: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-proxy-'));
  reference = await startReferenceServer();
});
afterAll(async () => {
  await reference.close();
  await rm(dir, { recursive: true, force: true });
});

let sessions = 0;

/** A proxy in front of `upstream`, its printed lines kept. */
async function proxied(
  upstream: string,
  profile: TargetProfile,
  options: { annotate?: boolean } = {},
): Promise<{ session: ProxySession; lines: string[]; reports: string }> {
  const catalogue = await loadCatalogue();
  const lines: string[] = [];
  sessions += 1;
  const reports = join(dir, `reports-${sessions}`);
  const session = await startProxy({
    upstream: new URL(upstream),
    port: 0,
    annotate: options.annotate === true,
    reports,
    profile,
    groups: selectRules(catalogue, {}),
    selection: { catalogueSize: allRules(catalogue).length },
    onViolation: (line) => lines.push(line),
  });
  return { session, lines, reports };
}

type Answer =
  | { status: number; message: string; rawHeaders: string[]; headers: IncomingHttpHeaders; body: Buffer }
  | { error: string };

/** One request on a connection of its own, the answer's bytes as they came (nothing decoded), or the error. */
function send(base: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { method: 'POST', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          message: res.statusMessage ?? '',
          // The Date header is the clock's when each answer was made: two answers a second apart differ there.
          rawHeaders: res.rawHeaders.map((v, i) =>
            i % 2 === 1 && res.rawHeaders[i - 1]?.toLowerCase() === 'date' ? 'DATE' : v,
          ),
          headers: { ...res.headers, ...(res.headers.date !== undefined ? { date: 'DATE' } : {}) },
          body: Buffer.concat(chunks),
        }),
      );
      res.on('aborted', () => resolve({ error: 'aborted' }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

const LIST = '/api/directory/resources.list';

/** Every file under `root`, with its path. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('proxy: forwarding', () => {
  test('answers come back byte for byte: status, message, headers in their order, body', async () => {
    const { session } = await proxied(reference.url, reference.profile);
    try {
      const auth = { authorization: `Bearer ${reference.apiKey}`, 'content-type': 'application/json' };
      const kind = listKindId(reference.profile);
      const requests: Array<[string, string, Record<string, string>]> = [
        [LIST, JSON.stringify({ kind_id: kind, with_teams: true, pagination: { limit: 3, next_token: null } }), auth],
        [LIST, JSON.stringify({ kind_id: kind, pagination: { limit: 0, next_token: null } }), auth],
        [LIST, '{not json', auth],
        [LIST, JSON.stringify({ kind_id: kind, pagination: { limit: 3, next_token: null } }), {}],
        [
          '/api/directory/resources.show-teams',
          JSON.stringify({ resource_id: '1', date_range: '2026-01-01/2026-01-31' }),
          auth,
        ],
        ['/api/directory/no-such-operation', '{}', auth],
      ];
      for (const [path, body, headers] of requests) {
        const direct = await send(reference.url, path, body, headers);
        const through = await send(session.url, path, body, headers);
        expect(through, `${path} ${body}`).toEqual(direct);
      }
    } finally {
      await session.close();
    }
  });

  test("a gzip'd answer passes still encoded, byte for byte, and its decoded copy is judged", async () => {
    const page = { data: [{ id: '11' }, { id: '12' }], next_token: null };
    const gzipped = gzipSync(Buffer.from(JSON.stringify(page)));
    const upstream = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-upstream': 'yes' });
      res.end(gzipped);
    });
    const { session, lines } = await proxied(upstream.url, reference.profile);
    try {
      const body = JSON.stringify({ kind_id: '1', pagination: { limit: 1, next_token: null } });
      const direct = await send(upstream.url, LIST, body, { 'accept-encoding': 'gzip' });
      const through = await send(session.url, LIST, body, { 'accept-encoding': 'gzip' });
      expect(through).toEqual(direct);
      expect('body' in through && through.body.equals(gzipped)).toBe(true);
      // Two resources on a page of one: pagination.limit-respected read the decoded answer.
      await session.writeReports();
      expect(
        lines.some((l) => l.startsWith('VIOLATION pagination.limit-respected at resources.list, exchange 1')),
      ).toBe(true);
      // The proxy forwarded the client's request as it came.
      expect(upstream.requests.at(-1)?.body).toBe(body);
      expect(upstream.requests.at(-1)?.headers['accept-encoding']).toBe('gzip');
    } finally {
      await session.close();
      await upstream.close();
    }
  });

  test("an upstream 500 passes as it came; the proxy adds no header of its own and never answers in the upstream's place", async () => {
    const upstream = await startTestServer((_req, res) => {
      res.writeHead(500, 'Exploded', { 'content-type': 'text/plain', 'x-trace': 'abc' });
      res.end('boom');
    });
    const { session } = await proxied(upstream.url, reference.profile);
    try {
      const direct = await send(upstream.url, LIST, '{}');
      const through = await send(session.url, LIST, '{}');
      expect(through).toEqual(direct);
      expect('status' in through && through.status).toBe(500);
      expect('headers' in through && through.headers[VIOLATIONS_HEADER.toLowerCase()]).toBeUndefined();
    } finally {
      await session.close();
      await upstream.close();
    }
  });

  test('an upstream that refuses the connection: the client is reset, not answered 502', async () => {
    const gone = await startTestServer((_req, res) => {
      res.end();
    });
    const url = gone.url;
    await gone.close();
    const { session } = await proxied(url, reference.profile);
    try {
      const through = await send(session.url, LIST, '{}');
      expect(through).toEqual({ error: 'ECONNRESET' });
    } finally {
      await session.close();
    }
  });

  test('an upstream that breaks the connection halfway through a body: the client is broken off too', async () => {
    const upstream = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":[');
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
    });
    const { session } = await proxied(upstream.url, reference.profile);
    try {
      const through = await send(session.url, LIST, '{}');
      expect('error' in through).toBe(true);
    } finally {
      await session.close();
      await upstream.close();
    }
  });
});

/** The traffic of an ordinary client through a proxy in front of the reference server (with `fault`). */
async function browsed(fault?: FaultName): Promise<{ lines: string[]; reports: string; code: number; key: string }> {
  const server = fault ? await startReferenceServer({ faults: [fault] }) : reference;
  const { session, lines, reports } = await proxied(server.url, server.profile);
  try {
    await browse(new PlainHarClient(session.url, server.apiKey), server.profile);
    const run = await session.close();
    return { lines, reports, code: exitCodeOf(run.summary), key: server.apiKey };
  } finally {
    await session.close();
    if (fault) await server.close();
  }
}

/** Each rule's verdict in results.json, checked against its schema first. */
async function verdictsIn(reports: string): Promise<Map<string, string>> {
  const results: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
  expect(resultsJsonProblems(results)).toEqual([]);
  const all: unknown = Reflect.get(Object(results), 'results');
  return new Map(
    (Array.isArray(all) ? all : []).map((r: unknown): [string, string] => [
      String(Reflect.get(Object(r), 'ruleId')),
      String(Reflect.get(Object(r), 'verdict')),
    ]),
  );
}

describe('proxy: judging', () => {
  test('an ordinary client against the conformant server: no violation, no FAIL, the reports written', async () => {
    const { lines, reports, code } = await browsed();
    expect(lines).toEqual([]);
    const verdicts = await verdictsIn(reports);
    expect([...verdicts.values()]).not.toContain('FAIL');
    for (const id of ['pagination.envelope', 'list.with-teams', 'list.ids-filter', 'errors.message-present'])
      expect(verdicts.get(id), id).toBe('PASS');
    expect(code).not.toBe(1);
    expect(await readdir(reports)).toEqual(
      expect.arrayContaining(['results.json', 'index.html', 'junit.xml', 'summary.md', 'exchanges.har']),
    );
  }, 60_000);

  test.each([
    ['list-with-teams-ignored', 'list.with-teams'],
    ['errors-404-without-message', 'errors.message-present'],
    ['pagination-repeats-last-item', 'pagination.each-resource-once'],
  ] as const)(
    'the fault %s: %s printed as found, FAIL in the reports, exit 1',
    async (fault, rule) => {
      const { lines, reports, code } = await browsed(fault);
      expect(
        lines.some((l) => l.startsWith(`VIOLATION ${rule} at `)),
        lines.join('\n'),
      ).toBe(true);
      expect((await verdictsIn(reports)).get(rule)).toBe('FAIL');
      expect(code).toBe(1);
      expect(await readdir(join(reports, 'reproduce'))).toContain(`${rule}.sh`);
    },
    60_000,
  );

  test('a key the client sent and the upstream echoed, in every encoding, is in no file written nor line printed', async () => {
    const key = 'dcproxy_S3cr3t/+=key';
    const echoed = KEY_ENCODING_NAMES.map((name) => KEY_ENCODINGS[name](`Bearer ${key}`)).join(' ');
    const upstream = await startTestServer((req, res, body) => {
      // An error answer without a message (errors.message-present departs), holding the key in every encoding.
      if (body.includes('"bad"')) {
        res.writeHead(400, { 'content-type': 'application/json', 'x-echo': KEY_ENCODINGS.base64(key) });
        res.end(JSON.stringify({ echo: echoed, auth: req.headers.authorization }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `session=${key}` });
      res.end(JSON.stringify({ data: [{ id: '1', label: echoed }], next_token: null }));
    });
    const { session, lines, reports } = await proxied(upstream.url, reference.profile);
    try {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const answer = await send(session.url, LIST, JSON.stringify({ bad: true, key }), headers);
      // Passed through as it came.
      expect('body' in answer && keyLeaks(answer.body.toString('utf8'), key)).not.toEqual([]);
      await send(
        session.url,
        LIST,
        JSON.stringify({ kind_id: '1', pagination: { limit: 5, next_token: null } }),
        headers,
      );
      await session.writeReports();
    } finally {
      await session.close();
      await upstream.close();
    }
    expect(lines.some((l) => l.startsWith('VIOLATION errors.message-present'))).toBe(true);
    for (const line of lines) expect(keyLeaks(line, key), line).toEqual([]);
    const files = await filesUnder(reports);
    expect(files.map((f) => f.slice(reports.length + 1))).toEqual(expect.arrayContaining(['exchanges.har']));
    for (const file of files) expect(keyLeaks(await readFile(file, 'utf8'), key), file).toEqual([]);
  });

  test("reads with the profile's restricted key are the restricted caller's: a field that leaks FAILs, redacted ones PASS", async () => {
    for (const [fault, verdict] of [
      [undefined, 'PASS'],
      ['redaction-leaks-external-id', 'FAIL'],
    ] as const) {
      const upstream = await startReferenceServer({ faults: fault ? [fault] : [] });
      try {
        const { session, reports } = await proxied(upstream.url, upstream.profile);
        const client = new PlainHarClient(session.url, upstream.restrictedApiKey);
        const body = {
          resource_id: upstream.profile.mutableResources[0]?.id ?? '',
          date_range: '1900-01-01/2199-12-31',
        };
        expect((await client.post('resources.show-teams', body)).status).toBe(200);
        await session.close();
        expect((await verdictsIn(reports)).get('auth.restricted-fields-redacted')).toBe(verdict);
      } finally {
        await upstream.close();
      }
    }
  }, 60_000);

  test('--annotate adds the header, naming the rules the answer showed broken; without it, none', async () => {
    const page = JSON.stringify({ data: [{ id: '11' }, { id: '12' }], next_token: null });
    const upstream = await startTestServer((req, res) => {
      if (req.url?.endsWith('resources.show-teams')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'no such resource' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(page);
    });
    const body = JSON.stringify({ kind_id: '1', pagination: { limit: 1, next_token: null } });
    const plain = await proxied(upstream.url, reference.profile);
    const annotating = await proxied(upstream.url, reference.profile, { annotate: true });
    try {
      const direct = await send(upstream.url, LIST, body);
      const without = await send(plain.session.url, LIST, body);
      expect(without).toEqual(direct);
      const annotated = await send(annotating.session.url, LIST, body);
      expect('headers' in annotated && annotated.headers[VIOLATIONS_HEADER.toLowerCase()]).toContain(
        'pagination.limit-respected',
      );
      // The header is the one change: the body and the upstream's headers are as they came.
      expect('body' in annotated && annotated.body.toString('utf8')).toBe(page);
      const notFound = await send(annotating.session.url, '/api/directory/resources.show-teams', '{}');
      expect('headers' in notFound && notFound.headers[VIOLATIONS_HEADER.toLowerCase()]).toBe('none');
      // A request that calls no operation is not judged: its answer passes without the header.
      const other = await send(annotating.session.url, '/index.html', '');
      expect('headers' in other && other.headers[VIOLATIONS_HEADER.toLowerCase()]).toBeUndefined();
    } finally {
      await plain.session.close();
      await annotating.session.close();
      await upstream.close();
    }
  });
});

describe('proxy: reports on demand and on exit', () => {
  test("SIGUSR1's handler writes the reports of the traffic so far; the proxy goes on", async () => {
    const { session, reports } = await proxied(reference.url, reference.profile);
    const out: string[] = [];
    try {
      const client = new PlainHarClient(session.url, reference.apiKey);
      const kind = listKindId(reference.profile);
      await client.post('resources.list', { kind_id: kind, pagination: { limit: 4, next_token: null } });
      reportsAsked(session, { out: (l) => out.push(l), err: (l) => out.push(l) }, reports)();
      await expect.poll(() => out.join('\n'), { timeout: 10_000 }).toContain(`reports written to ${reports}`);
      expect((await verdictsIn(reports)).get('pagination.envelope')).toBe('PASS');
      // Still forwarding.
      const again = await client.post('resources.list', { kind_id: kind, pagination: { limit: 4, next_token: null } });
      expect(again.status).toBe(200);
    } finally {
      await session.close();
    }
  });

  test('the command: a real SIGUSR1 writes the reports, SIGTERM writes them and exits as run does', async () => {
    const reports = join(dir, 'signalled');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));",
        'proxy',
        '--upstream',
        reference.url,
        '--port',
        '0',
        '--reports',
        reports,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toMatch(/proxying (http:\/\/127\.0\.0\.1:\d+) /);
      const url = /proxying (http:\/\/127\.0\.0\.1:\d+) /.exec(output)?.[1] ?? '';
      const client = new PlainHarClient(url, reference.apiKey);
      await client.post('resources.list', {
        kind_id: listKindId(reference.profile),
        pagination: { limit: 4, next_token: null },
      });
      child.kill('SIGUSR1');
      await expect.poll(() => output, { timeout: 20_000 }).toContain(`reports written to ${reports}`);
      expect(await readdir(reports)).toContain('results.json');
      child.kill('SIGTERM');
      const code = await exited;
      expect(output).toContain(`reports in ${reports}`);
      // Nothing FAILed; most rules saw no evidence in one page: inconclusive, as run says it.
      expect([0, 3]).toContain(code);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  test('usage: --upstream is needed, and must be an http URL (exit 2)', async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await main(['proxy'], io)).toBe(2);
    expect(lines.join('\n')).toContain('--upstream');
    expect(await main(['proxy', '--upstream', 'ftp://example.test'], io)).toBe(2);
    expect(await main(['proxy', '--help'], io)).toBe(0);
    expect(lines.join('\n')).toContain(VIOLATIONS_HEADER);
  });
});
