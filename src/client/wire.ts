import { errors, type Dispatcher } from 'undici';
import { HarnessError } from '../core/errors.ts';
import { cutShortJson, decodeBody } from './decode.ts';
import type { Redactor } from './redact.ts';
import type { AttemptOptions, AttemptOutcome, SendAttempt, TransportRequest } from './transport.ts';

export interface WireSettings {
  dispatcher: Dispatcher;
  /** Deadline of one attempt, headers and body included. */
  timeoutMs: number;
  /** Larger response bodies are cut off and reported as a harness fault. */
  maxBodyBytes: number;
  /** Error details can quote the address: they pass the redactor. */
  redactor: Redactor;
}

/**
 * The last link of the client's chain: one attempt on the wire, within the
 * deadline, given up when the request's signal fires. It never throws: a
 * failure is an outcome, for the retry link to judge.
 */
export function wire(settings: WireSettings): SendAttempt {
  return async (request: TransportRequest, attempt: AttemptOptions): Promise<AttemptOutcome> => {
    const { signal, operation } = request;
    const sentAt = performance.now();
    if (signal?.aborted) {
      const error = new HarnessError('DC_ERR_ABORTED', `${operation}: run aborted`);
      return { ok: false, error, causes: [], durationMs: 0, queuedMs: 0 };
    }
    const call = sendOnWire(settings.dispatcher, {
      origin: request.origin,
      path: request.path,
      headers: request.headers,
      body: request.text,
      idleTimeoutMs: settings.timeoutMs,
      maxBodyBytes: settings.maxBodyBytes,
      onHeaders: attempt.onHeaders,
    });
    // The whole answer, headers and body, within the deadline: undici's own limits are per part.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, settings.timeoutMs);
    const onAbort = (): void => call.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await call.answer;
      const { headers } = answer;
      // The usual answer, neither encoded nor framed by the connection's close, goes as it came.
      const coding = headers['content-encoding'];
      const bytes =
        coding === undefined ? answer.bytes : await decodeBody(answer.bytes, coding, settings.maxBodyBytes, operation);
      const text = bytes.toString('utf8');
      if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined && cutShortJson(text))
        throw new HarnessError(
          'DC_ERR_BODY_CUT',
          `${operation}: the answer (status ${answer.status}) ended with the connection in the middle of its JSON body ` +
            `(${bytes.length} bytes, no Content-Length): cut short`,
        );
      return {
        ok: true,
        status: answer.status,
        headers,
        bytes,
        text,
        durationMs: performance.now() - sentAt,
        queuedMs: 0,
      };
    } catch (cause) {
      const failure = harnessErrorOf(cause, request, settings, timedOut);
      return { ok: false, ...failure, durationMs: performance.now() - sentAt, queuedMs: 0 };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

/** What undici's failure means to the run, and the low-level code under it. */
function harnessErrorOf(
  cause: unknown,
  request: TransportRequest,
  settings: WireSettings,
  timedOut: boolean,
): { error: HarnessError; causes: readonly string[] } {
  // A failure once the status and headers were in: the body was cut short.
  const cut = cause instanceof AnswerCutShort ? cause : undefined;
  const failure = cut ? cut.failure : cause;
  if (failure instanceof HarnessError) return { error: failure, causes: [] };
  const { operation } = request;
  const err = failure as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const detail = settings.redactor.redact(`${err.code ?? err.name ?? 'error'}: ${err.message ?? String(failure)}`);
  if (request.signal?.aborted && !timedOut)
    return { error: new HarnessError('DC_ERR_ABORTED', `${operation}: run aborted`), causes: [] };
  if (
    timedOut ||
    err.name === 'TimeoutError' ||
    err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    const message = `${operation}: no complete answer within ${settings.timeoutMs} ms${timedOut ? '' : ` (${detail})`}`;
    return { error: new HarnessError('DC_ERR_TIMEOUT', message), causes: [] };
  }
  if (cut) {
    const message = `${operation}: the answer (status ${cut.status}) was cut short after ${cut.received} bytes (${detail})`;
    return { error: new HarnessError('DC_ERR_BODY_CUT', message), causes: [] };
  }
  // A socket error often comes wrapped: the code that says what happened may be the outer or the inner one.
  const causes = [err.code, err.cause?.code].filter((code): code is string => typeof code === 'string');
  // TLS spoken to a server that answered in plain HTTP: its first bytes are no TLS record. Said as what to change,
  // not as the TLS library's internals.
  if (causes.includes('ERR_SSL_WRONG_VERSION_NUMBER') || /wrong version number/i.test(err.message ?? ''))
    return {
      error: new HarnessError('DC_ERR_NETWORK', `${operation}: the server answered plain HTTP: use http://`),
      causes,
    };
  return { error: new HarnessError('DC_ERR_NETWORK', `${operation}: ${detail}`), causes };
}

/** One request as it goes on the wire. */
export interface WireRequest {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** undici's own limits: for the headers to come, and between two parts of the body. */
  idleTimeoutMs: number;
  /** A body over this many bytes is cut off: the answer fails with DC_ERR_BODY_TOO_LARGE. */
  maxBodyBytes: number;
  /** Told the status and headers as soon as they are in, before the body (a pacer learns the server's limits). */
  onHeaders?: (status: number, headers: Record<string, string>) => void;
}

/** What came back: header names in lower case, repeated headers joined with ", ". */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body's bytes as they came, outside the JavaScript heap. */
  bytes: Buffer;
}

export interface WireCall {
  answer: Promise<WireAnswer>;
  /** Gives up on the answer: the request is cancelled, now or when the dispatcher starts it. */
  abort(): void;
}

/**
 * One request through undici's dispatch interface (documented in its
 * Dispatcher API), the body gathered as it comes. The `request` API would
 * wrap every answer in a Readable stream and the suite only ever reads the
 * whole body: skipping the stream costs undici less per request than its own
 * `request(...).body.text()`, which matters to a suite that pages through a
 * million resources.
 */
export function sendOnWire(dispatcher: Dispatcher, request: WireRequest): WireCall {
  let resolve!: (answer: WireAnswer) => void;
  let reject!: (error: unknown) => void;
  const answer = new Promise<WireAnswer>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const collector = new AnswerCollector(request.maxBodyBytes, request.onHeaders, resolve, reject);
  try {
    dispatcher.dispatch(
      {
        origin: request.origin,
        path: request.path,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        headersTimeout: request.idleTimeoutMs,
        bodyTimeout: request.idleTimeoutMs,
      },
      collector,
    );
  } catch (error) {
    collector.fail(error);
  }
  return { answer, abort: () => collector.abort() };
}

type Controller = Dispatcher.DispatchController;

class AnswerCollector implements Dispatcher.DispatchHandler {
  private controller: Controller | undefined;
  private aborted = false;
  private settled = false;
  private status = 0;
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly maxBodyBytes: number,
    private readonly tellHeaders: WireRequest['onHeaders'],
    private readonly resolve: (answer: WireAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    // Given up on while it waited for a connection: it never goes out. (undici closes the
    // connection it was given; only requests given up on while they wait cost one.)
    if (this.aborted) controller.abort(new errors.RequestAbortedError());
  }

  onResponseStart(
    _controller: Controller,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx answers are interim: the final answer follows.
    if (status < 200) return;
    this.status = status;
    // Frozen: the rule reads the same object the transcript redacts when it is written.
    this.headers = Object.freeze(flattenHeaders(headers));
    this.tellHeaders?.(status, this.headers);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBodyBytes) {
      controller.abort(new HarnessError('DC_ERR_BODY_TOO_LARGE', `response body exceeds ${this.maxBodyBytes} bytes`));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    // One chunk is the usual case: a view of the socket's read, kept as it is.
    this.resolve({
      status: this.status,
      headers: this.headers,
      bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size),
    });
  }

  onResponseError(_controller: Controller, error: Error): void {
    // The status came and the body did not: an answer cut short (a Content-Length or a chunk not met).
    this.fail(this.status === 0 ? error : new AnswerCutShort(this.status, this.size, error));
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.chunks = [];
    this.reject(error);
  }

  abort(): void {
    if (this.aborted || this.settled) return;
    this.aborted = true;
    const reason = new errors.RequestAbortedError();
    // Not started yet: the caller is answered now, and onRequestStart cancels it when its turn comes.
    if (this.controller === undefined) this.fail(reason);
    else this.controller.abort(reason);
  }
}

/** The failure of an answer whose status and headers came, and whose body did not, or not all of it. */
class AnswerCutShort extends Error {
  override readonly name = 'AnswerCutShort';
  constructor(
    readonly status: number,
    readonly received: number,
    readonly failure: Error,
  ) {
    super(failure.message);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
