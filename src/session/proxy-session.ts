/**
 * A validating proxy (`directory-conformance proxy`): any client's requests
 * are forwarded to the target and its answers to the client as they came,
 * byte for byte (status, headers, body; an encoded body is not decoded on its
 * way), and a copy of each exchange is judged as it passes by the rules that
 * traffic alone can judge (`live-judge.ts`, the rules of `judge`), each
 * violation told as it is found. The proxy never answers in the target's
 * place: a target that cannot be reached, or that breaks the connection, has
 * the client's connection broken the same way (reset), never a 502 of its own.
 * It adds one header only when asked (`annotate`): the rules the answer
 * showed broken, which means holding the answer until it is judged.
 *
 * Credentials pass through as they came; the proxy learns each from the
 * request that carries it, and everything it prints or writes passes
 * through a Redactor first. Memory is bounded: the judge keeps its rules'
 * conclusions and a sample of their evidence, never the traffic.
 */
import { writeFile } from 'node:fs/promises';
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { decodeBody } from '../client/decode.ts';
import { Redactor } from '../client/redact.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RunResult, RunSelection } from '../core/types.ts';
import { writeReports } from '../report/write-reports.ts';
import { allRules } from '../runner/catalogue.ts';
import { LiveJudge, LIVE_JUDGE_LIMITS, type Found, type LiveJudgeLimits } from '../runner/live-judge.ts';
import { learnSecrets } from '../runner/redacted-har.ts';
import { credentialOfHeader, type Observed } from '../rules/judges/observed.ts';
import type { RuleGroup } from '../rules/types.ts';
import type { FileType } from '../schemas/files.ts';
import type { TargetProfile } from '../target/profile.ts';
import { judgedRun } from './judged-run.ts';
import { lockReportsDir } from './reports-lock.ts';

/** The header `annotate` adds to each answer of an operation: the rules its judging found broken. */
export const VIOLATIONS_HEADER = 'Directory-Conformance-Violations';

/** Bytes of a body read for judging (the suite's own client's cap); a longer body passes whole, unjudged. */
const JUDGED_BODY_BYTES = 8 * 1024 * 1024;

/** A body in the HAR the reports write is kept whole up to this, as a run's HAR keeps it; past it, cut and marked. */
const HAR_BODY_CHARS = 64 * 1024;

export interface ProxyOptions {
  /** The target: its base URL, as run's --base-url. */
  upstream: URL;
  /** The port on loopback; 0 for any free one. */
  port: number;
  annotate: boolean;
  reports: string;
  profile: TargetProfile;
  groups: readonly RuleGroup[];
  selection: RunSelection;
  /** Told one line per violation as it is found, credentials redacted. */
  onViolation(line: string): void;
  limits?: LiveJudgeLimits;
}

export interface ProxySession {
  /** Where clients send their requests instead of the target. */
  readonly url: string;
  /** The reports of the traffic so far (SIGUSR1 calls it): the session goes on. */
  writeReports(): Promise<RunResult>;
  /** Stops taking requests, judges what is left, writes the reports: the session's result. */
  close(): Promise<RunResult>;
}

/** What the proxy keeps of an exchange for the reports, as it passed (redacted only when written). */
interface Passed {
  startedAt: string;
  durationMs: number;
  method: string;
  url: string;
  requestHeaders: Array<{ name: string; value: string }>;
  requestText: string;
  status: number;
  statusText: string;
  responseHeaders: Array<{ name: string; value: string }>;
  responseText: string;
  cut: boolean;
}

type HarEntry = FileType<'HarFile'>['log']['entries'][number];

/** A body's bytes, up to a cap: past it, only that it was longer. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  over = false;
  constructor(private readonly cap: number) {}
  add(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.cap) {
      this.over = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** A raw header list (`rawHeaders`: name, value, name, value…) as pairs. */
function pairs(raw: readonly string[]): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i] ?? '', value: raw[i + 1] ?? '' });
  return out;
}

/**
 * The request's headers as they came, but for its Host, the target's. Even
 * Connection goes as it came: the target answers a request that asks to close
 * as it would answer the client, and its answer's headers then pass as they
 * would have come.
 */
function forwarded(raw: readonly string[], host: string): string[] {
  const out = ['Host', host];
  for (const { name, value } of pairs(raw)) if (name.toLowerCase() !== 'host') out.push(name, value);
  return out;
}

/** The client's connection broken as the target's was: a reset, never an answer the target did not give. */
function reset(res: ServerResponse): void {
  const socket = res.socket;
  if (socket && !socket.destroyed) socket.resetAndDestroy();
  else res.destroy();
}

/** The operation a request calls (`POST …/api/directory/<operation>`), or undefined for anything else. */
function operationOf(method: string, path: string): string | undefined {
  if (method.toUpperCase() !== 'POST') return undefined;
  return /\/api\/directory\/([^/?#]+)(?:[?#]|$)/.exec(path)?.[1];
}

/** A request's target as a path: a client that takes the proxy for a forward proxy sends the whole URL. */
function originForm(target: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * One violation as one line: its rule and where. A walk's judge names the
 * page by its walk (`limit 25, page 3`), so the exchange that showed it is
 * added where the place names none.
 */
function violationLine(f: Found): string {
  const where = /\bexchange \d+/.test(f.violation.where)
    ? f.violation.where
    : `${f.violation.where} (exchange ${f.seq})`;
  return `VIOLATION ${f.ruleId} at ${where}: ${f.violation.message}`;
}

/** Where a URL's password would show, shown without it. */
function shown(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href.replace(/\/$/, '');
}

export async function startProxy(options: ProxyOptions): Promise<ProxySession> {
  const startedAt = new Date().toISOString();
  const lock = await lockReportsDir(options.reports);
  const redactor = new Redactor();
  // The target's own credentials, if its URL carries any, are secrets too (as typed, and as the URL keeps them).
  redactor.add(options.upstream.password, '$DIRECTORY_PROXY_PASSWORD');
  redactor.add(decodedOrAsIs(options.upstream.password), '$DIRECTORY_PROXY_PASSWORD');
  const live = new LiveJudge<Passed>(allRules(options.groups), options.profile, options.limits ?? LIVE_JUDGE_LIMITS);
  const secure = options.upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const basePath = options.upstream.pathname.replace(/\/$/, '');
  let seq = 0;
  // Exchanges are judged one at a time, in the order their answers ended.
  let judging: Promise<unknown> = Promise.resolve();

  async function judgeOne(n: number, passed: Passed, bytes: Capped, coding: string | undefined): Promise<Found[]> {
    learnSecrets(redactor, passed.requestHeaders);
    learnSecrets(redactor, passed.responseHeaders);
    const operation = operationOf(passed.method, passed.url);
    // A page, a preflight, a call to another service: not the API's, not judged, not kept.
    if (operation === undefined) return [];
    let cut = bytes.over;
    if (!cut) {
      try {
        const decoded = coding ? await decodeBody(bytes.bytes(), coding, JUDGED_BODY_BYTES, operation) : bytes.bytes();
        passed.responseText = decoded.toString('utf8');
      } catch {
        // An answer that does not decode, or decodes past the cap, cannot be read whole: no judge reads it.
        cut = true;
      }
    }
    passed.cut = cut;
    const sent = Date.parse(passed.startedAt);
    const o: Observed = {
      operation,
      step: `${operation}, exchange ${n}`,
      request: parseJsonText(passed.requestText),
      status: passed.status,
      body: parseJsonText(passed.responseText),
      text: passed.responseText,
      earlierStatuses: [],
      // A request carrying the profile's restricted key is the restricted caller's: redaction is judged per caller.
      credential: credentialOfHeader(
        passed.requestHeaders.find((h) => h.name.toLowerCase() === 'authorization')?.value,
        options.profile.restrictedApiKey,
      ),
      at: { sent, answered: sent + passed.durationMs },
    };
    const found = live.take(n, o, passed, cut);
    for (const f of found) options.onViolation(redactor.redact(violationLine(f)));
    return found;
  }

  function judged(n: number, passed: Passed, bytes: Capped, coding: string | undefined): Promise<Found[]> {
    const done = judging.then(() => judgeOne(n, passed, bytes, coding));
    judging = done.catch(() => undefined);
    return done;
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    seq += 1;
    const n = seq;
    const began = Date.now();
    const method = req.method ?? 'GET';
    const path = `${basePath}${originForm(req.url ?? '/')}`;
    const requestBody = new Capped(JUDGED_BODY_BYTES);
    const upstream = send({
      protocol: options.upstream.protocol,
      hostname: options.upstream.hostname,
      port: options.upstream.port,
      method,
      path,
      headers: forwarded(req.rawHeaders, options.upstream.host),
      agent,
    });
    upstream.on('error', () => reset(res));
    req.on('data', (chunk: Buffer) => {
      requestBody.add(chunk);
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    req.on('end', () => upstream.end());
    req.on('error', () => upstream.destroy());
    // The client went away before its answer: the target's request goes too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('response', (answer) => {
      const status = answer.statusCode ?? 0;
      const statusText = answer.statusMessage ?? '';
      const raw = answer.rawHeaders;
      const judgedBody = new Capped(JUDGED_BODY_BYTES);
      // Held whole only when annotating: the header goes before the body.
      const held: Buffer[] = [];
      // Node adds a Date header of its own unless told not to: the target's headers go as they came.
      res.sendDate = false;
      if (!options.annotate) res.writeHead(status, statusText, raw);
      answer.on('data', (chunk: Buffer) => {
        judgedBody.add(chunk);
        if (options.annotate) held.push(chunk);
        else if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('close', () => {
        if (!answer.complete) reset(res);
      });
      answer.on('end', () => {
        const passed: Passed = {
          startedAt: new Date(began).toISOString(),
          durationMs: Date.now() - began,
          method,
          url: `${options.upstream.origin}${path}`,
          requestHeaders: pairs(req.rawHeaders),
          requestText: requestBody.over ? '' : requestBody.bytes().toString('utf8'),
          status,
          statusText,
          responseHeaders: pairs(raw),
          responseText: '',
          cut: false,
        };
        const coding = answer.headers['content-encoding'];
        const found = judged(n, passed, judgedBody, coding);
        if (!options.annotate) {
          res.end();
          return;
        }
        void found
          .catch((): Found[] => [])
          .then((f) => {
            const rules = [...new Set(f.map((x) => x.ruleId))];
            // Only an answer of an operation was judged: any other (a page, a preflight) passes as it came.
            const header =
              operationOf(method, path) === undefined
                ? []
                : [VIOLATIONS_HEADER, rules.length > 0 ? rules.join(', ') : 'none'];
            res.writeHead(status, statusText, [...raw, ...header]);
            res.end(Buffer.concat(held));
          });
      });
    });
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address: AddressInfo | string | null = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;

  function harEntry(p: Passed): HarEntry {
    const body = redactor.redact(p.responseText);
    const cut = p.cut || body.length > HAR_BODY_CHARS;
    const headers = (list: ReadonlyArray<{ name: string; value: string }>) =>
      list.map((h) => ({ name: h.name, value: redactor.redact(h.value) }));
    return {
      startedDateTime: p.startedAt,
      time: p.durationMs,
      request: {
        method: p.method,
        url: redactor.redact(p.url),
        headers: headers(p.requestHeaders),
        postData: { text: redactor.redact(p.requestText).slice(0, HAR_BODY_CHARS) },
      },
      response: { status: p.status, content: { text: body.slice(0, HAR_BODY_CHARS) } },
      ...(cut ? { _cut: true as const } : {}),
    };
  }

  let writing: Promise<unknown> = Promise.resolve();
  async function write(): Promise<RunResult> {
    const verdicts = live.verdicts();
    const kept = live.kept();
    const at = new Map(kept.map((k, i) => [k.seq, i]));
    const entries = kept.map((k) => harEntry(k.record));
    const judgedVerdicts = verdicts.map(({ seqs, ...v }) => ({
      ...v,
      violations: redactor.redactValue(v.violations),
      ...(v.reason !== undefined ? { reason: redactor.redact(v.reason) } : {}),
      entries: seqs.flatMap((s) => at.get(s) ?? []),
    }));
    const from = `the traffic proxied to ${shown(options.upstream)}`;
    const run = judgedRun(
      judgedVerdicts,
      options.groups,
      { file: 'exchanges.har', recording: { log: { entries } }, from },
      options.selection,
      { startedAt, finishedAt: new Date().toISOString() },
      options.profile,
    );
    await writeReports(run, options.reports);
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'directory-conformance proxy', version: run.tool.version },
        comment: `${seq} requests proxied; kept here: each rule's evidence and the latest exchanges`,
        entries,
      },
    };
    await writeFile(join(options.reports, 'exchanges.har'), `${JSON.stringify(har, null, 2)}\n`);
    return run;
  }

  function writeInTurn(): Promise<RunResult> {
    const done = writing.then(write);
    writing = done.catch(() => undefined);
    return done;
  }

  let closing: Promise<RunResult> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    writeReports: writeInTurn,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // A client that keeps its connection open past its last answer is not waited for long.
        const late = setTimeout(() => server.closeAllConnections(), 2_000);
        await closed;
        clearTimeout(late);
        await judging;
        for (const f of live.flush()) options.onViolation(redactor.redact(violationLine(f)));
        try {
          return await writeInTurn();
        } finally {
          agent.destroy();
          await lock.release();
        }
      })();
      return closing;
    },
  };
}
