/**
 * Caller text from a public corpus of known trouble (the Big List of Naughty
 * Strings, MIT, its source and licence in fixtures/naughty-strings.json):
 * quotes, escapes, markup, SQL, script, numbers that are not, scripts written
 * right to left, emoji. The authors' own lists of value classes miss what the
 * corpus names; a row's text is drawn from it.
 */
import corpus from '../../fixtures/naughty-strings.json' with { type: 'json' };

export const NAUGHTY_STRINGS: readonly string[] = corpus.strings;

/**
 * The corpus's string for a run's seed and the place it goes (a row, a
 * field): the same seed and place, the same string, and the places of one
 * run spread over the whole corpus (a hash, not a walk from its start).
 */
export function naughtyString(seed: number, ...place: readonly number[]): string {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  for (const p of place) {
    h = Math.imul(h ^ (p + 0x632be5ab), 0xc2b2ae35);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f);
  h ^= h >>> 16;
  return NAUGHTY_STRINGS[(h >>> 0) % NAUGHTY_STRINGS.length] ?? '';
}
