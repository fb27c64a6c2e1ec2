import { request, type Dispatcher } from 'undici';
import type { Exchange, RecordedRequest } from '../core/exchange.ts';
import { HarnessError } from '../core/errors.ts';
import type { Redactor } from './redact.ts';
import type { RequestBudget } from './request-budget.ts';

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
  /** Attempts for 429/503 answers to reads (spec'd services rate-limit, field notes). */
  maxAttempts?: number;
  /** Longest single wait for Retry-After; longer waits give up. */
  maxRetryDelayMs?: number;
  /** Shared request-rate and count budget of the run. */
  budget?: RequestBudget;
  /** Receives every exchange, for the rule's transcript. */
  onExchange?: (exchange: Exchange) => void;
  signal?: AbortSignal;
}

export interface PostOptions {
  /** Send this text as the body instead of JSON.stringify(body): for malformed-JSON checks. */
  rawBody?: string;
  /** Extra or replaced headers; a value of null removes a default header. */
  headers?: Record<string, string | null>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: unknown;
  exchange: Exchange;
}

const RECORDED_BODY_LIMIT = 64 * 1024;

/**
 * A thin, recording HTTP client for the Directory operations. It never throws
 * for an HTTP status: statuses are the server's answer and the rule judges
 * them. It throws HarnessError only when no answer could be had.
 */
export class DirectoryClient {
  readonly options: Required<Pick<ClientOptions, 'timeoutMs' | 'maxBodyBytes' | 'maxAttempts' | 'maxRetryDelayMs'>> &
    ClientOptions;
  private readonly origin: string;
  private readonly basePath: string;

  constructor(options: ClientOptions) {
    this.options = {
      timeoutMs: 15_000,
      maxBodyBytes: 8 * 1024 * 1024,
      maxAttempts: 3,
      maxRetryDelayMs: 10_000,
      ...options,
    };
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  /** The same connection pool and settings, with another recorder, credential or signal. */
  derive(
    overrides: Partial<Pick<ClientOptions, 'credential' | 'onExchange' | 'signal' | 'serviceVersion'>>,
  ): DirectoryClient {
    return new DirectoryClient({ ...this.options, ...overrides });
  }

  get hasCredential(): boolean {
    return this.options.credential !== undefined;
  }

  async post(operation: string, body: unknown, opts: PostOptions = {}): Promise<ApiResponse> {
    const text = opts.rawBody ?? JSON.stringify(body);
    const headers = this.headersFor(opts.headers);
    const retryable = READ_OPERATIONS.has(operation);
    const started = performance.now();
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const response = await this.attempt(operation, text, headers, started, attempts);
      const status = response.status;
      const canRetry = retryable && (status === 429 || status === 503) && attempts < this.options.maxAttempts;
      const delay = canRetry ? retryDelayMs(response.headers['retry-after'], attempts) : undefined;
      if (delay === undefined || delay > this.options.maxRetryDelayMs) {
        this.options.onExchange?.(response.exchange);
        return response;
      }
      await sleep(delay, this.options.signal);
    }
  }

  private headersFor(overrides: PostOptions['headers']): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'service-version': this.options.serviceVersion,
    };
    if (this.options.credential) headers.authorization = `Bearer ${this.options.credential.apiKey}`;
    for (const [name, value] of Object.entries(overrides ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    return headers;
  }

  private async attempt(
    operation: string,
    text: string,
    headers: Record<string, string>,
    started: number,
    attempts: number,
  ): Promise<ApiResponse> {
    await this.options.budget?.take(this.options.signal);
    const path = `${this.basePath}/api/directory/${operation}`;
    const recorded: RecordedRequest = {
      method: 'POST',
      url: this.options.redactor.redact(`${this.origin}${path}`),
      headers: this.recordedHeaders(headers),
      body: this.options.redactor.redact(text),
    };
    const signals = [AbortSignal.timeout(this.options.timeoutMs)];
    if (this.options.signal) signals.push(this.options.signal);
    const signal = AbortSignal.any(signals);
    try {
      const res = await request(`${this.origin}${path}`, {
        method: 'POST',
        headers,
        body: text,
        dispatcher: this.options.dispatcher,
        signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const bodyText = await readCapped(res.body, this.options.maxBodyBytes);
      const responseHeaders = flattenHeaders(res.headers);
      const exchange: Exchange = {
        operation,
        request: recorded,
        response: {
          status: res.statusCode,
          headers: responseHeaders,
          body: this.options.redactor.redact(bodyText.slice(0, RECORDED_BODY_LIMIT)),
          truncated: bodyText.length > RECORDED_BODY_LIMIT,
        },
        durationMs: Math.round(performance.now() - started),
        attempts,
      };
      return { status: res.statusCode, headers: responseHeaders, text: bodyText, json: parseJson(bodyText), exchange };
    } catch (cause) {
      const error = this.toHarnessError(cause, operation);
      this.options.onExchange?.({
        operation,
        request: recorded,
        error: { code: error.code, message: error.message },
        durationMs: Math.round(performance.now() - started),
        attempts,
      });
      throw error;
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

  private toHarnessError(cause: unknown, operation: string): HarnessError {
    if (cause instanceof HarnessError) return cause;
    const err = cause as { name?: string; code?: string; message?: string };
    const detail = this.options.redactor.redact(`${err.code ?? err.name ?? 'error'}: ${err.message ?? String(cause)}`);
    if (this.options.signal?.aborted) return new HarnessError('DC_ERR_ABORTED', `${operation}: run aborted`);
    if (err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
      return new HarnessError(
        'DC_ERR_TIMEOUT',
        `${operation}: no complete answer within ${this.options.timeoutMs} ms (${detail})`,
      );
    }
    return new HarnessError('DC_ERR_NETWORK', `${operation}: ${detail}`);
  }
}

async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown },
  max: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new HarnessError('DC_ERR_BODY_TOO_LARGE', `response body exceeds ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date; without it, a short exponential back-off. */
export function retryDelayMs(retryAfter: string | undefined, attempt: number): number {
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return 200 * 2 ** (attempt - 1);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new HarnessError('DC_ERR_ABORTED', 'run aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new HarnessError('DC_ERR_ABORTED', 'run aborted'));
      },
      { once: true },
    );
  });
}
