/**
 * One request and its answer as a judge reads it, whoever sent it: the
 * suite's own client (a step builds it from the answer it got) or, later,
 * recorded traffic. Judges are pure functions of these records: they send
 * nothing and are tested on logs with no network.
 */
import type { ApiResponse } from '../../client/directory-client.ts';
import type { AnsweredExchange } from '../../core/exchange.ts';
import { parseJsonText } from '../../core/json-text.ts';
import type { Violation } from '../../core/types.ts';

export interface Observed {
  /** e.g. "resources.list". */
  operation: string;
  /** Names the exchange in violations, e.g. "resources.list page 2". */
  step: string;
  /** The request body as sent (parsed); undefined when it was not JSON. */
  request: unknown;
  status: number;
  /** The answer's body parsed; undefined when empty or not JSON. */
  body: unknown;
  /** The answer's body as text. */
  text: string;
  /** The statuses earlier attempts of the same request got (the client repeats some), oldest first. */
  earlierStatuses: readonly number[];
  /**
   * Which credential the request carried, read from its recorded
   * Authorization header: the profile's main key, its restricted key, none,
   * or something else (a malformed header a rule sent on purpose).
   */
  credential: Credential;
  /**
   * When the request went out and when its whole answer had come, in ms
   * since the epoch: the real-time order of requests sent at the same time
   * (a linearizability judge reads it). To a fraction of a millisecond from
   * the answer the suite received; from a recorded exchange, its `startedAt`
   * and `durationMs`, each to the millisecond, so the end is put late enough
   * (`RECORDED_TIME_SLACK_MS`) that the span holds the true one. Absent when
   * the record holds no time.
   */
  at?: { sent: number; answered: number };
}

/**
 * A recorded exchange's times are whole milliseconds: `startedAt` is the
 * answer's time less the duration, cut to the millisecond (up to 2 ms
 * early), and `durationMs` is rounded (up to 0.5 ms short). Its answer came
 * at most this long after `startedAt + durationMs`.
 */
export const RECORDED_TIME_SLACK_MS = 3;

/** The span a recorded exchange's times hold, or undefined when it has none. */
export function recordedSpan(
  exchange: Pick<AnsweredExchange, 'startedAt' | 'durationMs'>,
): { sent: number; answered: number } | undefined {
  const sent = exchange.startedAt === undefined ? Number.NaN : Date.parse(exchange.startedAt);
  if (Number.isNaN(sent)) return undefined;
  return { sent, answered: sent + exchange.durationMs + RECORDED_TIME_SLACK_MS };
}

export type Credential = 'main' | 'restricted' | 'none' | 'other';

/** The credential a recorded request carried, from the placeholder the recorder put in its place. */
export function credentialOf(exchange: Pick<AnsweredExchange, 'request'>): Credential {
  const header = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'authorization');
  return credentialOfHeader(header?.[1]);
}

/**
 * The credential a recorded Authorization header's value stands for
 * (undefined: none was sent): the suite's placeholders, or `restrictedAs`,
 * what another client's recording carries for the restricted key (the whole
 * value, or the token after `Bearer `).
 */
export function credentialOfHeader(value: string | undefined, restrictedAs?: string): Credential {
  if (value === undefined) return 'none';
  if (value === 'Bearer $DIRECTORY_API_KEY') return 'main';
  if (value === 'Bearer $DIRECTORY_RESTRICTED_API_KEY') return 'restricted';
  if (
    restrictedAs !== undefined &&
    restrictedAs !== '' &&
    (value === restrictedAs || value === `Bearer ${restrictedAs}`)
  )
    return 'restricted';
  return 'other';
}

/** The request body a recorded exchange carried, parsed; undefined when it was not JSON. */
export function requestOf(exchange: Pick<AnsweredExchange, 'request'>): unknown {
  return parseJsonText(exchange.request.body);
}

/**
 * A recorded exchange as a judge reads it. `answer` is the whole answer when
 * the suite itself received it (a recorded body is cut at 64 KiB); without
 * it, the recorded body is read.
 */
export function observedFromExchange(
  exchange: AnsweredExchange,
  answer?: Pick<ApiResponse, 'text' | 'json' | 'at'>,
): Observed {
  const text = answer?.text ?? exchange.response.body;
  const at = answer?.at ?? recordedSpan(exchange);
  return {
    operation: exchange.operation,
    step: exchange.step ?? exchange.operation,
    request: requestOf(exchange),
    status: exchange.response.status,
    body: answer ? answer.json : parseJsonText(text),
    text,
    earlierStatuses: (exchange.earlierAttempts ?? []).flatMap((a) => (a.status === undefined ? [] : [a.status])),
    credential: credentialOf(exchange),
    ...(at ? { at } : {}),
  };
}

/**
 * A check the shared steps and the traffic judges make for whichever rule's
 * clause holds it (a list page is an envelope; a walk lists each resource
 * once): that rule names it in its record (`checks`), and the engine finds
 * the owner there. No rule id is written beside it.
 */
export interface SharedCheck {
  /** What it checks, for messages. */
  readonly name: string;
}

/** A shared check of one answer: of each exchange of `operation`. */
export interface ExchangeJudge extends SharedCheck {
  /** The operation whose exchanges it judges. */
  readonly operation: string;
  judge(exchange: Observed): Violation[];
}

/** What a step got, as a judge reads it. */
export function observedOf(res: ApiResponse, step: string, request: unknown): Observed {
  return { ...observedFromExchange(res.exchange, res), step, request };
}

/**
 * 401, 429 and 5xx say nothing of the rule (the credential, the rate, the
 * server's health): no judge draws a verdict from them.
 */
export function noVerdict(exchange: Pick<Observed, 'status'>): boolean {
  return exchange.status === 401 || exchange.status === 429 || exchange.status >= 500;
}

/** The first characters of a body, one line, for `actual`. */
export function bodySummary(exchange: Pick<Observed, 'text'>, max = 300): string {
  const text = exchange.text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A plain object's field, whatever the object is. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Reflect.get(value, name) : undefined;
}

/**
 * A read documented as valid must be accepted with 200 and a JSON body:
 * the violations of either missing, or none (`expected` names what the body should be).
 */
export function answered(o: Observed, expected: string): Violation[] {
  if (o.status !== 200) {
    return [
      {
        where: `${o.step}: response.status`,
        message: `must accept a valid ${o.step} request`,
        expected: 200,
        actual: `${o.status} ${bodySummary(o)}`,
      },
    ];
  }
  if (o.body !== undefined) return [];
  return [
    {
      where: `${o.step}: response.body`,
      message: 'must be a JSON document (the interface is HTTP/JSON)',
      expected,
      actual: bodySummary(o) || '(empty body)',
    },
  ];
}
