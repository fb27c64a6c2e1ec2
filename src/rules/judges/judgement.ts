/**
 * What a rule's judge says of the exchanges it was given. A judge is a pure
 * function of a rule's tagged exchanges and the profile: the engine runs it
 * once the rule's driver has sent its requests, `ctx.judged` runs it after
 * each run of a property (so fast-check still shrinks), and recorded traffic
 * can be judged by it with no network.
 *
 * Three outcomes besides a clean pass, kept apart because they mean
 * different things to a user: a departure (violations: FAIL), an answer that
 * says nothing of the clause (a 429, a refused credential, a server error
 * that may pass: ERROR, no verdict), and traffic that does not hold what the
 * clause needs (no evidence: SKIP in a run, not applicable in a recording).
 */
import type { HarnessErrorCode } from '../../core/errors.ts';
import type { Violation } from '../../core/types.ts';
import { validateSchema, type SchemaName } from '../../schemas/index.ts';
import { bodySummary, type Observed } from './observed.ts';

/** The answers to judge said nothing of the clause: no verdict can be had from them. */
export interface NoVerdict {
  readonly noVerdict: string;
  readonly code: Extract<
    HarnessErrorCode,
    'DC_ERR_RATE_LIMITED' | 'DC_ERR_UNAUTHENTICATED' | 'DC_ERR_SERVER_5XX' | 'DC_ERR_PROFILE'
  >;
}

/** The exchanges do not hold what the clause needs (no such request, no data to show it). */
export interface NoEvidence {
  readonly noEvidence: string;
}

/** Violations (none: the clause holds), or why there is no verdict. */
export type Judgement = readonly Violation[] | NoVerdict | NoEvidence;

export function noEvidence(reason: string): NoEvidence {
  return { noEvidence: reason };
}

export function isNoVerdict(j: Judgement): j is NoVerdict {
  return !Array.isArray(j) && 'noVerdict' in j;
}

export function isNoEvidence(j: Judgement): j is NoEvidence {
  return !Array.isArray(j) && 'noEvidence' in j;
}

/** The clause holds: no violation, and a verdict could be had. */
export function isClean(j: Judgement): boolean {
  return Array.isArray(j) && j.length === 0;
}

/** The violations of a judgement, none when it has no verdict. */
export function violationsOf(j: Judgement): readonly Violation[] {
  return Array.isArray(j) ? j : [];
}

/**
 * Several parts of one judgement: any departure decides (a departure seen
 * anywhere belongs to the clause, whatever another answer said); otherwise the
 * first answer without a verdict, then the first missing evidence.
 */
export function judgeAll(parts: readonly Judgement[]): Judgement {
  const violations = parts.flatMap((p) => violationsOf(p));
  if (violations.length > 0) return violations;
  return parts.find(isNoVerdict) ?? parts.find(isNoEvidence) ?? [];
}

/** Each exchange judged by `judge`, as one judgement; no exchange at all is no evidence (`missing`). */
export function judgeEach(
  exchanges: readonly Observed[],
  missing: string,
  judge: (o: Observed) => Judgement,
): Judgement {
  return exchanges.length === 0 ? noEvidence(missing) : judgeAll(exchanges.map(judge));
}

/** The exchanges a driver tagged with `step`, in the order they were sent. */
export function withStep(log: readonly Observed[], step: string): Observed[] {
  return log.filter((o) => o.step === step);
}

/** The first exchange tagged `step`, if there is one. */
export function firstWithStep(log: readonly Observed[], step: string): Observed | undefined {
  return log.find((o) => o.step === step);
}

/** Every status the request got, the client's repeats included, oldest first. */
function answersSeen(o: Observed): string {
  return [...o.earlierStatuses.map(String), String(o.status)].join(', ');
}

const GATEWAY = [502, 503, 504];

/** 429 and (unless credentials are the clause) 401: the rate or the credential, nothing of the request. */
function limited(o: Observed, credentialsUnderTest: boolean): NoVerdict | undefined {
  if (o.status === 429)
    return { code: 'DC_ERR_RATE_LIMITED', noVerdict: `${o.step}: rate limited (429) after retries` };
  if (o.status === 401 && !credentialsUnderTest)
    return { code: 'DC_ERR_UNAUTHENTICATED', noVerdict: `${o.step}: the credential was refused (401)` };
  return undefined;
}

/**
 * A 5xx says something of the request only when it repeated with no gateway
 * answer among the answers (the client sends a judged request once more after
 * a 5xx): a single server error may be a passing fault, and 502/503/504 are
 * the infrastructure's.
 */
function serverErrorWithoutVerdict(o: Observed): NoVerdict | undefined {
  if (o.status < 500) return undefined;
  const statuses = [...o.earlierStatuses, o.status];
  if (statuses.some((s) => GATEWAY.includes(s))) {
    return {
      code: 'DC_ERR_SERVER_5XX',
      noVerdict: `${o.step}: gateway or overload answers (${answersSeen(o)}) say nothing about the request: no verdict`,
    };
  }
  if (statuses.filter((s) => s >= 500).length < 2) {
    return {
      code: 'DC_ERR_SERVER_5XX',
      noVerdict: `${o.step}: a server error that was not repeated (${answersSeen(o)}) may be a passing fault: no verdict`,
    };
  }
  return undefined;
}

/** Any answer of these says nothing of a request documented as valid: 401, 429, 5xx. */
function harnessFault(o: Observed): NoVerdict | undefined {
  if (o.status >= 500) return { code: 'DC_ERR_SERVER_5XX', noVerdict: `${o.step}: server error ${o.status}` };
  return limited(o, false);
}

function notJson(o: Observed): boolean {
  return o.body === undefined && o.text.trim() !== '';
}

function jsonBody(o: Observed): Violation[] {
  return notJson(o)
    ? [
        {
          where: `${o.step}: response.body`,
          message: 'must be a JSON document (the interface is HTTP/JSON)',
          expected: 'JSON',
          actual: bodySummary(o),
        },
      ]
    : [];
}

/**
 * A request the spec documents as valid: accepted with one of `status` (any
 * 2xx when not given) and a body that is JSON when there is one. A 4xx is the
 * server refusing a valid request; 401, 429 and 5xx are no verdict.
 */
export function accepted(o: Observed, options: { status?: number | readonly number[] } = {}): Judgement {
  const statuses = options.status === undefined ? undefined : [options.status].flat();
  const ok = statuses ? statuses.includes(o.status) : o.status >= 200 && o.status < 300;
  if (!ok) {
    return (
      harnessFault(o) ?? [
        {
          where: `${o.step}: response.status`,
          message: `must accept a valid ${o.step} request`,
          expected: statuses ? statuses.join(' or ') : '2xx',
          actual: `${o.status} ${bodySummary(o)}`,
        },
      ]
    );
  }
  return jsonBody(o);
}

/**
 * A write whose every value is documented and valid for the target (its
 * `values`, in words), refused with a 4xx: the refusal departs, whichever
 * field the server blamed. Undefined for any other answer.
 */
export function refusedComplete(o: Observed, values: string, expected = '2xx'): Violation | undefined {
  if (o.status < 400 || o.status >= 500) return undefined;
  return {
    where: `${o.step}: response.status`,
    message: `must accept an assignment whose every value is documented and valid for the target (${values})`,
    expected,
    actual: { status: o.status, body: o.body, sent: o.request },
  };
}

/** A success with no body: `status` (204 unless given) and nothing after the headers. */
export function noContent(o: Observed, options: { status?: number } = {}): Judgement {
  const status = options.status ?? 204;
  if (o.status !== status) {
    return (
      harnessFault(o) ?? [
        { where: `${o.step}: response.status`, message: `must be ${status}`, expected: status, actual: o.status },
      ]
    );
  }
  if (o.text.length === 0) return [];
  return [
    {
      where: `${o.step}: response.body`,
      message: `must be empty (no body) with ${status}`,
      expected: '(empty)',
      actual: bodySummary(o),
    },
  ];
}

/** An accepted answer whose body matches the schema of spec §2. */
export function shaped(o: Observed, schema: SchemaName, options: { status?: number } = {}): Judgement {
  const answer = accepted(o, { status: options.status ?? 200 });
  if (!Array.isArray(answer) || answer.length > 0) return answer;
  if (o.body === undefined) {
    return [
      {
        where: `${o.step}: response.body`,
        message: 'must be a JSON document',
        expected: schema,
        actual: bodySummary(o) || '(empty body)',
      },
    ];
  }
  return validateSchema(schema, o.body, `${o.step}: response.body`);
}

/**
 * A request the spec says is rejected: with `status` when given, any 4xx
 * otherwise (the status of most rejections is "not shown"). A 2xx is a
 * departure; a server error is one only when it repeated without a gateway
 * answer; 429, and 401 unless credentials are the clause, are no verdict.
 */
export function rejected(o: Observed, options: { status?: number; credentialsUnderTest?: boolean } = {}): Judgement {
  const noVerdict = limited(o, options.credentialsUnderTest === true);
  if (noVerdict) return noVerdict;
  const ok = options.status !== undefined ? o.status === options.status : o.status >= 400 && o.status < 500;
  if (ok) return [];
  const serverError = serverErrorWithoutVerdict(o);
  if (serverError) return serverError;
  const expected = options.status ?? 'a 4xx status';
  return [
    {
      where: `${o.step}: response.status`,
      message:
        o.status >= 500
          ? `must reject ${o.step} with ${expected}, not a server error (answers: ${answersSeen(o)})`
          : `must reject ${o.step} with ${expected} (answers: ${answersSeen(o)})`,
      expected: options.status ?? '4xx',
      actual: `${o.status} ${bodySummary(o)}`,
    },
  ];
}

/**
 * Whatever the status (the spec leaves it open), not a server error: one
 * that repeated without a gateway answer is a departure described by `message`.
 */
export function noServerError(o: Observed, message: string): Judgement {
  const noVerdict = limited(o, false);
  if (noVerdict) return noVerdict;
  if (o.status < 500) return [];
  return (
    serverErrorWithoutVerdict(o) ?? [
      {
        where: `${o.step}: response.status`,
        message: `${message} (answers: ${answersSeen(o)})`,
        expected: '2xx or 4xx',
        actual: `${o.status} ${bodySummary(o)}`,
      },
    ]
  );
}

/**
 * Logs (or answers) judged alone, of which one showing the clause is
 * evidence enough: any departure decides; else one clean part passes; else
 * the first that said nothing, then the first missing evidence.
 */
export function judgeAny(parts: readonly Judgement[]): Judgement {
  const violations = parts.flatMap((p) => violationsOf(p));
  if (violations.length > 0) return violations;
  if (parts.some(isClean)) return [];
  return parts.find(isNoVerdict) ?? parts.find(isNoEvidence) ?? noEvidence('no log to judge');
}
