import type { Violation } from '../core/types.ts';

/**
 * A departure repeats when the second attempt shows one at the same place
 * with the same message: a second, different departure is not a
 * confirmation of the first (a middlebox that corrupts one answer in many
 * could show two). Identifiers in the place aside (a revocation is driven
 * again on another resource), and the numbers in the message (a count of
 * what the attempt saw).
 */
export function sameDeparture(first: readonly Violation[], again: readonly Violation[]): boolean {
  const key = (v: Violation): string => `${v.where.replace(/\d{6,}/g, '#')}\n${v.message.replace(/\d+/g, '#')}`;
  const seen = new Set(first.map(key));
  return again.some((v) => seen.has(key(v)));
}
