import { RETRY_POLICY, type RepeatRuleName, type RetryPolicy } from '../../src/client/retry-policy.ts';

/** The run's retry policy with other attempt counts or waits, for tests of its bounds. */
export function policyWith(
  attempts: Partial<Record<RepeatRuleName, number>>,
  waits: Partial<Pick<RetryPolicy, 'backoffMs' | 'maxDelayMs' | 'maxWaitMs'>> = {},
): RetryPolicy {
  const rule = (name: RepeatRuleName) => ({
    ...RETRY_POLICY.rules[name],
    attempts: attempts[name] ?? RETRY_POLICY.rules[name].attempts,
  });
  return {
    ...RETRY_POLICY,
    ...waits,
    rules: {
      'rate limited': rule('rate limited'),
      'gateway answer': rule('gateway answer'),
      'dropped connection': rule('dropped connection'),
      'body cut short': rule('body cut short'),
      'server error': rule('server error'),
      'network failure or timeout': rule('network failure or timeout'),
    },
  };
}
