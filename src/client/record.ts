import type { AnsweredExchange, ApiResponse, Exchange, FailedExchange, RecordedResponse } from '../core/exchange.ts';
import { HarnessError } from '../core/errors.ts';
import { parseJsonText } from '../core/json-text.ts';
import { SYSTEM_CLOCK, type Clock } from '../core/timing.ts';
import type { Redactor } from './redact.ts';
import type { AttemptOutcome, Delivery, SendRequest, TransportRequest } from './transport.ts';

export interface RecordSettings {
  redactor: Redactor;
  /** The run's clock: an exchange's times are on it, as the waits and the server's windows are (default the system's). */
  clock?: Clock | undefined;
  /** Receives every exchange, for the rule's transcript, and the whole answer when one came (for its judge). */
  onExchange?: ((exchange: Exchange, answer?: ApiResponse) => void) | undefined;
}

const RECORDED_BODY_LIMIT = 64 * 1024;

type Recorded =
  { exchange: AnsweredExchange; response: ApiResponse } | { exchange: FailedExchange; response: undefined };

/**
 * A delivery shared between rules is recorded once, when the first of them reads it: each reader's
 * exchange is that one marked shared, and the body is parsed once.
 */
const recordedShared = new WeakMap<AttemptOutcome, Recorded>();

/**
 * The first link of the client's chain: what came back becomes the exchange
 * a transcript keeps (handed to `onExchange`, credentials replaced) and the
 * answer a rule reads. It throws HarnessError when no answer came, and for a
 * redirect, which the suite does not follow; a status is never an error here.
 */
export function record(
  settings: RecordSettings,
): (next: SendRequest) => (request: TransportRequest) => Promise<ApiResponse> {
  return (next) =>
    async (request: TransportRequest): Promise<ApiResponse> => {
      const delivery = await next(request);
      let recorded: Recorded;
      if (request.shared) {
        recorded = recordedShared.get(delivery.outcome) ?? recordOf(request, delivery, settings);
        recordedShared.set(delivery.outcome, recorded);
      } else {
        recorded = recordOf(request, delivery, settings);
      }
      if (recorded.response === undefined) {
        settings.onExchange?.(recorded.exchange);
        if (!delivery.outcome.ok) throw delivery.outcome.error;
        throw new HarnessError('DC_ERR_HARNESS', `${request.operation}: an answer was recorded as none`);
      }
      // This rule's transcript shows the answer it used, marked as another rule's request.
      const exchange: AnsweredExchange = delivery.shared
        ? sharedCopy(recorded.exchange, request.step)
        : recorded.exchange;
      const answer = delivery.shared ? { ...recorded.response, exchange } : recorded.response;
      settings.onExchange?.(exchange, answer);
      const { outcome } = delivery;
      if (!outcome.ok) throw outcome.error;
      if (outcome.status >= 300 && outcome.status < 400) {
        // Redirects are not followed (a POST body and a credential must not go where the user did not point).
        const location = settings.redactor.redact(outcome.headers.location ?? '(no Location header)');
        throw new HarnessError(
          'DC_ERR_REDIRECT',
          `${request.operation}: the target answered ${outcome.status}, a redirect to ${location}; ` +
            'the suite does not follow redirects: point --base-url at the final address',
        );
      }
      return answer;
    };
}

function recordOf(request: TransportRequest, delivery: Delivery, settings: RecordSettings): Recorded {
  const { redactor, clock = SYSTEM_CLOCK } = settings;
  // Read as the answer is recorded, microseconds after the wire had it all; the wire measured the attempt's duration.
  const answeredAt = clock.now();
  const { outcome, attempts } = delivery;
  const recordedRequest = {
    method: 'POST' as const,
    url: request.recordedUrl,
    headers: request.recordedHeaders,
    body: redactor.redact(request.text),
  };
  // Built in one literal and the rare fields after, in the order reports show them: this runs for every request.
  const operation = request.operation;
  const startedAt = isoTime(answeredAt - outcome.durationMs);
  const durationMs = Math.round(outcome.durationMs);
  if (!outcome.ok) {
    const error = { code: outcome.error.code, message: outcome.error.message };
    const failed: FailedExchange = { operation, startedAt, request: recordedRequest, error, durationMs, attempts };
    return { exchange: withRareFields(failed, delivery, request.step), response: undefined };
  }
  const response = recordedResponse(outcome, redactor);
  const answered: AnsweredExchange = { operation, startedAt, request: recordedRequest, response, durationMs, attempts };
  const exchange = withRareFields(answered, delivery, request.step);
  return { exchange, response: answerOf(outcome, exchange, answeredAt) };
}

/** The fields most exchanges lack, set after the literal, in the order reports show them. */
function withRareFields<E extends Exchange>(exchange: E, delivery: Delivery, step: string | undefined): E {
  if (delivery.queuedMs >= 1) exchange.queuedMs = Math.round(delivery.queuedMs);
  if (delivery.retryWaitMs > 0) exchange.retryWaitMs = Math.round(delivery.retryWaitMs);
  if (delivery.earlierAttempts !== undefined) exchange.earlierAttempts = delivery.earlierAttempts;
  if (step !== undefined) exchange.step = step;
  return exchange;
}

/** Another rule's answer as this reader's transcript shows it: marked shared, tagged with this reader's step. */
function sharedCopy(exchange: AnsweredExchange, step: string | undefined): AnsweredExchange {
  const { step: _theirs, rule: _theirRule, ...rest } = exchange;
  return step === undefined ? { ...rest, shared: true } : { ...rest, shared: true, step };
}

function answerOf(outcome: AttemptOutcome & { ok: true }, exchange: AnsweredExchange, answered: number): ApiResponse {
  return {
    status: outcome.status,
    headers: outcome.headers,
    text: outcome.text,
    json: parseJsonText(outcome.text),
    exchange,
    at: { sent: answered - outcome.durationMs, answered },
  };
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
