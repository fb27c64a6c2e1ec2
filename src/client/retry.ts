import { HarnessError } from '../core/errors.ts';
import { SYSTEM_CLOCK, type Clock } from '../core/timing.ts';
import { parseRetryAfter } from './rate-limit-headers.ts';
import { REQUEST_CLASSES, repeats, type RepeatRule, type RequestClass, type RetryPolicy } from './retry-policy.ts';
import type {
  AttemptOptions,
  AttemptOutcome,
  Delivery,
  SendAttempt,
  SendRequest,
  TransportRequest,
} from './transport.ts';

const FIRST: AttemptOptions = Object.freeze({ retry: false });
const REPEAT: AttemptOptions = Object.freeze({ retry: true });

/**
 * Sends a request's attempts: again while the retry policy says the answer
 * (or failure) is worth another attempt, after the answer's Retry-After or a
 * back-off, within the policy's bounds on waiting. The last attempt's outcome
 * stands, with what each earlier one got.
 */
export function retry(policy: RetryPolicy, clock: Clock = SYSTEM_CLOCK): (next: SendAttempt) => SendRequest {
  const classes = new Map<RequestClass, { rules: readonly RepeatRule[]; lowestStatus: number }>();
  for (const name of REQUEST_CLASSES) {
    const rules = policy.classes[name].rules.map((rule) => policy.rules[rule]);
    classes.set(name, { rules, lowestStatus: lowestStatusRepeated(rules) });
  }
  return (next) =>
    async (request: TransportRequest): Promise<Delivery> => {
      const { rules, lowestStatus } = classes.get(request.retryClass) ?? { rules: [], lowestStatus: Infinity };
      let earlierAttempts: Array<{ status?: number; error?: string }> | undefined;
      /** Answers each rule has matched so far, by its place in `rules`; made at the first one. */
      let seen: number[] | undefined;
      let queuedMs = 0;
      let retryWaitMs = 0;
      for (let attempts = 1; ; attempts++) {
        const outcome = await next(request, attempts === 1 ? FIRST : REPEAT);
        queuedMs += outcome.queuedMs;
        // The usual answer, a status no rule of the class repeats, is settled without counting.
        const delay =
          outcome.ok && outcome.status < lowestStatus
            ? undefined
            : delayBefore(policy, rules, (seen ??= rules.map(() => 0)), outcome, attempts);
        if (delay === undefined || delay > policy.maxDelayMs || retryWaitMs + delay > policy.maxWaitMs)
          return { outcome, attempts, earlierAttempts, queuedMs, retryWaitMs };
        (earlierAttempts ??= []).push(outcome.ok ? { status: outcome.status } : { error: outcome.error.code });
        await sleep(clock, delay, request.signal);
        retryWaitMs += delay;
      }
    };
}

/** The wait before another attempt, or undefined when the outcome stands. Counts the outcome in `seen`. */
function delayBefore(
  policy: RetryPolicy,
  rules: readonly RepeatRule[],
  seen: number[],
  outcome: AttemptOutcome,
  attempts: number,
): number | undefined {
  const result = outcome.ok ? outcome : { error: outcome.error.code, causes: outcome.causes };
  let again = false;
  for (const [i, rule] of rules.entries()) {
    if (!repeats(rule, result)) continue;
    const count = (seen[i] ?? 0) + 1;
    seen[i] = count;
    if (count < rule.attempts) again = true;
  }
  if (!again) return undefined;
  return retryDelayMs(outcome.ok ? outcome.headers['retry-after'] : undefined, attempts, policy.backoffMs);
}

function lowestStatusRepeated(rules: readonly RepeatRule[]): number {
  let lowest = Infinity;
  for (const { statuses } of rules) {
    if (statuses === '5xx') lowest = Math.min(lowest, 500);
    else if (statuses !== undefined) lowest = Math.min(lowest, ...statuses);
  }
  return lowest;
}

/** Retry-After in seconds or as an HTTP date; without it, an exponential back-off from `backoffMs`. */
export function retryDelayMs(retryAfter: string | undefined, attempt: number, backoffMs = 200): number {
  return parseRetryAfter(retryAfter) ?? backoffMs * 2 ** (attempt - 1);
}

/** A wait between attempts on `clock`; an aborted run ends it as DC_ERR_ABORTED. */
async function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new HarnessError('DC_ERR_ABORTED', 'run aborted');
  try {
    await clock.sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw new HarnessError('DC_ERR_ABORTED', 'run aborted');
    throw error;
  }
}
