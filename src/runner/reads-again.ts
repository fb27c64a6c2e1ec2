/**
 * The first check of a departure a rule that cannot be undone (a
 * revocation) showed, before it is driven again on another resource: the
 * reads of its evidence that still say what the state is now are sent again,
 * fresh, and the rule's judge reads its evidence with their new answers in
 * place. A departure that no longer shows there did not repeat: a read
 * spoiled on its way (FLAKY), with no resource spent on driving it again.
 *
 * Only reads made once the state had settled are sent again: after the
 * rule's last change, and a moment after it (read-after-write.ts). Sent
 * again later, a read made before a change would show the state the change
 * left, and a read made right after one would show what the server serves
 * once it has settled, not what it served at once (a stale read is a
 * departure of its own). A departure that still shows with the new answers
 * in place may rest on an answer that cannot be had again (a read before the
 * revocation, the revocation's own answer): that is not a confirmation, and
 * the rule is driven again.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Violation } from '../core/types.ts';
import { judgeLog, type Judge } from '../rules/judges/fold.ts';
import { isNoEvidence, isNoVerdict, violationsOf } from '../rules/judges/judgement.ts';
import { observedFromExchange, type Observed } from '../rules/judges/observed.ts';
import type { TargetProfile } from '../target/profile.ts';
import { followsToken, sendAgain } from './confirm-findings.ts';
import { sameDeparture } from './same-departure.ts';

/** A departure as the judgement that found it read it. */
export interface Departure {
  /** What the judgement read, in order. */
  evidence: readonly Observed[];
  /** What it found. */
  violations: readonly Violation[];
  /** The recorded exchange an entry of the evidence was read from (what can be sent again). */
  exchangeOf: (observed: Observed) => Exchange | undefined;
  /** When the answer to the attempt's last request that may change state came (ms since the epoch); none: no such request. */
  lastChangeAt: number | undefined;
}

/**
 * `not repeated`: with the settled reads sent again in place, the departure
 * no longer shows; `still shown`: it does; undefined: no settled read to send
 * again, or no answer that can be judged came.
 */
export type ReadsAgain = { outcome: 'not repeated' | 'still shown'; reads: number } | undefined;

/** Whether `o` was read once the state had settled: a moment after the last change, with none since. */
export function settled(o: Observed, lastChangeAt: number | undefined, momentMs: number): boolean {
  if (lastChangeAt === undefined) return true;
  return o.at !== undefined && o.at.sent >= lastChangeAt + momentMs;
}

export async function readsAgain(
  departure: Departure,
  judge: Judge,
  profile: TargetProfile,
  client: DirectoryClient,
  momentMs: number,
): Promise<ReadsAgain> {
  const replaced = new Map<Observed, Observed>();
  for (const o of departure.evidence) {
    const exchange = departure.exchangeOf(o);
    // A next page asked for with a token holds what an earlier answer said: sent alone it says nothing new.
    if (!exchange || !settled(o, departure.lastChangeAt, momentMs) || followsToken(exchange)) continue;
    const again = await sendAgain(client, exchange);
    if (!again?.response || again.response.truncated) continue;
    // Read under the first request's step, so the same departure is named the same.
    replaced.set(o, { ...observedFromExchange(again), step: o.step });
  }
  if (replaced.size === 0) return undefined;
  const judgement = judgeLog(
    judge,
    departure.evidence.map((o) => replaced.get(o) ?? o),
    profile,
  );
  // An answer that says nothing of the clause (a 5xx, a 429) neither confirms nor refutes.
  if (isNoVerdict(judgement) || isNoEvidence(judgement)) return undefined;
  const shown = sameDeparture(departure.violations, violationsOf(judgement));
  return { outcome: shown ? 'still shown' : 'not repeated', reads: replaced.size };
}
