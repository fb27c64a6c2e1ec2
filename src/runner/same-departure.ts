import type { Violation } from '../core/types.ts';

/** What a request sent again to confirm a departure is tagged with, after its first step name. */
export const SENT_AGAIN = ' (sent again to confirm)';

/**
 * A departure repeats when the second attempt shows one at the same place
 * with the same message: a second, different departure is not a
 * confirmation of the first (a middlebox that corrupts one answer in many
 * could show two). Identifiers in the place aside (a claim may give the
 * second attempt another resource), the numbers in the message (a count of
 * what the attempt saw), and a property's counterexample wherever the place
 * or the message names it (drawn again for another resource, or shrunk to
 * another value in an attempt, the same departure names other values).
 * A rule driven again on another resource (a revocation cannot be undone)
 * meets other data: a drawn sequence shows the same departure after another
 * of its commands, so there the arguments a step names in parentheses are
 * aside too (`list-roles after revoke(roles [2], …): role #.team_ids`).
 * A rule that repeats its judged request is confirmed by how often its
 * departure comes, over attempts that send it with other values too (a
 * replayed counterexample that holds goes on to the values shrinking tried
 * beside it): there the departure is the judged request's, whatever value
 * its step names, so the step is aside in the place and the message
 * (`a next_token altered by "base64 offset 334": response.status`).
 */
export function sameDeparture(
  first: readonly Violation[],
  again: readonly Violation[],
  counterexamples: { first?: string; again?: string } = {},
  { anotherResource = false, anyValue = false }: { anotherResource?: boolean; anyValue?: boolean } = {},
): boolean {
  const key = (v: Violation, counterexample: string | undefined): string => {
    const prefix = counterexample === undefined ? undefined : `counterexample ${counterexample}: `;
    const named = prefix !== undefined && v.where.startsWith(prefix) ? v.where.slice(prefix.length) : v.where;
    // A request sent again to confirm is named as the first was, and marked so: the mark is no other place.
    // The counterexample's value where a step or a message names it is aside too (`limit {}`, `limit true`).
    const value = (text: string): string =>
      counterexample === undefined || counterexample === '' ? text : text.split(counterexample).join('<value>');
    const where = value(named.split(SENT_AGAIN).join(''));
    const place = anotherResource ? where.replace(/\([^()]*\)/g, '(…)') : where;
    if (anyValue) {
      // The step is what comes before the place's last `: ` (its field); the message names it too, as sent (the
      // value in it as the request had it, not set aside), so it is taken from the place before that.
      const sent = named.split(SENT_AGAIN).join('');
      const at = sent.lastIndexOf(': ');
      const step = at < 0 ? '' : sent.slice(0, at);
      const message = step === '' ? v.message : v.message.split(step).join('<step>');
      return `<step>${sent.slice(Math.max(0, at))}\n${message.replace(/\d+/g, '#')}`;
    }
    return `${place.replace(/\d{6,}/g, '#')}\n${value(v.message).replace(/\d+/g, '#')}`;
  };
  const seen = new Set(first.map((v) => key(v, counterexamples.first)));
  return again.some((v) => seen.has(key(v, counterexamples.again)));
}
