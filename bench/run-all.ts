/**
 * `npm run bench`: ratios measured side by side in one run, printed as a
 * Markdown table (docs/performance.md carries the latest one) and written to
 * reports/bench.json. Goals (2 cores): a full default run under 20 s; the
 * suite's HTTP layer at least 0.9 of a bare undici loop; the reference
 * server at least 0.8 of a bare node:http server sending the same bytes;
 * page time at 1,000,000 resources within 1.5x of 10,000; the full paging
 * check over 1,000,000 resources, the server in its own process, at 50,000
 * resources/s or more with the suite's peak RSS at most 256 MB; a walk of
 * 1,000,000 resources through the validating proxy with the proxy's peak
 * RSS at most 256 MB and no violation.
 * A goal not met is named on stderr and the bench exits 1.
 */
// Each measure imports what it needs itself: the process that measures the suite's memory carries
// no reference server, no CLI and no load generator it does not use.
import type { Exchange } from '../src/core/exchange.ts';
import { createServer } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import type { ReferenceServer } from '../src/reference-server/index.ts';

import { unknownMeasures, verdictOf, MEASURES, type Row } from './goals.ts';

const rows: Row[] = [];
const CONCURRENCY = 8;

/**
 * A module of the build (`npm run build`, dist/), typed as its source: the in-process ratios measure
 * the JavaScript the CLI runs, not the same code as a TypeScript loader transforms it on the fly.
 */
async function built<T>(path: string): Promise<T> {
  return (await import(new URL(`../dist/${path}`, import.meta.url).href)) as T;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
}

/**
 * Two loops measured in alternating rounds after a warm-up, each round a pair
 * run back to back (in turn a first, then b first), so that what disturbs one
 * round of a shared machine disturbs both of its pair alike. The ratio is the
 * median of the rounds' ratios, the rates the medians of each loop's rounds.
 */
async function compare(
  total: number,
  a: () => Promise<void>,
  b: () => Promise<void>,
): Promise<{ a: number; b: number; ratio: number }> {
  await throughput(total / 4, a);
  await throughput(total / 4, b);
  const rates: Array<[number, number]> = [];
  for (let round = 0; round < 9; round++) {
    if (round % 2 === 0) {
      const first = await throughput(total, a);
      rates.push([first, await throughput(total, b)]);
    } else {
      const second = await throughput(total, b);
      rates.push([await throughput(total, a), second]);
    }
  }
  return {
    a: median(rates.map(([x]) => x)),
    b: median(rates.map(([, y]) => y)),
    ratio: median(rates.map(([x, y]) => x / y)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Requests per second of `send`, CONCURRENCY loops for `total` requests. */
async function throughput(total: number, send: () => Promise<void>): Promise<number> {
  let left = total;
  const [, ms] = await timed(() =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await send();
      }),
    ),
  );
  return (total / ms) * 1000;
}

async function post(agent: Agent, url: string, key: string, body: unknown): Promise<string> {
  const res = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'service-version': '26.06.25' },
    body: JSON.stringify(body),
  });
  return res.body.text();
}

async function fullRun(): Promise<void> {
  const { main } = await import('../src/cli/main.ts');
  let requests = 0;
  const [code, ms] = await timed(() =>
    main(['run', '--quiet', '--seed', '1', '--reports', 'reports/bench-run'], {
      out: () => undefined,
      err: () => undefined,
    }),
  );
  const results = JSON.parse(
    await import('node:fs/promises').then((fs) => fs.readFile('reports/bench-run/results.json', 'utf8')),
  ) as { results: Array<{ requestCount: number }> };
  requests = results.results.reduce((n, r) => n + r.requestCount, 0);
  rows.push({
    measure: 'full default run against the embedded server (start-up included)',
    value: `${(ms / 1000).toFixed(1)} s, ${requests} requests, exit ${code}`,
    goal: '< 20 s',
    met: ms < 20_000,
  });
}

/** Walks pages of 100 from the middle of the collection, timing each request. */
class PageWalker {
  private token: string | null = null;
  private readonly agent = new Agent({ connections: 1 });
  private readonly url: string;

  constructor(private readonly server: ReferenceServer) {
    this.url = `${server.url}/api/directory/resources.list`;
  }

  private async page(limit: number): Promise<number> {
    const t = performance.now();
    const page = JSON.parse(
      await post(this.agent, this.url, this.server.apiKey, {
        kind_id: this.server.profile.listKindId,
        pagination: { limit, next_token: this.token },
      }),
    ) as { next_token: string | null };
    this.token = page.next_token;
    return performance.now() - t;
  }

  async skip(resources: number): Promise<void> {
    for (let skipped = 0; skipped + 10_000 <= resources; skipped += 10_000) await this.page(10_000);
  }

  /** Median time of `n` consecutive pages. */
  async median(n: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await this.page(100));
    times.sort((a, b) => a - b);
    return times[Math.floor(n / 2)]!;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function pageScaling(): Promise<void> {
  const { startReferenceServer } = await import('../src/reference-server/index.ts');
  const small = await startReferenceServer({ resources: 10_000 });
  const big = await startReferenceServer({ resources: 1_000_000 });
  const smallWalker = new PageWalker(small);
  const bigWalker = new PageWalker(big);
  await bigWalker.skip(300_000);
  // Interleaved rounds after a warm-up; the best median of each size is kept, so noise hits both alike.
  await smallWalker.median(10);
  await bigWalker.median(10);
  let smallMs = Infinity;
  let bigMs = Infinity;
  for (let round = 0; round < 4; round++) {
    smallMs = Math.min(smallMs, await smallWalker.median(15));
    bigMs = Math.min(bigMs, await bigWalker.median(15));
  }
  await Promise.all([smallWalker.close(), bigWalker.close()]);
  await Promise.all([small.close(), big.close()]);
  const ratio = bigMs / smallMs;
  rows.push({
    measure: 'median page time (limit 100), 1,000,000 vs 10,000 resources',
    value: `${bigMs.toFixed(2)} ms vs ${smallMs.toFixed(2)} ms = ${ratio.toFixed(2)}x`,
    goal: '<= 1.5x',
    met: ratio <= 1.5,
  });
}

async function serverVsBare(server: ReferenceServer): Promise<void> {
  const kindId = server.profile.listKindId;
  if (kindId === undefined) throw new Error('the reference server names no list kind');
  const body = { kind_id: kindId, pagination: { limit: 100, next_token: null } };
  const agent = new Agent({ connections: CONCURRENCY });
  const url = `${server.url}/api/directory/resources.list`;
  const bytes = await post(agent, url, server.apiKey, body);
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(bytes),
      });
      res.end(bytes);
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/directory/resources.list`;
  const {
    a: reference,
    b: plain,
    ratio,
  } = await compare(
    1000,
    async () => void (await post(agent, url, server.apiKey, body)),
    async () => void (await post(agent, bareUrl, server.apiKey, body)),
  );
  bare.closeAllConnections();
  bare.close();
  await agent.close();
  rows.push({
    measure:
      'resources.list (limit 100) req/s: reference server vs bare node:http, same bytes (median of 9 paired rounds)',
    value: `${reference.toFixed(0)} vs ${plain.toFixed(0)} = ${ratio.toFixed(2)}`,
    goal: '>= 0.8',
    met: ratio >= 0.8,
  });
}

/** autocannon's figure for the same request, same connection count, for scale. */
async function autocannonRate(url: string, key: string, body: unknown): Promise<number> {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONCURRENCY,
    duration: 3,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'service-version': '26.06.25' },
    body: JSON.stringify(body),
  });
  return result.requests.average;
}

async function clientOverhead(server: ReferenceServer): Promise<void> {
  const { DirectoryClient } = await built<typeof import('../src/client/directory-client.ts')>(
    'src/client/directory-client.js',
  );
  const { Redactor } = await built<typeof import('../src/client/redact.ts')>('src/client/redact.js');
  const { validateSchema } = await built<typeof import('../src/schemas/index.ts')>('src/schemas/index.js');
  const { keepForReport } = await built<typeof import('../src/runner/run-rules.ts')>('src/runner/run-rules.js');
  const kindId = server.profile.listKindId;
  if (kindId === undefined) throw new Error('the reference server names no list kind');
  const body = { kind_id: kindId, pagination: { limit: 100, next_token: null } };
  const agent = new Agent({ connections: CONCURRENCY });
  const redactor = new Redactor();
  redactor.add(server.apiKey, '$DIRECTORY_API_KEY');
  // A rule's transcript as the engine keeps it (its first and last exchanges), one per loop as one
  // rule runs per loop: the suite's layer as it runs, not a harness that holds more.
  const transcripts = Array.from({ length: CONCURRENCY }, () => [] as Exchange[]);
  let next = 0;
  const client = new DirectoryClient({
    baseUrl: server.url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor,
    credential: { apiKey: server.apiKey, placeholder: '$DIRECTORY_API_KEY' },
    onExchange: (e) => keepForReport(transcripts[next++ % CONCURRENCY]!, e),
  });
  const url = `${server.url}/api/directory/resources.list`;
  const {
    a: suite,
    b: bare,
    ratio,
  } = await compare(
    1000,
    async () => {
      const res = await client.post('resources.list', body);
      validateSchema('ListEnvelope', res.json);
    },
    async () => void JSON.parse(await post(agent, url, server.apiKey, body)),
  );
  await agent.close();
  const cannon = await autocannonRate(url, server.apiKey, body);
  rows.push({
    measure:
      'suite HTTP layer (transcripts + schema validation) vs bare undici request loop, req/s (median of 9 paired rounds; autocannon for scale)',
    value: `${suite.toFixed(0)} vs ${bare.toFixed(0)} = ${ratio.toFixed(2)} (autocannon: ${cannon.toFixed(0)})`,
    goal: '>= 0.9',
    met: ratio >= 0.9,
  });
}

/** The built reference server in a process of its own, with fixed keys; its URL from its output, its profile from a file. */
async function spawnServer(resources: number): Promise<{
  url: string;
  apiKey: string;
  profile: import('../src/target/profile.ts').TargetProfile;
  pid: number;
  close(): Promise<void>;
}> {
  const { spawn } = await import('node:child_process');
  const { mkdtemp, readFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'dc-bench-'));
  const profileFile = join(dir, 'profile.json');
  const apiKey = `dcbench_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const bin = new URL('../bin/directory-conformance.mjs', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--resources', String(resources), '--port', '0', '--api-key', apiKey, '--profile-out', profileFile],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before it was ready:\n${output}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      // The profile is written after the address is printed: ready once both are there.
      const address = /listening at (\S+)/.exec(output);
      if (address && output.includes(`target profile written to ${profileFile}`)) resolve(address[1]!);
    });
  });
  child.removeAllListeners('exit');
  const profile = JSON.parse(await readFile(profileFile, 'utf8')) as import('../src/target/profile.ts').TargetProfile;
  return {
    url,
    apiKey,
    profile,
    pid: child.pid!,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Peak resident memory of a process so far (VmHWM), in bytes; undefined where /proc is not there. */
async function peakRssOf(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The suite's side of the million-resource walk, in a process of its own that
 * runs the built JavaScript as the CLI does (no TypeScript loader, whose own
 * memory is the bench's, not the suite's): it prints the run's one result, its
 * duration, and its peak resident memory before and during the run.
 */
const PAGING_SUITE = `
const [url, apiKey, profileJson] = process.argv.slice(1);
const { runRules, DEFAULT_ENGINE_OPTIONS } = await import(new URL('../dist/src/runner/run-rules.js', process.env.DC_BENCH_BASE));
const { loadCatalogue, selectRules } = await import(new URL('../dist/src/runner/catalogue.js', process.env.DC_BENCH_BASE));
const catalogue = await loadCatalogue();
const selection = selectRules(catalogue, { rules: ['pagination.each-resource-once'] });
globalThis.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const started = performance.now();
const run = await runRules(
  selection,
  { baseUrl: url, serviceVersion: '26.06.25', apiKey, profile: JSON.parse(profileJson) },
  { ...DEFAULT_ENGINE_OPTIONS, ruleTimeoutMs: 600_000 },
);
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const r = run.results[0];
console.log(JSON.stringify({ verdict: r.verdict, requestCount: r.requestCount, ms, before, peak }));
`;

/**
 * The full-paging rule against a million resources, the reference server in
 * a process of its own and the suite in another (`npm run build` first):
 * resources per second, and the suite's own peak memory.
 */
async function bigPaging(): Promise<void> {
  const big = await spawnServer(1_000_000);
  const { execFile } = await import('node:child_process');
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--expose-gc', '--input-type=module', '-e', PAGING_SUITE, big.url, big.apiKey, JSON.stringify(big.profile)],
      { env: { ...process.env, DC_BENCH_BASE: import.meta.url }, maxBuffer: 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
  const { verdict, requestCount, ms, before, peak } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
    verdict: string;
    requestCount: number;
    ms: number;
    before: number;
    peak: number;
  };
  const result = { verdict, requestCount };
  // The rule walks the listed kind twice (limit 500, then 137).
  const agent = new Agent({ connections: 1 });
  const count = JSON.parse(
    await post(agent, `${big.url}/api/directory/resources.list`, big.apiKey, {
      kind_id: big.profile.listKindId,
      with_total_count: true,
      pagination: { limit: 1, next_token: null },
    }),
  ) as { total_count: number };
  await agent.close();
  const serverPeak = await peakRssOf(big.pid);
  await big.close();
  const listed = 2 * count.total_count;
  const perSecond = (listed / ms) * 1000;
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
  rows.push({
    measure:
      'full paging check (pagination.each-resource-once) against 1,000,000 resources, suite and server each in its own process',
    value:
      `${result.verdict}, ${listed} resources in ${(ms / 1000).toFixed(1)} s = ${Math.round(perSecond)}/s, ` +
      `${result.requestCount} requests, suite peak RSS ${mb(peak)} (${mb(before)} before the run)` +
      (serverPeak === undefined ? '' : `, server ${mb(serverPeak)}`),
    goal: '>= 50,000 resources/s, suite <= 256 MB',
    met: result.verdict === 'PASS' && perSecond >= 50_000 && peak <= 256e6,
  });
}

/**
 * The validating proxy over a long session: an ordinary client (no suite)
 * walks 1,000,000 resources through `proxy`, the reference server and the
 * proxy each in a process of its own (`npm run build` first), every traffic
 * rule judging as the pages pass. The proxy's peak memory (VmHWM) must stay
 * within 256 MB, and no violation be printed against the conformant server.
 */
async function proxyWalk(): Promise<void> {
  const { spawn } = await import('node:child_process');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const big = await spawnServer(1_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'dc-bench-proxy-'));
  const profileFile = join(dir, 'profile.json');
  await writeFile(profileFile, JSON.stringify(big.profile));
  const bin = new URL('../bin/directory-conformance.mjs', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    [bin, 'proxy', '--upstream', big.url, '--port', '0', '--profile', profileFile, '--reports', join(dir, 'reports')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const address = /proxying (\S+) to /.exec(output);
      if (address) {
        clearInterval(poll);
        resolve(address[1]!);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      reject(new Error(`proxy exited with ${code} before it was ready:\n${output}`));
    });
  });
  const agent = new Agent({ connections: 1 });
  let listed = 0;
  let requests = 0;
  const [, ms] = await timed(async () => {
    // Kind after kind, each walked to its end, until a million resources have passed.
    for (const kind of big.profile.kinds) {
      let token: string | null = null;
      do {
        const page = JSON.parse(
          await post(agent, `${url}/api/directory/resources.list`, big.apiKey, {
            kind_id: kind.id,
            pagination: { limit: 500, next_token: token },
          }),
        ) as { data: unknown[]; next_token: string | null };
        requests += 1;
        listed += page.data.length;
        token = page.data.length > 0 ? page.next_token : null;
      } while (token !== null);
      if (listed >= 1_000_000) break;
    }
  });
  await agent.close();
  const proxyPeak = await peakRssOf(child.pid!);
  child.kill('SIGTERM');
  const code = await exited;
  await big.close();
  await rm(dir, { recursive: true, force: true });
  const violations = output.split('\n').filter((l) => l.startsWith('VIOLATION')).length;
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
  rows.push({
    measure: 'proxy: an ordinary client walks 1,000,000 resources through it, every traffic rule judging (3 processes)',
    value:
      `${listed} resources in ${requests} requests, ${(ms / 1000).toFixed(1)} s; proxy peak RSS ` +
      `${proxyPeak === undefined ? 'not measured' : mb(proxyPeak)}; ${violations} violations; exit ${code}`,
    goal: 'proxy <= 256 MB, no violation',
    met: listed >= 1_000_000 && proxyPeak !== undefined && proxyPeak <= 256e6 && violations === 0,
  });
}

/**
 * Staging-like: the reference server behind a proxy that adds 20 ms each way
 * and enforces the real service's limits (a bucket of 500 refilled at 4 per
 * second, 32 in flight, 429 with Retry-After). The full default catalogue with
 * mutations, as against an external target (adaptive pacing), must reach its
 * verdict in under a minute, with no rule in ERROR for rate limiting and the
 * verdict of each rule what a direct run gets.
 */
async function stagingLike(): Promise<void> {
  const { runConformance } = await import('../src/api/index.ts');
  const { startReferenceServer } = await import('../src/reference-server/index.ts');
  const { startRateLimitedProxy } = await import('../src/hostile-server/rate-limited-proxy.ts');
  const seed = 20261124;
  const direct = await runConformance({ seed });
  const upstream = await startReferenceServer();
  const proxy = await startRateLimitedProxy({ upstream: upstream.url });
  try {
    const { restrictedApiKey, ...profile } = upstream.profile;
    const [run, ms] = await timed(() =>
      runConformance({
        baseUrl: proxy.url,
        apiKey: upstream.apiKey,
        ...(restrictedApiKey ? { restrictedApiKey } : {}),
        profile,
        allowMutations: true,
        seed,
        reports: 'reports/bench-staging',
      }),
    );
    const stats = proxy.stats();
    const verdicts = (r: typeof run) => new Map(r.results.map((x) => [x.ruleId, x.verdict]));
    const before = verdicts(direct);
    const changed = [...verdicts(run)]
      .filter(([id, v]) => before.get(id) !== v)
      .map(([id, v]) => `${id} ${before.get(id)}→${v}`);
    const rateErrors = run.results.filter((r) => r.verdict === 'ERROR' && /429|rate/i.test(r.reason ?? '')).length;
    rows.push({
      measure:
        'staging-like run: full default catalogue with mutations behind 20 ms each way and a 500/4 per s/32 bucket',
      value:
        `${(ms / 1000).toFixed(1)} s to the verdict (${run.summary.outcome}), ${stats.received} requests, ` +
        `${stats.rateLimited} answered 429, ${rateErrors} rate-limit ERRORs, ` +
        `${changed.length === 0 ? 'every verdict as the direct run' : `differs from the direct run: ${changed.join(', ')}`}`,
      goal: "< 60 s, no rate-limit ERROR, the direct run's verdicts",
      met: ms < 60_000 && rateErrors === 0 && changed.length === 0,
    });
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

/** Process start to exit of the built CLI, median of five. */
async function startUp(): Promise<void> {
  const { execFile } = await import('node:child_process');
  const bin = new URL('../bin/directory-conformance.mjs', import.meta.url).pathname;
  const once = (args: string[]) =>
    timed(
      () =>
        new Promise<number>((resolve) => {
          execFile(process.execPath, [bin, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error) =>
            resolve(typeof error?.code === 'number' ? error.code : 0),
          );
        }),
    );
  const medianRun = async (args: string[]) => {
    const times: number[] = [];
    let code = 0;
    for (let i = 0; i < 5; i++) {
      const [c, ms] = await once(args);
      code = c;
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    return { ms: times[2]!, code };
  };
  const help = await medianRun(['--help']);
  rows.push({
    measure: 'directory-conformance --help, process start to exit (median of 5)',
    value: `${help.ms.toFixed(0)} ms`,
    goal: '< 150 ms',
    met: help.ms < 150,
  });
  const run = await medianRun(['run', '--quiet', '--seed', '1', '--reports', 'reports/bench-startup']);
  rows.push({
    measure: 'full default run against the embedded server, process start to exit (median of 5)',
    value: `${(run.ms / 1000).toFixed(2)} s, exit ${run.code}`,
    goal: '< 1.5 s',
    met: run.ms < 1_500 && run.code === 0,
  });
}

// `npm run bench -- staging startup` runs only the measures named.
const only = process.argv.slice(2);
const unknown = unknownMeasures(only);
if (unknown.length > 0) {
  process.stderr.write(`unknown measure(s) ${unknown.join(', ')}; the measures: ${MEASURES.join(', ')}\n`);
  process.exit(2);
}
const wanted = (name: string): boolean => only.length === 0 || only.includes(name);
// First: the suite's peak memory is this process's, and memory the other measures' servers took is
// not given back to the system when they close.
if (wanted('big-paging')) await bigPaging();
if (wanted('proxy')) await proxyWalk();
if (wanted('ratios')) {
  const { startReferenceServer } = await built<typeof import('../src/reference-server/index.ts')>(
    'src/reference-server/index.js',
  );
  const server = await startReferenceServer({ resources: 2_000 });
  await serverVsBare(server);
  await clientOverhead(server);
  await server.close();
}
if (wanted('full-run')) await fullRun();
if (wanted('startup')) await startUp();
if (wanted('staging')) await stagingLike();
if (wanted('paging')) await pageScaling();

const table = [
  '| measure | value | goal | met |',
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.measure} | ${r.value} | ${r.goal} | ${r.met ? 'yes' : 'no'} |`),
].join('\n');
process.stdout.write(`${table}\n`);
await mkdir('reports', { recursive: true });
await writeFile(
  'reports/bench.json',
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
);
// A goal missed fails the bench (exit 1), each one named.
const verdict = verdictOf(rows);
for (const line of verdict.lines) process.stderr.write(`${line}\n`);
process.exitCode = verdict.code;
