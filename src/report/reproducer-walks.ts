/**
 * A walk's FAIL in a reproducer: a resource returned again, or a next_token
 * that came back (§4.9 rules 1-3, the departures WalkJudge finds). Such a
 * departure shows only over the pages of one walk, and the pages' tokens are
 * the server's (another server, or the same one started again, gives
 * others): the script sends the walk's first request again and follows each
 * live answer's next_token, as the spec says a client does, up to a page cap
 * so that it never loops forever, and judges the pages it got by the same
 * condition. The walk chosen is one of the rule's log that the suite's own
 * walk judge, run again on the recording, finds departing the same way.
 */
import type { AnsweredExchange, Exchange } from '../core/exchange.ts';
import type { RuleResult, Violation } from '../core/types.ts';
import { observedFromExchange } from '../rules/judges/observed.ts';
import { WalkJudge } from '../rules/judges/walk.ts';
import { tokenGiven, tokenSent } from './reproducer-tokens.ts';

/** The departures a script's walk judge finds; the script follows the walk from request `at`. */
export interface WalkCheck {
  at: number;
  kind: 'walk-once';
  /** Pages the script follows at most: a walk that has not ended by then cannot be judged (exit 3). */
  pages: number;
}

/** The pages of one walk as the log holds them: the first sent no token, each next sent the one its page before gave. */
function walksOf(log: readonly Exchange[]): Exchange[][] {
  const walks: Exchange[][] = [];
  log.forEach((first, start) => {
    if (first.operation !== 'resources.list' || tokenSent(first) !== undefined || !first.response) return;
    const pages: Exchange[] = [first];
    let at = start;
    for (let token = tokenGiven(first); token !== undefined;) {
      const given = token;
      const next = log.findIndex((e, i) => i > at && tokenSent(e) === given);
      const page = log[next];
      if (!page) break;
      pages.push(page);
      at = next;
      token = tokenGiven(page);
    }
    if (pages.length > 1) walks.push(pages);
  });
  return walks;
}

function isAnswered(e: Exchange): e is AnsweredExchange {
  return e.response !== undefined;
}

/** The messages of the walk judge's departures: those a script's walk judges again. */
function departuresOf(walk: readonly Exchange[]): string[] {
  const judge = new WalkJudge();
  // A page cut for the report is judged as far as it goes: it may miss a departure, never make one up.
  return walk.flatMap((page, index) =>
    isAnswered(page) ? judge.page(observedFromExchange(page), index, 'walk').map((d) => d.message) : [],
  );
}

/** How many pages past the run's walk the script follows: a fixed server's walk may be a little longer. */
const MORE_PAGES = 3;

/**
 * The walk the violation was found on, and how far to follow it, when the
 * violation is a walk judge's and the log holds a walk that departs so.
 */
export function walkPlan(r: RuleResult, v: Violation): { first: Exchange; check: WalkCheck } | undefined {
  const walk = walksOf(r.exchanges).find((w) => departuresOf(w).includes(v.message));
  const first = walk?.[0];
  if (!walk || !first) return undefined;
  // A repeat may make a walk longer or shorter than a fixed server's: twice the run's pages and a few more.
  return { first, check: { at: 1, kind: 'walk-once', pages: 2 * walk.length + MORE_PAGES } };
}
