import type { DirectoryClient } from '../client/directory-client.ts';
import type { AnsweredExchange } from '../core/exchange.ts';
import type { Depth, Level, Mutation, PropertyReplay, RuleKind, RunOptions, Violation } from '../core/types.ts';
import type { Timing } from '../core/timing.ts';
import type { TargetProfile } from '../target/profile.ts';
import type { MutationLog } from './own-mutations.ts';
import type { RuleId } from './rule-ids.ts';
import type { Need, NeedEnv, ProvidedBy, Provisions } from './needs.ts';
import type { Judgement } from './judges/judgement.ts';
import type { Judge, RuleJudge } from './judges/fold.ts';
import type { RuleExplainer } from './judges/trace.ts';
import type { Repeats } from './one-in-n.ts';

import type { TrafficReading, TrafficReadingOf } from './judges/traffic-reading.ts';
import type { SharedCheck } from './judges/observed.ts';
export type { Need } from './needs.ts';

/** Predicate on a profile resource, for claiming one. */
export type ResourcePredicate = (resourceId: string, kindId: string) => boolean;

export interface BaseCheckContext {
  /** The rule running: a departure a shared step finds from this rule's clause is its own FAIL. */
  readonly ruleId: string;
  /**
   * Reports a departure from another rule's clause that a shared step saw in
   * this rule's exchanges (see `owned` in assertions.ts): the engine FAILs
   * `owner` with it, whatever that rule's own requests showed, and whether or
   * not the run selected it.
   */
  found(owner: RuleId, violations: readonly Violation[]): void;
  /** The rule whose record names `check` among its `checks` (of the whole catalogue, selected or not). */
  ownerOf(check: SharedCheck): RuleId;
  /** Client with the main credential; every exchange is recorded for the report. */
  readonly client: DirectoryClient;
  /** Client without any credential (§5). */
  readonly anonymous: DirectoryClient;
  /** Client with the profile's restricted credential, when there is one. */
  readonly restricted: DirectoryClient | undefined;
  readonly profile: TargetProfile;
  /** The run's options; `numRuns` is this rule's own at the run's depth when the run sets none. */
  readonly options: RunOptions & { readonly numRuns: number; readonly drawnOnly?: boolean; readonly depth: Depth };
  /** Record what the server did where the spec is open. */
  observe(subject: string, value: unknown): void;
  /** Attach property replay information (seed, path, counterexample). */
  setReplay(replay: PropertyReplay): void;
  /**
   * Take exclusive use of a mutable resource for this rule, so rules never
   * disturb each other's state. Resolves to undefined when no resource that
   * matches is left for this run.
   */
  claimResource(predicate?: ResourcePredicate): Promise<string | undefined>;
  /** Aborted at the rule's deadline. */
  readonly signal: AbortSignal;
  /** The clock every wait of the rule reads, and the run's windows (core/timing.ts). */
  readonly timing: Timing;
  /**
   * The 4xx answers (429 aside) the run's rules received so far, this one's
   * included: those kept, in the order they came, and how many more there
   * were. A rule that declares `judges: 'error answers of the run'` runs
   * after every other rule, so it sees them all.
   */
  errorAnswers(): ErrorAnswersSeen;
  /** The run's write-ahead undo journal, when it keeps one (see state-guard.ts). */
  readonly journal?: UndoJournal;
  /** The changes this rule sent, so restoration can tell another party's changes from its own (state-guard.ts). */
  readonly ownMutations?: MutationLog;
  /** The run's resources whose restoration did not verify: no rule changes them again (state-guard.ts). */
  readonly quarantine?: Quarantine;
  /** Every answered exchange of this rule, as its judge reads them (see RuleLog). */
  readonly log: RuleLog;
}

/**
 * The answered exchanges of one rule, in the order they came, as its judge
 * reads them: a driver's own requests and the shared reads it used, each
 * tagged with its step. The engine folds them into the rule's judge as they
 * come (src/runner/rule-log.ts): an example rule's whole log, a property's
 * one run at a time (`startRun`, `endRun`), so a long property holds one run
 * at a time and a judge written as a fold holds only its state.
 */
export interface RuleLog {
  /** Starts a property's run: the exchanges from here on are tagged with the run's number and judged together. */
  startRun(): void;
  /** Ends the run under way: what the rule's judge says of its exchanges (the evidence a verdict can be judged again from). */
  endRun(): Judgement;
  /** Drops the run under way unjudged (its driver threw). */
  dropRun(): void;
  /** A judged request was sent (`ctx.repeat`): a FAIL's confirmation weighs an attempt by how many it sent. */
  judgedSent(): void;
}

/**
 * A rule's judge as a spec file writes it: a function of the exchanges its
 * driver tagged and the profile, sending nothing (it sees the whole log of
 * an example rule, one run's part of a property's), or a fold over them
 * (`fold` in judges/fold.ts) when the log is too big to keep.
 */
export type { RuleJudge } from './judges/fold.ts';

/**
 * What a property's driver has besides the check context: `judged` runs one
 * run's requests and then the rule's judge over them, throwing what the
 * judgement says (a departure is shrunk by fast-check; no verdict stops the
 * property; no evidence discards the run, as `fc.pre` does).
 */
export interface Judging {
  judged(run: () => Promise<void>): Promise<void>;
  /**
   * Sends a run's judged request as many times as the rule's `repeats` asks
   * for the run's number of runs (once for a rule that does not repeat);
   * `send` is told which time it is, from 0.
   */
  repeat(send: (repetition: number) => Promise<unknown>): Promise<void>;
}

/**
 * Resources a restoration that did not verify left changed, or that another
 * party changed where a rule had (nothing was put back). A later change
 * would snapshot that state and, restoring it, write the resource off as put
 * back: quarantined, a resource is changed no more in the run and stays
 * pending in the journal until `directory-conformance restore`.
 */
export interface Quarantine {
  add(resourceId: string, reason: string): void;
  /** Why the resource is quarantined, or undefined when it is not. */
  reasonFor(resourceId: string): string | undefined;
}

/**
 * Where a mutating check writes, before it changes a resource, the state it is
 * about to change; a crashed or interrupted run is put back from it later
 * (`directory-conformance restore`).
 */
export interface UndoJournal {
  /** Durable before it returns: the change may start only then. */
  changing(entry: { ruleId: string; resourceId: string; state: unknown; undo: readonly unknown[] }): Promise<void>;
  /** The resource is back as it was (verified). */
  restored(entry: { ruleId: string; resourceId: string }): Promise<void>;
  /** The change cannot be undone with documented operations (role revocations). */
  irreversible(entry: { ruleId: string; resourceId: string; state: unknown }): Promise<void>;
  /** Where it is, for messages. */
  readonly path: string;
}

/** A 4xx answer one rule received, as its transcript recorded it (redacted). */
export interface ErrorAnswer {
  ruleId: string;
  exchange: AnsweredExchange;
}

/**
 * Every 4xx answer of a run, bounded in memory (src/runner/error-answers.ts):
 * all are kept up to a cap; past it, those with a message are counted, and
 * those without are kept up to a second cap, then counted.
 */
export interface ErrorAnswersSeen {
  kept: readonly ErrorAnswer[];
  /** Answers past the cap whose body carried a message, not kept. */
  withMessageNotKept: number;
  /** Answers past both caps whose body carried no message, not kept. */
  withoutMessageNotKept: number;
}

/**
 * The context a check with needs `N` receives: what every need of `N`
 * provides (src/rules/needs.ts), e.g. `listKindId: string` for `listKind`.
 */
export type CheckContext<N extends Need = never> = BaseCheckContext & ProvidedBy<N>;

/** What every rule says of itself, whichever form it is written in (see define.ts). */
export interface RuleFacts<N extends Need> {
  /** Stable id, e.g. "pagination.exact-multiple-empty-page". */
  id: string;
  /** Spec clause, e.g. "§4.9 rule 4". */
  clause: string;
  /**
   * The exact words of docs/spec.md the rule enforces (or, for OBSERVED, the
   * open point): each one a substring of the spec, which a test checks.
   */
  quote: string | readonly string[];
  /** For an OBSERVED rule whose quote does not itself say "not shown": why the point is open. */
  open?: string;
  level: Level;
  /** What the rule changes on the target; default 'none'. */
  mutates?: Mutation;
  /** What the target must offer; the check's context is narrowed to match. */
  needs?: readonly N[];
  /** What the rule judges beyond its own requests: the error answers every other rule received (it runs last). */
  judges?: 'error answers of the run';
  /**
   * A property's fast-check runs when the run sets none (`--num-runs`), at
   * the default depth (src/rules/depth.ts derives the others): a run that
   * costs many requests makes fewer, longer ones (default 25).
   */
  runs?: number;
  /**
   * The verdict rests on when requests went and came back (a history judged
   * by linearizability): a recording's times, to the millisecond, may not
   * show what the live run saw, so the rule is judged again from one only
   * as far as its times allow.
   */
  timing?: true;
  /**
   * The rule sends requests on one resource at the same time: `--depth` sets
   * its runs apart from the others' (src/rules/depth.ts), none when quick.
   */
  concurrent?: true;
  /**
   * The rule judges a rejection or a paging invariant: each run sends its
   * judged request(s) often enough (`ctx.repeat`) that a departure one time
   * in ten shows with 95% confidence, and a FAIL is confirmed at that rate
   * (src/rules/one-in-n.ts).
   */
  repeats?: Repeats;
  /**
   * A model-based property's steps that interact: of the steps its generator
   * draws for a seed, how many touch what an earlier step of their sequence
   * touched (`rules --coverage` shows the share). Pure: nothing is sent.
   */
  interaction?: (profile: TargetProfile, seed: number) => StepInteraction;
  /**
   * How the rule reads traffic the suite did not send (`judge`, `proxy`):
   * one of untagged-traffic.ts's `TRAFFIC`. A rule without one needs requests
   * traffic cannot be known to hold, and is not judged from it.
   */
  traffic?: TrafficReadingOf;
  /**
   * The shared checks whose clause is this rule's (a list page is an
   * envelope, a walk lists each resource once): the steps make them for every
   * rule that walks or reads, and a departure they find in another rule's
   * requests is this rule's FAIL.
   */
  checks?: readonly SharedCheck[];
}

/** Of a generator's drawn steps (those with inputs), how many touch what an earlier step touched. */
export interface StepInteraction {
  steps: number;
  touching: number;
}

/**
 * A rule written as a driver and a judge: the driver sends the requests,
 * each tagged with a step name, and judges nothing of its own clause (the
 * shared steps it uses still judge theirs); the judge says what the tagged
 * exchanges show. An example rule's judge runs once the driver is done; a
 * property's driver runs each run inside `ctx.judged`.
 */
export interface DrivenRuleDefinition<N extends Need> extends RuleFacts<N> {
  drive(ctx: CheckContext<N> & Judging): Promise<void>;
  judge: RuleJudge | Judge;
  /**
   * A model-based judge's replay told step by step: the engine runs it on a
   * FAIL's evidence (the shrunk sequence) and the report shows its trace.
   */
  explain?: RuleExplainer;
}

/** A rule as a spec file writes it (see define.ts): every rule is a driver and a judge. */
export type RuleDefinition<N extends Need> = DrivenRuleDefinition<N>;

/** A rule as the catalogue, the engine, the reports and the manifest see it: plain data and a check. */
export interface Rule {
  id: string;
  clause: string;
  /** The quotes of the spec, each exactly as it stands there. */
  quotes: readonly string[];
  /** The quotes joined, as reports show them. */
  sentence: string;
  open?: string;
  level: Level;
  mutates: Mutation;
  needs: readonly Need[];
  judges?: 'error answers of the run';
  runs?: number;
  timing?: true;
  concurrent?: true;
  repeats?: Repeats;
  interaction?: (profile: TargetProfile, seed: number) => StepInteraction;
  kind: RuleKind;
  /**
   * The rule's judge (every rule is a driver and a judge): one fold
   * (judges/fold.ts), which the engine applies as the exchanges come, the
   * rejudge path and the judge-logs' tests over a recorded log.
   */
  judge: Judge;
  /** The judge's replay step by step, for a FAIL's trace (model-based rules). */
  explain?: RuleExplainer;
  /** How the rule reads traffic the suite did not send, when it can. */
  traffic?: TrafficReading;
  /** The shared checks whose clause is this rule's (see RuleFacts). */
  checks?: readonly SharedCheck[];
  /**
   * Runs the check with `ctx` narrowed to what the rule's needs provide: the
   * engine hands it everything met needs provide (`provisions`), and the rule
   * runs its check only once `meetsNeeds` found its own needs there.
   */
  check(ctx: BaseCheckContext & Provisions, env: NeedEnv): Promise<void>;
}

/** One spec file's default export: a group of rules for one section or operation. */
export interface RuleGroupDefinition {
  /** Section of the spec, e.g. "§4.9". */
  section: string;
  title: string;
  rules: Rule[];
}

/** A group as the catalogue loaded it. */
export interface RuleGroup extends RuleGroupDefinition {
  /** The file that declares the group, relative to the repository root (derived by the loader). */
  file: string;
}
