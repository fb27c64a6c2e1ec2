/** One HTTP exchange as recorded for reports. Credentials are never stored. */
export interface RecordedRequest {
  method: 'POST';
  url: string;
  /** Header values with credentials replaced by placeholders. */
  headers: Record<string, string>;
  /** The body exactly as sent (a string), so malformed bodies replay faithfully. */
  body: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Body text, truncated for the report when large. */
  body: string;
  truncated: boolean;
}

/** Why no answer came: a stable code (DC_ERR_TIMEOUT, DC_ERR_NETWORK, …) and what happened. */
export interface TransportError {
  code: string;
  message: string;
}

/**
 * One exchange: answered (a response, no error) or failed (an error, no
 * response). The two are told apart by which of the two fields is there, so
 * results.json keeps its shape: `if (exchange.response)` narrows to
 * AnsweredExchange, `if (exchange.error)` to FailedExchange.
 */
export type Exchange = AnsweredExchange | FailedExchange;

export interface AnsweredExchange extends ExchangeRecord {
  response: RecordedResponse;
  error?: undefined;
}

export interface FailedExchange extends ExchangeRecord {
  response?: undefined;
  /** No response came (network fault, timeout, oversized body). */
  error: TransportError;
}

/** What every exchange records, answered or not. */
interface ExchangeRecord {
  operation: string;
  /** When the answered attempt was sent (ISO 8601). */
  startedAt?: string;
  request: RecordedRequest;
  /**
   * The server's time: from sending the last attempt to its complete answer.
   * Waiting for the rate limiter and sleeping between attempts are not in it.
   */
  durationMs: number;
  /** Number of attempts, each one a request on the wire: what the retry policy repeats (src/client/retry-policy.ts). */
  attempts: number;
  /** Time spent waiting for the run's pacer (rate limit, requests in flight), all attempts, in ms; absent when none. */
  queuedMs?: number;
  /** Time slept between attempts (Retry-After or back-off), in ms; absent when none. */
  retryWaitMs?: number;
  /** What each earlier attempt got, oldest first: a status or an error code; absent when there was one attempt. */
  earlierAttempts?: Array<{ status?: number; error?: string }>;
  /** The answer another rule received to the same read, shared: this rule sent no request for it. */
  shared?: true;
  /** The rule whose check sent (or, shared, read) it: every exchange of a run is tagged by the engine. */
  rule?: string;
  /** What the request was for within its rule, e.g. "resources.list page 2", when the step named it. */
  step?: string;
  /** The run of a property it belongs to (1 for the first): a property's judge reads one run at a time. */
  run?: number;
}

/** A request's answer as every layer reads it: the suite's client returns it, rules judge it, reports keep its exchange. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: unknown;
  /** An answer came: the exchange has a response (a request that got none throws instead). */
  exchange: AnsweredExchange;
  /**
   * When the answered attempt went out and when its answer was complete, in
   * ms since the epoch to a fraction of a millisecond (the exchange keeps
   * `startedAt` to the millisecond): judges of requests sent at the same time
   * read their real-time order from it. Absent on an answer built by hand.
   */
  at?: { sent: number; answered: number };
}
