/**
 * The client's request path is a chain of links, each a function of the next
 * one, in the shape of undici's dispatcher interceptors:
 *
 *   record → shared reads → (agreed reads) → retry → pace → wire
 *
 * `record.ts` turns what came back into the exchange a transcript keeps and
 * the answer a rule reads; `shared-reads.ts` hands a read the run already has
 * the answer to; `agreed-reads.ts` (a confirmation's reads only) sends a read
 * until two answers agree; `retry.ts` sends again what `retry-policy.ts` says to;
 * `pace.ts` waits for the run's pacer; `wire.ts` sends one attempt. The links
 * above retry see a request once; retry and those below it see each attempt.
 */
import type { HarnessError } from '../core/errors.ts';
import type { OperationName } from '../schemas/operations.ts';
import type { RequestClass } from './retry-policy.ts';

/** A request as the chain carries it: built once by the client, the same for every attempt. */
export interface TransportRequest {
  readonly operation: OperationName;
  readonly origin: string;
  readonly path: string;
  /** The address as a transcript shows it. */
  readonly recordedUrl: string;
  /** The headers sent, and as a transcript shows them (credentials replaced). */
  readonly headers: Record<string, string>;
  readonly recordedHeaders: Record<string, string>;
  /** The body exactly as sent. */
  readonly text: string;
  /** The body as a value, when it was sent as JSON (undefined for raw text): the resources it names. */
  readonly body: unknown;
  /** Its row of the retry policy. */
  readonly retryClass: RequestClass;
  /** The caller lets the run hand it another rule's answer to the same read. */
  readonly shared: boolean;
  /** Paced but not counted against the run's request budget (restoring a target). */
  readonly exemptFromBudget: boolean;
  readonly signal: AbortSignal | undefined;
  /** The step the caller named, for the exchange's tag. */
  readonly step: string | undefined;
}

/** How one attempt goes out. */
export interface AttemptOptions {
  /** A repeat of an earlier attempt (the pacer lets it go first). */
  readonly retry: boolean;
  /** Told the status and headers as soon as they are in, before the body. */
  readonly onHeaders?: (status: number, headers: Record<string, string>) => void;
}

/** What one attempt got: an answer, or a failure with no answer. */
export type AttemptOutcome =
  | {
      ok: true;
      status: number;
      headers: Record<string, string>;
      bytes: Buffer;
      text: string;
      /** From sending to the complete answer. */
      durationMs: number;
      /** Waited for the pacer before sending. */
      queuedMs: number;
    }
  | {
      ok: false;
      error: HarnessError;
      /** The low-level codes of the failure (UND_ERR_SOCKET, ECONNRESET…), outer first. */
      causes: readonly string[];
      durationMs: number;
      queuedMs: number;
    };

/** A request and all its attempts: the last attempt's outcome, and how it was had. */
export interface Delivery {
  readonly outcome: AttemptOutcome;
  readonly attempts: number;
  /** What each earlier attempt got, oldest first; undefined when there was one attempt. */
  readonly earlierAttempts: Array<{ status?: number; error?: string }> | undefined;
  /** Waited for the pacer, all attempts. */
  readonly queuedMs: number;
  /** Slept between attempts. */
  readonly retryWaitMs: number;
  /** Another request's delivery, handed to this one by the run's shared reads. */
  readonly shared?: true;
}

/** Links at or below retry: one attempt. */
export type SendAttempt = (request: TransportRequest, attempt: AttemptOptions) => Promise<AttemptOutcome>;

/** Links above retry: a request with its attempts. */
export type SendRequest = (request: TransportRequest) => Promise<Delivery>;
