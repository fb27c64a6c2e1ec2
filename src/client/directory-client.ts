import type { Dispatcher } from 'undici';
import type { AnsweredExchange, Exchange, RecordedRequest, RecordedResponse } from '../core/exchange.ts';
import { HarnessError } from '../core/errors.ts';
import type { Pacer } from './pacer.ts';
import { parseRetryAfter } from './rate-limit-headers.ts';
import type { Redactor } from './redact.ts';
import { resourcesNamed, type SharedReads } from './shared-reads.ts';
import { sendOnWire } from './wire.ts';

/** The eight operations of spec §4. */
export type OperationName =
  | 'resources.revoke-roles'
  | 'resources.assign-activity-rate'
  | 'resources.assign-team'
  | 'resources.show-activity-rates'
  | 'resources.show-teams'
  | 'resources.list-roles'
  | 'resources.unassign-activity-rate'
  | 'resources.list';

const READ_OPERATIONS: ReadonlySet<string> = new Set([
  'resources.show-activity-rates',
  'resources.show-teams',
  'resources.list-roles',
  'resources.list',
]);

export interface Credential {
  /** The secret sent on the wire; never recorded. */
  apiKey: string;
  /** What a transcript shows instead, e.g. `$DIRECTORY_API_KEY`. */
  placeholder: string;
}

export interface ClientOptions {
  baseUrl: string;
  serviceVersion: string;
  dispatcher: Dispatcher;
  redactor: Redactor;
  /** Undefined: requests go out without an Authorization header. */
  credential?: Credential;
  /** Deadline of one attempt, headers and body included. */
  timeoutMs?: number;
  /** Larger response bodies are cut off and reported as a harness fault. */
  maxBodyBytes?: number;
  /** Attempts in all for a request safe to repeat answered 502/503/504 or dropped before an answer (default 3). */
  maxAttempts?: number;
  /** Attempts in all for a request answered 429 (default 5): a 429 was not processed, so any request may be repeated. */
  maxRateLimitAttempts?: number;
  /** Longest single wait for Retry-After; a longer one gives up and the answer stands. */
  maxRetryDelayMs?: number;
  /** Longest total wait between the attempts of one request; beyond it the last answer stands. */
  maxRetryWaitMs?: number;
  /** The run's shared pacer: request count, rate, requests in flight (a RequestBudget is one). */
  budget?: Pacer;
  /** Requests of this client are paced but not counted against `maxRequests` (restoring a target). */
  exemptFromBudget?: boolean;
  /** Receives every exchange, for the rule's transcript. */
  onExchange?: (exchange: Exchange) => void;
  /** The run's shared answers, for reads sent with `shared: true`. */
  sharedReads?: SharedReads;
  signal?: AbortSignal;
}

export interface PostOptions {
  /** Send this text as the body instead of JSON.stringify(body): for malformed-JSON checks. */
  rawBody?: string;
  /** Extra or replaced headers; a value of null removes a default header. */
  headers?: Record<string, string | null>;
  /**
   * The request may be repeated after a 502/503/504 or a connection dropped
   * before an answer. Default: true for the four reads, false for the four
   * mutations (a mutation that reached the server may have taken effect).
   * A 429 is retried whatever this says: the server did not process it.
   */
  idempotent?: boolean;
  /**
   * A read whose answer only the suite's own requests could change (a list of
   * resources without their teams; the state of a resource a rule holds): the
   * run's first successful answer to the same request is shared with every
   * read that sends it until a request of the suite changes a resource it names.
   */
  shared?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: unknown;
  exchange: AnsweredExchange;
}

const RECORDED_BODY_LIMIT = 64 * 1024;
/** Answers of gateways and overloaded servers that say nothing about the request itself. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
/** Connections closed or refused before an answer came. */
const DROPPED_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

type Outcome =
  | { ok: true; status: number; headers: Record<string, string>; bytes: Buffer; text: string; durationMs: number }
  | { ok: false; error: HarnessError; dropped: boolean; durationMs: number };

/**
 * A thin, recording HTTP client for the Directory operations. It never throws
 * for an HTTP status: statuses are the server's answer and the rule judges
 * them. It throws HarnessError only when no answer could be had.
 *
 * Retries never change what a rule sees except by hiding a transient fault:
 * a 429 is retried on every request after Retry-After (the request was not
 * processed); 502/503/504 and dropped connections only on requests safe to
 * repeat. Attempts and waits are bounded; the last answer stands.
 */
export class DirectoryClient {
  readonly options: Required<
    Pick<
      ClientOptions,
      'timeoutMs' | 'maxBodyBytes' | 'maxAttempts' | 'maxRateLimitAttempts' | 'maxRetryDelayMs' | 'maxRetryWaitMs'
    >
  > &
    ClientOptions;
  private readonly origin: string;
  private readonly basePath: string;
  /** Per operation: the address, and the address as a transcript shows it. */
  private readonly urls = new Map<string, { origin: string; path: string; recorded: string }>();
  private defaultHeaders: { sent: Record<string, string>; recorded: Record<string, string> } | undefined;

  constructor(options: ClientOptions) {
    this.options = {
      timeoutMs: 15_000,
      maxBodyBytes: 8 * 1024 * 1024,
      maxAttempts: 3,
      maxRateLimitAttempts: 5,
      maxRetryDelayMs: 10_000,
      maxRetryWaitMs: 30_000,
      ...options,
    };
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  /** The same connection pool and settings, with another recorder, credential or signal. */
  derive(
    overrides: Partial<
      Pick<ClientOptions, 'credential' | 'onExchange' | 'signal' | 'serviceVersion' | 'exemptFromBudget'>
    >,
  ): DirectoryClient {
    return new DirectoryClient({ ...this.options, ...overrides });
  }

  get hasCredential(): boolean {
    return this.options.credential !== undefined;
  }

  post(operation: string, body: unknown, opts: PostOptions = {}): Promise<ApiResponse> {
    const shared = this.options.sharedReads;
    if (shared && (!READ_OPERATIONS.has(operation) || (opts.shared && opts.rawBody === undefined && !opts.headers)))
      return this.postWithSharedReads(shared, operation, body, opts);
    // Not an async function: the usual request adds no promise of its own to the one `send` gives.
    return this.send(operation, body, opts);
  }

  private async postWithSharedReads(
    shared: SharedReads,
    operation: string,
    body: unknown,
    opts: PostOptions,
  ): Promise<ApiResponse> {
    if (!READ_OPERATIONS.has(operation)) {
      // A change the suite sends makes what was read about its resources stale, before and after.
      const named = opts.rawBody === undefined ? resourcesNamed(body) : undefined;
      shared.forget(named ?? 'all');
      try {
        return await this.send(operation, body, opts);
      } finally {
        shared.forget(named ?? 'all');
      }
    }
    const key = `${this.options.credential?.placeholder ?? '(none)'} ${this.options.serviceVersion} ${operation} ${JSON.stringify(body)}`;
    const { response, shared: wasShared } = await shared.read(key, resourcesNamed(body) ?? [], () =>
      this.send(operation, body, opts),
    );
    if (!wasShared) return response;
    // This rule's transcript shows the answer it used, marked as another rule's request.
    const exchange: AnsweredExchange = { ...response.exchange, shared: true };
    this.options.onExchange?.(exchange);
    return { ...response, exchange };
  }

  private async send(operation: string, body: unknown, opts: PostOptions): Promise<ApiResponse> {
    const { maxAttempts, maxRateLimitAttempts, maxRetryDelayMs, maxRetryWaitMs, redactor } = this.options;
    const text = opts.rawBody ?? JSON.stringify(body);
    const headers = this.headersFor(opts.headers);
    const idempotent = opts.idempotent ?? READ_OPERATIONS.has(operation);
    const url = this.urlOf(operation);
    const request: RecordedRequest = {
      method: 'POST',
      url: url.recorded,
      headers: headers.recorded,
      body: redactor.redact(text),
    };
    let earlier: Array<{ status?: number; error?: string }> | undefined;
    let queuedMs = 0;
    let retryWaitMs = 0;
    for (let attempts = 1; ; attempts++) {
      const outcome = await this.attempt(operation, url, text, headers.sent, attempts > 1);
      queuedMs += outcome.queuedMs;
      let delay: number | undefined;
      if (outcome.ok && outcome.status === 429) {
        if (attempts < maxRateLimitAttempts) delay = retryDelayMs(outcome.headers['retry-after'], attempts);
      } else if (outcome.ok ? TRANSIENT_STATUSES.has(outcome.status) : outcome.dropped) {
        if (idempotent && attempts < maxAttempts)
          delay = retryDelayMs(outcome.ok ? outcome.headers['retry-after'] : undefined, attempts);
      }
      if (delay === undefined || delay > maxRetryDelayMs || retryWaitMs + delay > maxRetryWaitMs) {
        // Built in one literal and the rare fields after, in the order reports show them: this runs for every request.
        const startedAt = isoTime(Date.now() - outcome.durationMs);
        const durationMs = Math.round(outcome.durationMs);
        if (!outcome.ok) {
          const error = { code: outcome.error.code, message: outcome.error.message };
          this.recorded({ operation, startedAt, request, error, durationMs, attempts }, queuedMs, retryWaitMs, earlier);
          throw outcome.error;
        }
        const response = recordedResponse(outcome, redactor);
        const exchange: AnsweredExchange = { operation, startedAt, request, response, durationMs, attempts };
        this.recorded(exchange, queuedMs, retryWaitMs, earlier);
        if (outcome.status >= 300 && outcome.status < 400) {
          // Redirects are not followed (a POST body and a credential must not go where the user did not point).
          const location = this.options.redactor.redact(outcome.headers.location ?? '(no Location header)');
          throw new HarnessError(
            'DC_ERR_REDIRECT',
            `${operation}: the target answered ${outcome.status}, a redirect to ${location}; ` +
              'the suite does not follow redirects: point --base-url at the final address',
          );
        }
        return {
          status: outcome.status,
          headers: outcome.headers,
          text: outcome.text,
          json: parseJson(outcome.text),
          exchange,
        };
      }
      (earlier ??= []).push(outcome.ok ? { status: outcome.status } : { error: outcome.error.code });
      await sleep(delay, this.options.signal);
      retryWaitMs += delay;
    }
  }

  /** The rare fields set after the literal, in the order reports show them; then the rule's transcript gets it. */
  private recorded(
    exchange: Exchange,
    queuedMs: number,
    retryWaitMs: number,
    earlier: Array<{ status?: number; error?: string }> | undefined,
  ): void {
    if (queuedMs >= 1) exchange.queuedMs = Math.round(queuedMs);
    if (retryWaitMs > 0) exchange.retryWaitMs = Math.round(retryWaitMs);
    if (earlier !== undefined) exchange.earlierAttempts = earlier;
    this.options.onExchange?.(exchange);
  }

  private urlOf(operation: string): { origin: string; path: string; recorded: string } {
    let entry = this.urls.get(operation);
    if (!entry) {
      const path = `${this.basePath}/api/directory/${operation}`;
      entry = { origin: this.origin, path, recorded: this.options.redactor.redact(`${this.origin}${path}`) };
      this.urls.set(operation, entry);
    }
    return entry;
  }

  private headersFor(overrides: PostOptions['headers']): {
    sent: Record<string, string>;
    recorded: Record<string, string>;
  } {
    // The usual case, no overrides, is the same for every request of this client.
    if (overrides === undefined && this.defaultHeaders) return this.defaultHeaders;
    const sent: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'service-version': this.options.serviceVersion,
    };
    if (this.options.credential) sent.authorization = `Bearer ${this.options.credential.apiKey}`;
    for (const [name, value] of Object.entries(overrides ?? {})) {
      if (value === null) delete sent[name.toLowerCase()];
      else sent[name.toLowerCase()] = value;
    }
    const headers = { sent, recorded: this.recordedHeaders(sent) };
    if (overrides === undefined) this.defaultHeaders = headers;
    return headers;
  }

  /** One request on the wire, after the pacer's turn; its duration starts when it is sent. */
  private async attempt(
    operation: string,
    url: { origin: string; path: string },
    text: string,
    headers: Record<string, string>,
    retry: boolean,
  ): Promise<Outcome & { queuedMs: number }> {
    const parent = this.options.signal;
    const exempt = this.options.exemptFromBudget === true;
    const permit = this.options.budget ? await this.options.budget.acquire(parent, retry, exempt) : undefined;
    const queuedMs = permit?.queuedMs ?? 0;
    const sentAt = performance.now();
    if (parent?.aborted) {
      permit?.release();
      const error = new HarnessError('DC_ERR_ABORTED', `${operation}: run aborted`);
      return { ok: false, error, dropped: false, durationMs: 0, queuedMs };
    }
    const call = sendOnWire(this.options.dispatcher, {
      origin: url.origin,
      path: url.path,
      headers,
      body: text,
      idleTimeoutMs: this.options.timeoutMs,
      maxBodyBytes: this.options.maxBodyBytes,
      onHeaders: permit ? (status, responseHeaders) => permit.release({ status, headers: responseHeaders }) : undefined,
    });
    // The whole answer, headers and body, within the deadline: undici's own limits are per part.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, this.options.timeoutMs);
    const onAbort = (): void => call.abort();
    parent?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await call.answer;
      return {
        ok: true,
        status: answer.status,
        headers: answer.headers,
        bytes: answer.bytes,
        text: answer.bytes.toString('utf8'),
        durationMs: performance.now() - sentAt,
        queuedMs,
      };
    } catch (cause) {
      // A permit is released once: this is a no-op when the headers came.
      permit?.release();
      const { error, dropped } = this.toHarnessError(cause, operation, timedOut);
      return { ok: false, error, dropped, durationMs: performance.now() - sentAt, queuedMs };
    } finally {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    }
  }

  private recordedHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] =
        name === 'authorization' && this.options.credential
          ? `Bearer ${this.options.credential.placeholder}`
          : this.options.redactor.redact(value);
    }
    return out;
  }

  private toHarnessError(
    cause: unknown,
    operation: string,
    timedOut: boolean,
  ): { error: HarnessError; dropped: boolean } {
    if (cause instanceof HarnessError) return { error: cause, dropped: false };
    const err = cause as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    const detail = this.options.redactor.redact(`${err.code ?? err.name ?? 'error'}: ${err.message ?? String(cause)}`);
    if (this.options.signal?.aborted && !timedOut)
      return { error: new HarnessError('DC_ERR_ABORTED', `${operation}: run aborted`), dropped: false };
    if (
      timedOut ||
      err.name === 'TimeoutError' ||
      err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      err.code === 'UND_ERR_BODY_TIMEOUT'
    ) {
      const message = `${operation}: no complete answer within ${this.options.timeoutMs} ms${timedOut ? '' : ` (${detail})`}`;
      return { error: new HarnessError('DC_ERR_TIMEOUT', message), dropped: false };
    }
    const dropped = DROPPED_CODES.has(err.code ?? '') || DROPPED_CODES.has(err.cause?.code ?? '');
    return { error: new HarnessError('DC_ERR_NETWORK', `${operation}: ${detail}`), dropped };
  }
}

/**
 * The answer as a transcript keeps it. Most recorded answers are never read
 * again: a transcript keeps a rule's first and last exchanges and drops the
 * rest, and only a report reads what it kept. So the body stays the bytes that
 * came (outside the JavaScript heap, where holding them costs the garbage
 * collector nothing) and becomes text, credentials replaced, when first read;
 * the headers are redacted then too. Whoever reads the record, whenever,
 * gets the redacted form: there is no other.
 */
function recordedResponse(
  outcome: { status: number; headers: Record<string, string>; bytes: Buffer; text: string },
  redactor: Redactor,
): RecordedResponse {
  const truncated = outcome.text.length > RECORDED_BODY_LIMIT;
  // A cut body is kept as the text of its first part: the whole of a large page is not held for it.
  let source: Buffer | string | undefined = truncated ? detached(outcome.text, RECORDED_BODY_LIMIT) : outcome.bytes;
  let body: string | undefined;
  const received = outcome.headers;
  let headers: Record<string, string> | undefined;
  return {
    status: outcome.status,
    // A server may echo the credential in a header: stored headers pass the redactor too.
    get headers(): Record<string, string> {
      if (headers === undefined) {
        headers = {};
        for (const name in received) headers[name] = redactor.redact(received[name]!);
      }
      return headers;
    },
    get body(): string {
      if (body === undefined) {
        body = redactor.redact(typeof source === 'string' ? source : source!.toString('utf8'));
        source = undefined;
      }
      return body;
    },
    truncated,
  };
}

/**
 * The first `length` characters of `text`, copied: a plain slice points into
 * `text` and keeps all of it alive for as long as the transcript keeps the
 * slice (a transcript keeps fifty exchanges, each a page of up to megabytes).
 */
function detached(text: string, length: number): string {
  // Flattening the concatenation copies the characters; the slice then points into the copy.
  return ` ${text.slice(0, length)}`.slice(1);
}

/** The last time formatted, and when: answers that end in the same millisecond share one string. */
let lastIso = { ms: NaN, text: '' };

function isoTime(ms: number): string {
  const rounded = Math.floor(ms);
  if (rounded !== lastIso.ms) lastIso = { ms: rounded, text: new Date(rounded).toISOString() };
  return lastIso.text;
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date; without it, a short exponential back-off. */
export function retryDelayMs(retryAfter: string | undefined, attempt: number): number {
  return parseRetryAfter(retryAfter) ?? 200 * 2 ** (attempt - 1);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new HarnessError('DC_ERR_ABORTED', 'run aborted'));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new HarnessError('DC_ERR_ABORTED', 'run aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
