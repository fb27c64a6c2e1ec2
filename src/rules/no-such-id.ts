/**
 * An id no resource, role or team has, for the lists of ids real requests
 * hold (an id of nothing among those of the kind asked for): the largest
 * signed 64-bit integer, the far end of what a Snowflake holds, so a server
 * that reads ids as numbers still parses it. Whether a target refuses it is
 * not shown (§7); what it must not do is let it change what the other ids
 * give.
 */
export const NO_SUCH_ID = '9223372036854775807';

/** A 4xx but 401 and 429: a refusal, which for an id of nothing is the target's choice. */
export function isRefusal(answer: { readonly status: number }): boolean {
  return answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 429;
}
