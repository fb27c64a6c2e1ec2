/**
 * The judge of a walk: pages of one resources.list request linked by
 * `next_token` (§4.9 rules 1-3), for the rule that names EACH_RESOURCE_ONCE. It reads
 * one page at a time and keeps only the ids and tokens seen (about twenty
 * bytes an id, see seen-ids.ts), so a walk over a million resources is judged
 * in bounded memory, whichever rule walked.
 */
import type { Violation } from '../../core/types.ts';
import { SeenIds } from '../steps/seen-ids.ts';
import { field, type Observed, type SharedCheck } from './observed.ts';

/** A walk lists each resource once, whichever rule walked (the WalkJudge's check). */
export const EACH_RESOURCE_ONCE: SharedCheck = { name: 'each resource once in a walk' };

export class WalkJudge {
  private readonly tokens = new Set<string>();
  private readonly seen: { ids: SeenIds; walk: number };

  /**
   * `seen`: a table shared with other walks, and this walk's bit in it (a rule
   * that compares walks keeps one table for all); by default a table of this
   * walk's own that notes the page each id was first on.
   */
  constructor(seen?: { ids: SeenIds; walk: number }) {
    this.seen = seen ?? { ids: new SeenIds({ notes: true }), walk: 1 };
  }

  /** The departures the walk's page `index` (from 0) shows; `walk` names the walk, e.g. "limit 7". */
  page(o: Pick<Observed, 'status' | 'body'>, index: number, walk: string): Violation[] {
    const data = field(o.body, 'data');
    if (o.status !== 200 || !Array.isArray(data)) return [];
    const violations: Violation[] = [];
    const { ids, walk: bit } = this.seen;
    for (const entry of data) {
      const id = field(entry, 'id');
      if (typeof id !== 'string' || (ids.see(id, bit, index) & bit) === 0) continue;
      const first = ids.keepsNotes ? ids.noteOf(id) : undefined;
      violations.push({
        where: `${walk}, page ${index + 1}`,
        message: 'must not repeat a resource already returned on an earlier page',
        expected: `resource ${id} once`,
        actual: first === undefined ? 'again' : `again (first on page ${first + 1})`,
      });
    }
    const next = field(o.body, 'next_token');
    if (typeof next === 'string' && data.length > 0) {
      if (this.tokens.has(next)) {
        violations.push({
          where: `${walk}, page ${index + 1}.next_token`,
          message: 'must move forward: a next_token came back that was already followed',
          expected: 'a new token',
          actual: next,
        });
      }
      this.tokens.add(next);
    }
    return violations;
  }
}
