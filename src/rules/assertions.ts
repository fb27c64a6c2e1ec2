/**
 * The assertions checks are written with. Each separates the three ways a
 * step can end: the server broke the running rule's clause
 * (ConformanceFailure → FAIL), the harness or the network could not get an
 * answer (HarnessError → ERROR / NOT-TESTED), or all is well and the typed
 * value comes back. A shared step that checks another rule's clause wraps the
 * assertion in `owned`: who owns a departure is data the engine reads, never
 * a convention of the step.
 */
import { GATEWAY_STATUSES } from '../client/retry-policy.ts';
import { messageIn } from '../core/error-message.ts';
// Read by the runner and the errors rules from here; a reproducer script's plan reads it from core.
export { recordedErrorMessage } from '../core/error-message.ts';
import type { ApiResponse } from '../core/exchange.ts';
import { ConformanceFailure, DepartureOfAnotherRule, HarnessError, isConformanceFailure } from '../core/errors.ts';
import type { Violation } from '../core/types.ts';
import { validateSchema, type SchemaName, type SchemaType } from '../schemas/index.ts';
import { isNoEvidence, isNoVerdict, type Judgement } from './judges/judgement.ts';
import type { SharedCheck } from './judges/observed.ts';
import type { RuleId } from './rule-ids.ts';
import type { BaseCheckContext } from './types.ts';

export interface StepOptions {
  /** Names the request in messages, e.g. "resources.list page 2". */
  step?: string;
}

/** The server departs from the rule. */
export function fail(violation: Violation): never {
  throw new ConformanceFailure([violation]);
}

/** Fails with every violation at once (none: nothing happens). */
export function failAll(violations: readonly Violation[]): void {
  if (violations.length > 0) throw new ConformanceFailure([...violations]);
}

/**
 * What a judgement says, as the engine reads a check's outcome: violations
 * are a ConformanceFailure, no verdict a HarnessError of its code, no
 * evidence an unmet precondition (SKIP); a clean judgement returns.
 */
export function enforce(judgement: Judgement): void {
  if (isNoVerdict(judgement)) throw new HarnessError(judgement.code, judgement.noVerdict);
  if (isNoEvidence(judgement)) throw new HarnessError('DC_ERR_PRECONDITION', judgement.noEvidence);
  failAll(judgement);
}

/** A precondition the target must meet for the rule to say anything: SKIP with the reason, not a verdict. */
export function precondition(condition: unknown, message: string): asserts condition {
  if (!condition) throw new HarnessError('DC_ERR_PRECONDITION', message);
}

/** What `owned` needs of the running rule: its id, where to report another rule's departure, whose a check is. */
export type OwnerContext = Pick<BaseCheckContext, 'ruleId' | 'found' | 'ownerOf'>;

/**
 * Runs a check a shared step makes for the rule whose clause it is: the rule
 * whose record names the shared check (a list page is an envelope, it holds
 * at most `limit` entries), or, in a rule file, the rule it names by id.
 * Inside that rule a departure is the
 * rule's own FAIL. Inside any other rule it is reported to the engine as the
 * owner's, with this rule's requests as the evidence (the engine FAILs the
 * owner on it, whatever the owner's own requests showed), and the running rule
 * stops, blocked by the owner: the step could not give it what its clause needs.
 */
export function owned<T>(ctx: OwnerContext, owner: RuleId | SharedCheck, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw charged(ctx, typeof owner === 'string' ? owner : ctx.ownerOf(owner), error);
  }
}

function charged(ctx: OwnerContext, owner: RuleId, error: unknown): unknown {
  if (!isConformanceFailure(error) || owner === ctx.ruleId) return error;
  ctx.found(owner, error.violations);
  return new DepartureOfAnotherRule(owner, error.violations);
}

/** Statuses that mean "no verdict can be had", whatever the rule expected. */
function harnessFault(res: ApiResponse, step: string): HarnessError | undefined {
  if (res.status === 429) return new HarnessError('DC_ERR_RATE_LIMITED', `${step}: rate limited (429) after retries`);
  if (res.status === 401)
    return new HarnessError('DC_ERR_UNAUTHENTICATED', `${step}: the credential was refused (401)`);
  if (res.status >= 500) return new HarnessError('DC_ERR_SERVER_5XX', `${step}: server error ${res.status}`);
  return undefined;
}

/**
 * Whatever a request was for, a 2xx answer with a body is JSON (the interface
 * is HTTP/JSON): for requests whose status another rule judges.
 */
export function expectJsonBodyOn2xx(res: ApiResponse, options: StepOptions = {}): void {
  if (res.status >= 200 && res.status < 300 && unparsable(res)) {
    const step = options.step ?? res.exchange.operation;
    fail({
      where: `${step}: response.body`,
      message: 'must be a JSON document (the interface is HTTP/JSON)',
      expected: 'JSON',
      actual: summariseBody(res),
    });
  }
}

/** True for a body that is not empty and does not parse as JSON. */
function unparsable(res: ApiResponse): boolean {
  return res.json === undefined && res.text.trim() !== '';
}

/**
 * The request is one the spec documents as valid: it must succeed, with one
 * of `status` when given (any 2xx otherwise), and a body that is JSON when
 * there is one. A 4xx is the server refusing a valid request (FAIL);
 * 401/429/5xx are harness faults (ERROR): no verdict can be drawn from them.
 */
export function expectSuccess(
  res: ApiResponse,
  options: StepOptions & { status?: number | readonly number[] } = {},
): void {
  const step = options.step ?? res.exchange.operation;
  const statuses = options.status === undefined ? undefined : [options.status].flat();
  const ok = statuses ? statuses.includes(res.status) : res.status >= 200 && res.status < 300;
  if (!ok) {
    const fault = harnessFault(res, step);
    if (fault) throw fault;
    fail({
      where: `${step}: response.status`,
      message: `must accept a valid ${step} request`,
      expected: statuses ? statuses.join(' or ') : '2xx',
      actual: `${res.status} ${summariseBody(res)}`,
    });
  }
  if (unparsable(res)) {
    fail({
      where: `${step}: response.body`,
      message: 'must be a JSON document (the interface is HTTP/JSON)',
      expected: 'JSON',
      actual: summariseBody(res),
    });
  }
}

/**
 * The body must parse as JSON and match the schema of spec §2; comes back
 * typed by that schema.
 */
export function expectJson<N extends SchemaName>(
  res: ApiResponse,
  schema: N,
  options: StepOptions = {},
): SchemaType<N> {
  const where = `${options.step ? `${options.step}: ` : ''}response.body`;
  if (res.json === undefined) {
    fail({
      where,
      message: 'must be a JSON document',
      expected: schema,
      actual: summariseBody(res) || '(empty body)',
    });
  }
  failAll(validateSchema(schema, res.json, where));
  return res.json as SchemaType<N>;
}

/** Every status (or transport error code) the request got, the client's repeats included, oldest first. */
function answersSeen(res: ApiResponse): string {
  return [...(res.exchange.earlierAttempts ?? []).map((e) => String(e.status ?? e.error)), String(res.status)].join(
    ', ',
  );
}

/**
 * A 5xx that says nothing about the request, so no verdict (ERROR). The
 * client sends a judged request once more after a 5xx (its retry policy: a
 * single server error may be a passing fault, a restarting node, a gateway
 * hiccup): 502/503/504 are gateway and overload answers, which even repeated
 * say nothing about the request; a server error that was not repeated (the
 * request was not sent as judged, or the server asked for a longer wait than
 * the client makes) may be a glitch. Only a server error that repeats with no
 * gateway answer among the answers (500, 501…) speaks of the request: the
 * caller's departure.
 */
function serverErrorWithoutVerdict(res: ApiResponse, step: string): HarnessError | undefined {
  if (res.status < 500) return undefined;
  const statuses = [...(res.exchange.earlierAttempts ?? []).map((e) => e.status), res.status];
  if (statuses.some((status) => status !== undefined && GATEWAY_STATUSES.includes(status))) {
    return new HarnessError(
      'DC_ERR_SERVER_5XX',
      `${step}: gateway or overload answers (${answersSeen(res)}) say nothing about the request: no verdict`,
    );
  }
  if (statuses.filter((status) => status !== undefined && status >= 500).length < 2) {
    return new HarnessError(
      'DC_ERR_SERVER_5XX',
      `${step}: a server error that was not repeated (${answersSeen(res)}) may be a passing fault: no verdict`,
    );
  }
  return undefined;
}

/**
 * The request is one the spec says is rejected: any 4xx unless `status` is
 * given (the status of most rejections is "not shown"). A 2xx is a departure.
 * A 5xx may be a passing fault, so `send` posts with `retry: 'judged'` and
 * the client sends it once more: a server
 * error that repeats is a departure described as a server error, unless a
 * gateway answer (502/503/504) is among them, which is an ERROR. 429, and 401
 * unless the rule is about credentials, mean no verdict. Messages name every
 * answer seen.
 */
export async function expectRejected(
  send: () => Promise<ApiResponse>,
  options: StepOptions & { status?: number; credentialsUnderTest?: boolean },
): Promise<ApiResponse> {
  const step = options.step ?? 'the request';
  const res = await send();
  const refused = res.status === 401 && !options.credentialsUnderTest ? harnessFault(res, step) : undefined;
  const limited = res.status === 429 ? harnessFault(res, step) : refused;
  if (limited) throw limited;
  const rejected = options.status !== undefined ? res.status === options.status : res.status >= 400 && res.status < 500;
  if (rejected) return res;
  const noVerdict = serverErrorWithoutVerdict(res, step);
  if (noVerdict) throw noVerdict;
  const expected = options.status ?? 'a 4xx status';
  fail({
    where: `${step}: response.status`,
    message:
      res.status >= 500
        ? `must reject ${step} with ${expected}, not a server error (answers: ${answersSeen(res)})`
        : `must reject ${step} with ${expected} (answers: ${answersSeen(res)})`,
    expected: options.status ?? '4xx',
    actual: `${res.status} ${summariseBody(res)}`,
  });
}

/**
 * The request must get an answer that is not a server error, whatever else it
 * may be (for requests whose status the spec leaves open). A 5xx is sent once
 * more (`send` posts with `retry: 'judged'`); one that repeats is a departure, a gateway answer (502/503/504) among
 * them is an ERROR, as in expectRejected. 429 and 401 mean no verdict.
 */
export async function expectNoServerError(
  send: () => Promise<ApiResponse>,
  options: StepOptions & { message: string },
): Promise<ApiResponse> {
  const step = options.step ?? 'the request';
  const res = await send();
  const limited = res.status === 429 || res.status === 401 ? harnessFault(res, step) : undefined;
  if (limited) throw limited;
  if (res.status < 500) return res;
  const noVerdict = serverErrorWithoutVerdict(res, step);
  if (noVerdict) throw noVerdict;
  fail({
    where: `${step}: response.status`,
    message: `${options.message} (answers: ${answersSeen(res)})`,
    expected: '2xx or 4xx',
    actual: `${res.status} ${summariseBody(res)}`,
  });
}

/** Text of a JSON error body's message, whatever field the server uses for it. */
export function errorMessage(res: ApiResponse): string | undefined {
  return messageIn(res.json);
}

export function summariseBody(res: ApiResponse, max = 300): string {
  const text = res.text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
