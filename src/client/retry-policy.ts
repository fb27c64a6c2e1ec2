/**
 * The one answer to "what is repeated, and how often". Every request falls in
 * one class (a read, a mutation, a judged read or mutation, a restoring
 * request); each class repeats the answers its rules name, and each rule says
 * how many answers of its kind a request gets at most before the last one
 * stands. The retry link (retry.ts) applies it; the table in docs/reading-results.md is made
 * from it (`retryPolicyTable`, checked by a test); the assertions read the
 * same gateway statuses.
 */
import { READ_OPERATIONS } from '../schemas/operations.ts';

/** Answers of gateways and overloaded servers: they say nothing about the request itself. */
export const GATEWAY_STATUSES: readonly number[] = [502, 503, 504];

/** Low-level codes of a connection closed or refused before an answer came. */
export const DROPPED_CONNECTION_CODES: readonly string[] = [
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
];

/** What one attempt got, as the policy reads it. */
export type AttemptResult =
  | { readonly status: number }
  | {
      /** The harness code of the failure (DC_ERR_NETWORK, DC_ERR_TIMEOUT…). */
      readonly error: string;
      /** The low-level codes under it (UND_ERR_SOCKET, ECONNRESET…). */
      readonly causes: readonly string[];
    };

/** One kind of answer worth another attempt. */
export interface RepeatRule {
  /** Statuses it repeats: a list, or every 5xx. */
  readonly statuses?: readonly number[] | '5xx';
  /** Harness codes of failures it repeats. */
  readonly errors?: readonly string[];
  /** Low-level codes of failures it repeats. */
  readonly causes?: readonly string[];
  /** Answers of this kind a request gets at most: after the last, it stands. */
  readonly attempts: number;
  /** How the docs' table names what it repeats. */
  readonly what: string;
  /** Why it is safe and useful to repeat. */
  readonly why: string;
}

export const REPEAT_RULE_NAMES = [
  'rate limited',
  'gateway answer',
  'dropped connection',
  'body cut short',
  'server error',
  'network failure or timeout',
] as const;

export type RepeatRuleName = (typeof REPEAT_RULE_NAMES)[number];

export const REQUEST_CLASSES = ['read', 'judged read', 'mutation', 'judged mutation', 'restore'] as const;

export type RequestClass = (typeof REQUEST_CLASSES)[number];

/** What a request is for, beyond its operation: see `requestClass`. */
export type RetryPurpose = 'judged' | 'restore';

export interface RetryPolicy {
  readonly rules: Readonly<Record<RepeatRuleName, RepeatRule>>;
  /** The rules each class of requests follows. */
  readonly classes: Readonly<
    Record<RequestClass, { readonly requests: string; readonly rules: readonly RepeatRuleName[] }>
  >;
  /** The first wait when the answer gives no Retry-After, doubled at each further attempt. */
  readonly backoffMs: number;
  /** Longest single wait (a Retry-After asking more is not waited for: the answer stands). */
  readonly maxDelayMs: number;
  /** Longest total wait between the attempts of one request; beyond it the last answer stands. */
  readonly maxWaitMs: number;
}

export const RETRY_POLICY: RetryPolicy = {
  rules: {
    'rate limited': {
      statuses: [429],
      attempts: 5,
      what: '429',
      why: 'the server did not process the request, so any request may be sent again',
    },
    'gateway answer': {
      statuses: GATEWAY_STATUSES,
      attempts: 3,
      what: GATEWAY_STATUSES.join(', '),
      why: 'a gateway or an overloaded server answered, not the service',
    },
    'dropped connection': {
      causes: DROPPED_CONNECTION_CODES,
      attempts: 3,
      what: 'connection dropped before an answer',
      why: `no answer came (${DROPPED_CONNECTION_CODES.join(', ')}); a read changes nothing`,
    },
    'body cut short': {
      errors: ['DC_ERR_BODY_CUT'],
      attempts: 3,
      what: 'body cut short',
      why:
        'the answer stopped before its end (a Content-Length or a chunk not met, an encoded body or a JSON body ended by the close): ' +
        'what came says nothing about the request, and a request safe to repeat is sent again',
    },
    'server error': {
      statuses: '5xx',
      attempts: 2,
      what: 'any 5xx',
      why:
        'a single server error may be a passing fault and must not decide a verdict: a read changes nothing, and a judged request is one ' +
        'the rule expects refused or harmless; when the repeat is answered, its answer stands and the exchange keeps the server error',
    },
    'network failure or timeout': {
      errors: ['DC_ERR_NETWORK', 'DC_ERR_TIMEOUT'],
      attempts: 4,
      what: 'network failure or timeout',
      why: 'a restoring request puts a value back, so sending it again after any failure (DC_ERR_NETWORK, DC_ERR_TIMEOUT) is safe, and the target must be left as found',
    },
  },
  classes: {
    read: {
      requests: 'reads (list, list-roles, show-teams, show-activity-rates)',
      rules: ['rate limited', 'gateway answer', 'dropped connection', 'body cut short', 'server error'],
    },
    'judged read': {
      requests: 'judged reads (a rule judges the status: expectRejected, expectNoServerError)',
      rules: ['rate limited', 'gateway answer', 'dropped connection', 'body cut short', 'server error'],
    },
    mutation: {
      requests: 'mutations (revoke-roles, assign-team, assign-activity-rate, unassign-activity-rate)',
      rules: ['rate limited'],
    },
    'judged mutation': {
      requests: 'judged mutations (a rule judges the status of a request it expects refused or harmless)',
      rules: ['rate limited', 'body cut short', 'server error'],
    },
    restore: {
      requests: 'restoring requests (the state guard puts back what a rule changed)',
      rules: ['rate limited', 'gateway answer', 'body cut short', 'network failure or timeout'],
    },
  },
  backoffMs: 200,
  maxDelayMs: 10_000,
  maxWaitMs: 30_000,
};

/** The class of a request: its operation's (read or mutation), judged or restoring when the caller says so. */
export function requestClass(operation: string, purpose: RetryPurpose | undefined): RequestClass {
  const read = READ_OPERATIONS.has(operation);
  if (purpose === 'restore') return 'restore';
  if (purpose === 'judged') return read ? 'judged read' : 'judged mutation';
  return read ? 'read' : 'mutation';
}

/** True when `rule` repeats this result. */
export function repeats(rule: RepeatRule, result: AttemptResult): boolean {
  if ('status' in result) {
    const { statuses } = rule;
    if (statuses === undefined) return false;
    return statuses === '5xx' ? result.status >= 500 && result.status < 600 : statuses.includes(result.status);
  }
  return (
    (rule.errors?.includes(result.error) ?? false) || result.causes.some((code) => rule.causes?.includes(code) ?? false)
  );
}

/**
 * The policy as a table, for docs/reading-results.md: a row per class of requests, a
 * column per rule, and what each rule repeats and why. A test checks the
 * page holds exactly this.
 */
export function retryPolicyTable(policy: RetryPolicy = RETRY_POLICY): string {
  const names = REPEAT_RULE_NAMES.filter((name) => REQUEST_CLASSES.some((c) => policy.classes[c].rules.includes(name)));
  const rows = [
    `| Requests | ${names.map((name) => policy.rules[name].what).join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
  ];
  for (const name of REQUEST_CLASSES) {
    const { requests, rules } = policy.classes[name];
    const cells = names.map((rule) => (rules.includes(rule) ? String(policy.rules[rule].attempts) : '—'));
    rows.push(`| ${requests} | ${cells.join(' | ')} |`);
  }
  rows.push(
    '',
    'A number is how many answers of that kind a request gets at most before the last one stands (where two ' +
      'columns apply to one answer, a 502 to a judged read, the larger). Why each is repeated:',
    '',
    ...names.map((name) => `- ${policy.rules[name].what}: ${policy.rules[name].why}.`),
    '',
    `Waits: the answer's Retry-After when it gives one, otherwise ${policy.backoffMs} ms doubled at each further attempt; ` +
      `a single wait over ${policy.maxDelayMs / 1000} s, or waits over ${policy.maxWaitMs / 1000} s in all for one request, ` +
      "are not made: the last answer stands. Each attempt is a request the run's pacer paces and counts.",
  );
  return rows.join('\n');
}
