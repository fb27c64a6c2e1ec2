/**
 * Whose departure is it: the server's, or a glitch between the server and
 * the suite? A rule that repeats its judged request (one-in-n.ts) confirms
 * its FAIL by driving the failing example again, and again: one repeat of
 * the departure is not enough, since a middlebox that spoils one answer in
 * 30 at random repeats it too, now and then, over 30 more judged requests.
 * The two are told apart by how often the departure comes, with Wald's
 * sequential probability ratio test over the confirming attempts' judged
 * requests (the first attempt's departure, the one that was selected for
 * being a departure, is not counted):
 *
 * - H1, the server's: the departure comes at least one time in ten (the
 *   rarest the suite promises to see, and issue 26 asks to FAIL);
 * - H0, a glitch: it comes at most one time in 90 (a middlebox spoiling one
 *   answer in 30, one of three ways, only one of which is this departure).
 *
 * Each confirming attempt sends `judged` requests and shows the departure at
 * least once or not; its likelihood under a rate p is 1 - (1 - p)^judged or
 * (1 - p)^judged. The test adds up the log-likelihood ratio of H1 to H0
 * attempt by attempt and stops when it crosses a bound: FAIL at
 * ln((1 - β) / α), FLAKY at ln(β / (1 - α)), where α is the chance a glitch
 * is confirmed (a false FAIL) and β the chance the server's departure is
 * not; Wald's bounds hold whatever each attempt's size (each is weighed by
 * the judged requests it sent). A budget of judged requests ends a test that
 * has not decided: FLAKY, never an unconfirmed FAIL. Between the two rates
 * (one time in 30) it decides either way, mostly FLAKY (about one FAIL in
 * eight): neither hypothesis describes it.
 */
import { ONE_IN, trialsNeeded } from './one-in-n.ts';

export interface RateHypotheses {
  /** H1: the server departs at least this often (one time in ten). */
  server: number;
  /** H0: a glitch makes this departure at most this often (one time in 90). */
  glitch: number;
  /** α: how often a glitch is confirmed as the server's departure, at most (about). */
  falseFail: number;
  /** β: how often the server's departure is not confirmed, at most (about). */
  missed: number;
  /** Judged requests after which no further confirming attempt goes. */
  budget: number;
}

export const RATE_HYPOTHESES: RateHypotheses = {
  server: 1 / ONE_IN,
  glitch: 1 / 90,
  falseFail: 0.001,
  missed: 0.01,
  // Ten times what a repeated rule sends to see a departure one time in ten: the server's departure is
  // decided well within it (some 70 judged requests on average), a glitch's too (some 70).
  budget: 10 * trialsNeeded(),
};

/** Where the test stands: the server's departure, a glitch's, the budget spent undecided, or not yet decided. */
export type RateDecision = 'server' | 'glitch' | 'spent' | 'undecided';

/** The log-likelihood ratio (H1 to H0) of one attempt of `judged` requests that showed the departure or not. */
export function attemptEvidence(judged: number, departed: boolean, h: RateHypotheses = RATE_HYPOTHESES): number {
  const clean = (p: number): number => (1 - p) ** judged;
  return departed
    ? Math.log((1 - clean(h.server)) / (1 - clean(h.glitch)))
    : Math.log(clean(h.server) / clean(h.glitch));
}

/** Wald's bounds on the summed evidence: at or above `server`, FAIL; at or below `glitch`, FLAKY. */
export function bounds(h: RateHypotheses = RATE_HYPOTHESES): { server: number; glitch: number } {
  return { server: Math.log((1 - h.missed) / h.falseFail), glitch: Math.log(h.missed / (1 - h.falseFail)) };
}

/** One confirmation's test, fed each confirming attempt as it ends. */
export class DepartureRateTest {
  private evidence = 0;
  private sent = 0;
  private decision: RateDecision = 'undecided';

  constructor(private readonly h: RateHypotheses = RATE_HYPOTHESES) {}

  /** Judged requests the confirming attempts sent so far. */
  get judged(): number {
    return this.sent;
  }

  /** Whether the test is undecided with budget left: another attempt may go (and may end past the budget). */
  canAttempt(): boolean {
    return this.decision === 'undecided' && this.sent < this.h.budget;
  }

  /** One confirming attempt: `judged` requests, which showed the departure at least once or not. */
  observe(judged: number, departed: boolean): RateDecision {
    if (this.decision !== 'undecided') return this.decision;
    this.sent += judged;
    this.evidence += attemptEvidence(judged, departed, this.h);
    const { server, glitch } = bounds(this.h);
    if (this.evidence >= server) this.decision = 'server';
    else if (this.evidence <= glitch) this.decision = 'glitch';
    return this.decision;
  }

  /** No further attempt: an undecided test has spent what it may. */
  end(): RateDecision {
    if (this.decision === 'undecided') this.decision = 'spent';
    return this.decision;
  }
}

/** What `rules` says of the test: the two rates, the false-FAIL bound and the budget. */
export function describeRateTest(h: RateHypotheses = RATE_HYPOTHESES): string {
  const percent = (p: number): string => `${Math.round(p * 1000) / 10}%`;
  return (
    `a FAIL confirmed by its rate: FAIL at 1 in ${Math.round(1 / h.server)} or more, ` +
    `FLAKY at 1 in ${Math.round(1 / h.glitch)} or less (false FAIL ${percent(h.falseFail)}, within ${h.budget} judged)`
  );
}
