import type { Dispatcher } from 'undici';
import type { Clock } from '../core/timing.ts';
import type { ApiResponse, Exchange } from '../core/exchange.ts';
import { agreedReads } from './agreed-reads.ts';
import { ACCEPT_ENCODING } from './decode.ts';
import type { OperationName, RequestOf } from '../schemas/operations.ts';
import { pace } from './pace.ts';
import type { Pacer } from './pacer.ts';
import { record } from './record.ts';
import type { Redactor } from './redact.ts';
import { retry } from './retry.ts';
import { RETRY_POLICY, requestClass, type RetryPolicy, type RetryPurpose } from './retry-policy.ts';
import { shareReads, type SharedReads } from './shared-reads.ts';
import type { SendAttempt, SendRequest, TransportRequest } from './transport.ts';
import { wire } from './wire.ts';

export type { ApiResponse } from '../core/exchange.ts';
export type { OperationName, RequestOf } from '../schemas/operations.ts';

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
  /** Fixed extra headers sent with every request (`--header`), lower-case names (connection.ts). */
  extraHeaders?: Readonly<Record<string, string>>;
  /** Deadline of one attempt, headers and body included. */
  timeoutMs?: number;
  /** Larger response bodies are cut off and reported as a harness fault. */
  maxBodyBytes?: number;
  /** What is repeated, how often, and how long to wait (default RETRY_POLICY). */
  retryPolicy?: RetryPolicy;
  /** The clock the waits between attempts are slept on (default the system's; a run passes its target's). */
  clock?: Clock;
  /** The run's shared pacer: request count, rate, requests in flight (a RequestBudget is one). */
  budget?: Pacer;
  /** Requests of this client are paced but not counted against `maxRequests` (restoring a target). */
  exemptFromBudget?: boolean;
  /** Receives every exchange, for the rule's transcript. */
  onExchange?: (exchange: Exchange, answer?: ApiResponse) => void;
  /** The run's shared answers, for reads sent with `shared: true`. */
  sharedReads?: SharedReads;
  /** Each read sent until the server gives the same answer twice (agreed-reads.ts): a confirmation's reads. */
  agreedReads?: boolean;
  signal?: AbortSignal;
}

export interface PostOptions {
  /** Extra or replaced headers; a value of null removes a default header. */
  headers?: Record<string, string | null>;
  /**
   * What the request is for, beyond its operation, and so its row of the retry
   * policy (retry-policy.ts): 'judged' for a request whose status a rule
   * judges (expectRejected, expectNoServerError): a 5xx is sent once more, so
   * that a single glitch does not decide a verdict; 'restore' for a request
   * that puts a value back (safe to repeat after any failure).
   */
  retry?: RetryPurpose;
  /**
   * A read whose answer only the suite's own requests could change (a list of
   * resources without their teams; the state of a resource a rule holds): the
   * run's first successful answer to the same request is shared with every
   * read that sends it until a request of the suite changes a resource it names.
   */
  shared?: boolean;
  /** What the request is for within its rule, e.g. "resources.list page 2": the exchange is tagged with it. */
  step?: string;
}

/** A body that is not a valid request: JSON of any value, or text sent as it is (malformed JSON). */
export type RawBody = { json: unknown } | { text: string };

/**
 * A thin, recording HTTP client for the Directory operations. Its request
 * path is a chain of small links (transport.ts): record → shared reads →
 * retry → pace → wire. What is sent again, and how often, is the retry
 * policy's to say (retry-policy.ts): retries never change what a rule sees
 * except by hiding a transient fault, and the last answer stands, with what
 * each earlier attempt got.
 */
export class DirectoryClient {
  readonly options: Required<Pick<ClientOptions, 'timeoutMs' | 'maxBodyBytes' | 'retryPolicy'>> & ClientOptions;
  private readonly origin: string;
  private readonly basePath: string;
  /** Per operation: the address, and the address as a transcript shows it. */
  private readonly urls = new Map<string, { path: string; recorded: string }>();
  private defaultHeaders: { sent: Record<string, string>; recorded: Record<string, string> } | undefined;
  /** The request path: record → shared reads → (agreed reads) → retry → pace → wire (see transport.ts). */
  private readonly send: (request: TransportRequest) => Promise<ApiResponse>;

  constructor(options: ClientOptions) {
    this.options = {
      timeoutMs: 15_000,
      maxBodyBytes: 8 * 1024 * 1024,
      retryPolicy: RETRY_POLICY,
      ...options,
    };
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    const { dispatcher, timeoutMs, maxBodyBytes, redactor, retryPolicy, budget, sharedReads, onExchange } =
      this.options;
    // Links the client has no use for are left out, not passed through.
    let attempt: SendAttempt = wire({ dispatcher, timeoutMs, maxBodyBytes, redactor });
    if (budget) attempt = pace(budget)(attempt);
    let request: SendRequest = retry(retryPolicy, this.options.clock)(attempt);
    if (this.options.agreedReads) request = agreedReads()(request);
    if (sharedReads) request = shareReads(sharedReads)(request);
    this.send = record({ redactor, onExchange, clock: this.options.clock })(request);
  }

  /** The same connection pool and settings, with another recorder, credential or signal. */
  derive(
    overrides: Partial<
      Pick<
        ClientOptions,
        'credential' | 'onExchange' | 'signal' | 'serviceVersion' | 'exemptFromBudget' | 'sharedReads' | 'agreedReads'
      >
    >,
  ): DirectoryClient {
    return new DirectoryClient({ ...this.options, ...overrides });
  }

  get hasCredential(): boolean {
    return this.options.credential !== undefined;
  }

  /**
   * A request the spec documents, its body typed by the operation's schema.
   * It never throws for an HTTP status: statuses are the server's answer and
   * the rule judges them. It throws HarnessError only when no answer could be
   * had (and for a redirect, which the suite does not follow).
   */
  post<O extends OperationName>(
    operation: O,
    body: NoInfer<RequestOf<O>>,
    opts: PostOptions = {},
  ): Promise<ApiResponse> {
    return this.send(this.requestOf(operation, JSON.stringify(body), body, opts));
  }

  /**
   * A request whose body the schemas do not allow: any JSON value, or text
   * sent as it is (malformed JSON), for the rules that check what the server
   * does with invalid input. It is never answered from shared reads.
   */
  postRaw(operation: OperationName, body: RawBody, opts: Omit<PostOptions, 'shared'> = {}): Promise<ApiResponse> {
    const request =
      'text' in body
        ? this.requestOf(operation, body.text, undefined, opts)
        : this.requestOf(operation, JSON.stringify(body.json) ?? '', body.json, opts);
    return this.send(request);
  }

  private requestOf(operation: OperationName, text: string, body: unknown, opts: PostOptions): TransportRequest {
    const headers = this.headersFor(opts.headers);
    const url = this.urlOf(operation);
    return {
      operation,
      origin: this.origin,
      path: url.path,
      recordedUrl: url.recorded,
      headers: headers.sent,
      recordedHeaders: headers.recorded,
      text,
      body,
      retryClass: requestClass(operation, opts.retry),
      // Another rule's answer fits only the same request: with other headers it is not the same.
      shared: opts.shared === true && opts.headers === undefined,
      exemptFromBudget: this.options.exemptFromBudget === true,
      signal: this.options.signal,
      step: opts.step,
    };
  }

  private urlOf(operation: string): { path: string; recorded: string } {
    let entry = this.urls.get(operation);
    if (!entry) {
      const path = `${this.basePath}/api/directory/${operation}`;
      entry = { path, recorded: this.options.redactor.redact(`${this.origin}${path}`) };
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
      // Answers come as servers and their proxies send them: the wire undoes these codings (decode.ts).
      'accept-encoding': ACCEPT_ENCODING,
      'content-type': 'application/json',
      'service-version': this.options.serviceVersion,
      ...this.options.extraHeaders,
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
}
