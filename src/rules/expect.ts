/**
 * Assertions for checks. Each one separates the three ways a step can go:
 * the server broke the rule (ConformanceFailure → FAIL), the harness or the
 * network could not get an answer (HarnessError → ERROR / NOT-TESTED), or all
 * is well.
 */
import type { ApiResponse } from '../client/directory-client.ts';
import { HarnessError } from '../core/errors.ts';
import { validateSchema, type SchemaName } from '../schemas/index.ts';
import type { Violation } from '../core/types.ts';
import { ConformanceFailure } from '../core/errors.ts';

export function fail(where: string, message: string, expected?: unknown, actual?: unknown): never {
  throw new ConformanceFailure([{ where, message, expected, actual }]);
}

export function failAll(violations: Violation[]): void {
  if (violations.length > 0) throw new ConformanceFailure(violations);
}

/** Statuses that mean "no verdict can be had", whatever the rule expected. */
function harnessFaultFor(res: ApiResponse, step: string): HarnessError | undefined {
  if (res.status === 429) {
    return new HarnessError('DC_ERR_RATE_LIMITED', `${step}: rate limited (429) after retries`);
  }
  if (res.status === 401) {
    return new HarnessError('DC_ERR_UNAUTHENTICATED', `${step}: the credential was refused (401)`);
  }
  if (res.status >= 500) {
    return new HarnessError('DC_ERR_SERVER_5XX', `${step}: server error ${res.status}`);
  }
  return undefined;
}

/**
 * The step sent a request the spec documents as valid: it must succeed.
 * A 4xx is the server refusing a valid request (FAIL); 401/429/5xx are harness
 * faults (ERROR), because no verdict on this rule can be drawn from them.
 */
export function expectSuccess(res: ApiResponse, step: string, statuses?: number[], owner?: string): void {
  if (statuses ? statuses.includes(res.status) : res.status >= 200 && res.status < 300) return;
  const fault = harnessFaultFor(res, step);
  if (fault) throw fault;
  throw new ConformanceFailure(
    [
      {
        where: `${step}: response.status`,
        message: `must accept a valid ${step} request`,
        expected: statuses ? statuses.join(' or ') : '2xx',
        actual: `${res.status} ${summariseBody(res)}`,
      },
    ],
    owner,
  );
}

/**
 * The step sent a request the spec says is rejected: any 4xx will do (the
 * status of most rejections is "not shown"). A 2xx or a 5xx is a departure.
 * 429 still means no verdict, and so does 401 unless the rule is about the credentials.
 */
export function expectRejected(
  res: ApiResponse,
  step: string,
  status?: number,
  options: { credentialsUnderTest?: boolean } = {},
): void {
  if (res.status === 429 || (res.status === 401 && !options.credentialsUnderTest)) throw harnessFaultFor(res, step)!;
  if (status !== undefined ? res.status === status : res.status >= 400 && res.status < 500) return;
  fail(
    'response.status',
    `must reject ${step}${status !== undefined ? ` with ${status}` : ' with a 4xx status'}`,
    status ?? '4xx',
    `${res.status} ${summariseBody(res)}`,
  );
}

/** The response body must parse as JSON and match the schema of spec §2. */
export function expectBody(res: ApiResponse, schema: SchemaName, where = 'response.body', owner?: string): unknown {
  if (res.json === undefined) {
    throw new ConformanceFailure(
      [{ where, message: 'must be a JSON document', expected: schema, actual: summariseBody(res) || '(empty body)' }],
      owner,
    );
  }
  const violations = validateSchema(schema, res.json, where);
  if (violations.length > 0) throw new ConformanceFailure(violations, owner);
  return res.json;
}

export function summariseBody(res: ApiResponse, max = 300): string {
  const text = res.text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
