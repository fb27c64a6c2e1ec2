/**
 * The records every layer shares: verdicts, violations, results. Plain data,
 * no behaviour, no imports beyond core.
 */
import type { Exchange } from './exchange.ts';

/**
 * MUST: the spec states it; a departure is a FAIL that makes the run not conformant.
 * INFERRED: the suite infers it from the data model where the spec's words are
 * looser (periods of a resource do not overlap, where the spec says a new rate
 * "may modify other periods"); a departure is reported and counted apart, and
 * fails the run only with --strict.
 * OBSERVED: the spec leaves it open ("not shown"); the suite records what the
 * server did and never fails it.
 */
export type Level = 'MUST' | 'INFERRED' | 'OBSERVED';

export const LEVELS: readonly Level[] = ['MUST', 'INFERRED', 'OBSERVED'];

/**
 * none: only reads. reversible: changes state that documented operations can
 * restore (team assignments, activity rates). irreversible: cannot be undone
 * with documented operations (role revocation).
 */
export type Mutation = 'none' | 'reversible' | 'irreversible';

/** 'example' rules check fixed exchanges; 'property' rules run fast-check. */
export type RuleKind = 'example' | 'property';

/**
 * FLAKY: a departure seen once that did not repeat when the failing example
 * was driven again; counted apart, it makes the run inconclusive (a FAIL with
 * --strict).
 */
export type Verdict = 'PASS' | 'FAIL' | 'ERROR' | 'SKIP' | 'OBSERVED' | 'NOT-TESTED' | 'FLAKY';

/** A structured departure from a rule (modelled on ajv's error objects). */
export interface Violation {
  /** Where in the exchange: "response.status", "response.body[2].team_ids", "page 3". */
  where: string;
  /** Short "must ..." sentence. */
  message: string;
  expected?: unknown;
  actual?: unknown;
  /**
   * The rule whose requests showed this departure, when it is not the rule the
   * violation belongs to: a shared step saw it while that rule was checking
   * its own clause (the owner FAILs on it all the same).
   */
  foundBy?: string;
}

export interface Observation {
  /** What was looked at, e.g. "status of an empty team_ids rejection". */
  subject: string;
  /** What the server did; a results.json read back has none where it was undefined (JSON drops it). */
  value?: unknown;
}

/** Replay information of a failing property. */
export interface PropertyReplay {
  seed: number;
  path?: string;
  /** The command sequence's replay path (model-based properties). */
  replayPath?: string;
  counterexample?: string;
  numShrinks?: number;
  numRuns: number;
}

/**
 * The condition a model-based property judged one answer by, as data, so a
 * standalone reproducer can judge the same answer again: `exchange` is the
 * index of the judged answer among its step's exchanges.
 * role-teams: resources.list-roles must show the role on those teams (null:
 * not assigned); rate-on-day: resources.show-activity-rates must show that
 * rate over the day (null: no period over it); team-on-days:
 * resources.show-teams must show the assignation on each of the days.
 */
export type ReplayCheck =
  | { kind: 'role-teams'; exchange: number; resourceId: string; roleId: string; teams: '*' | string[] | null }
  | { kind: 'rate-on-day'; exchange: number; day: string; rate: number | null }
  /** `regrouping`: on each day, the assignation shown carries it (or a redacted one: another rule's business). */
  | { kind: 'team-on-days'; exchange: number; teamId: string; head: boolean; days: string[]; regrouping?: string };

/** Where the state a model expected and what the server showed first differ. */
export interface StateDifference {
  /** A JSON path into both, e.g. `$["role-2"]` or `$.rates["2026-01-05"]`. */
  path: string;
  /** The value at the path on each side; absent where the side has none. */
  expected?: unknown;
  shown?: unknown;
}

/** One step of a model-based property's failing (shrunk) sequence. */
export interface TraceStep {
  /** The command with the ids it sent, not fast-check's indexes. */
  command: string;
  /** The command's own request, then the reads that judged it, in the order sent (a sequence of revocations: its first step starts with the roles read it started from). */
  exchanges: Exchange[];
  /** The state the model expected after the step; absent when the step stopped before it was judged. */
  expected?: unknown;
  /** What the server showed of that state, in the model's terms. */
  shown?: unknown;
  difference?: StateDifference;
  /** The condition the failing step was judged by (see ReplayCheck). */
  check?: ReplayCheck;
}

/**
 * How hard a run looks (`--depth`): `quick` makes fewer property runs and
 * covers each input class once (no pairs); `default` covers every pair of
 * input classes; `deep` covers every triple and makes more property runs.
 */
export type Depth = 'quick' | 'default' | 'deep';

export interface RunOptions {
  /**
   * fast-check runs of every property; absent, each property makes its own
   * number of runs (`runs` of its definition: fewer for the costly ones).
   */
  numRuns?: number;
  /** How hard the run looks; absent: `default`. */
  depth?: Depth;
  /** Longest command sequence of a model-based property (default 6). */
  maxCommands?: number;
  /** fast-check seed; the same seed replays the same run. */
  seed: number;
  /** Mutating rules run only when allowed. The embedded server always allows them. */
  allowMutations: boolean;
  /** A fast-check path to replay one counterexample (with seed). */
  path?: string;
  /** With `path`, the commands' own replay path of a model-based counterexample. */
  replayPath?: string;
  /** Aborted by an interrupt: properties stop drawing new runs (their rule ends NOT-TESTED). */
  interrupt?: AbortSignal;
  /** INFERRED departures fail the run too. */
  strict?: boolean;
  /**
   * Share (0..1) of the rules this target can serve that must reach a verdict
   * for the run to be conclusive; absent: all of them.
   */
  minCoverage?: number;
  /** Every SKIP makes the run inconclusive. */
  failOnSkip?: boolean;
}

/**
 * Why a rule was skipped. `profile`: the target profile lacks what the rule
 * needs; `options`: the run turned it off (read-only, no --allow-mutations);
 * `precondition`: the target's data lacks what the rule needs; `blocked`: a
 * shared step failed another rule; `resource`: no mutable resource was left
 * for it. Only `blocked` and `resource` lower the coverage a gate requires.
 */
export type SkipCause = 'profile' | 'options' | 'precondition' | 'blocked' | 'resource';

/** The rules a run was asked for, so every report can name its selection. */
export interface RunSelection {
  rules?: string[];
  sections?: string[];
  levels?: Level[];
  /** This run is shard `index` of `count`. */
  shard?: { index: number; count: number };
  /** Rules in the whole catalogue, for "15 of 72 rules". */
  catalogueSize: number;
}

/** The outcome of gate mode (--expectations), as results.json and the reports carry it. */
export interface GateRecord {
  /** The expectations file as given on the command line. */
  file: string;
  passed: boolean;
  knownFailures: Array<{ rule: string; reason: string; expires?: string }>;
  unexpectedFailures: string[];
  unexpectedPasses: string[];
  expired: Array<{ rule: string; reason: string; expires?: string }>;
}

export interface RuleResult {
  ruleId: string;
  clause: string;
  sentence: string;
  section: string;
  group: string;
  level: Level;
  kind: RuleKind;
  mutates: Mutation;
  verdict: Verdict;
  /** Why a rule was skipped, not tested, or errored. */
  reason?: string;
  /** Stable machine code of a harness fault (ERROR). */
  errorCode?: string;
  /** A SKIP because a shared step failed: the rule that owns that step (and FAILs on it). */
  blockedBy?: string;
  /** Why a SKIP: whether it lowers the coverage a gate requires (see SkipCause). */
  skipCause?: SkipCause;
  violations: Violation[];
  observations: Observation[];
  exchanges: Exchange[];
  replay?: PropertyReplay;
  /** A model-based FAIL: each step of the failing (shrunk) sequence, the failing one last. */
  trace?: TraceStep[];
  requestCount: number;
  durationMs: number;
  /** A FAIL whose failing example was driven again and failed again. */
  confirmed?: true;
  /**
   * False for a rule the run was not asked for: it FAILs because a departure
   * from its clause showed while the selected rules were checked (the
   * violations say which rule's requests showed it). Absent for selected rules.
   */
  selected?: false;
}

/**
 * conformant: no rule that fails the run failed and the run covered what it
 * had to; not-conformant: the server broke a rule; inconclusive: harness
 * errors, rules not tested, coverage below the threshold, or an unusable target.
 */
export type RunOutcome = 'conformant' | 'not-conformant' | 'inconclusive';

export interface RunSummary {
  /** Rules selected for this run (the figures below are over them, not the catalogue). */
  total: number;
  byVerdict: Record<Verdict, number>;
  /** Share of MUST rules that reached a verdict (PASS or FAIL) and passed. */
  score: number;
  /** Share of the selected rules that reached a verdict on the server (PASS, FAIL, OBSERVED). */
  coverage: number;
  /** Rules that reached a verdict on the server. */
  ran: number;
  /** Selected rules the target and the options can serve (SKIPs for the profile, options or data left out). */
  servable: number;
  /** ran / servable: what a gate's coverage threshold is measured on. */
  servableCoverage: number;
  /** The threshold servableCoverage was held to (0..1). */
  requiredCoverage: number;
  outcome: RunOutcome;
  /** Why the run is inconclusive, one line each. */
  inconclusive: string[];
  /** Most rules that were tried ended in a harness ERROR: the target could not be used. */
  unusable: boolean;
  /** INFERRED rules that reached a verdict, and those that FAILed (counted apart from the score). */
  inferred: { judged: number; failed: number };
  /** outcome === 'conformant'. */
  conformant: boolean;
}

export interface RunResult {
  tool: { name: string; version: string };
  /** `replayArgs`: what `run` needs to reach the same target again (e.g. `--base-url … --profile …`). */
  target: { baseUrl: string; serviceVersion: string; profileName?: string; replayArgs?: string };
  options: RunOptions;
  startedAt: string;
  finishedAt: string;
  results: RuleResult[];
  summary: RunSummary;
  /** Set when a signal stopped the run: rules not started are NOT-TESTED, and the verdict is not the target's. */
  interrupted?: { signal: string };
  /** What the run was asked for; absent in results written before it was recorded. */
  selection?: RunSelection;
  /** Gate mode's outcome, when the run had --expectations. */
  gate?: GateRecord;
  /** Requests the rules sent (attempts included; restorations too), against `--max-requests` when set. */
  requests?: RequestFigures;
  /** Per operation with an input model, what its pairwise rule exercised (absent when none ran). */
  inputCoverage?: InputCoverage[];
}

/** A share of pairs of (field, class). */
export interface PairShare {
  exercised: number;
  servable: number;
}

/**
 * What a pairwise rule exercised of its operation's input model: the
 * factors and their classes, the rows of the covering array and those
 * judged, the share of pairs exercised (in all and per pair of factors), the
 * fields held fixed and the classes the target cannot serve, each with why.
 */
export interface InputCoverage {
  rule: string;
  operation: string;
  strength: 2 | 3;
  rows: number;
  rowsJudged: number;
  pairs: PairShare;
  byFactorPair: Record<string, PairShare>;
  factors: Array<{ name: string; classes: string[] }>;
  fixed: Array<{ field: string; why: string }>;
  notServable: Array<{ factor: string; class: string; why: string }>;
}

export interface RequestFigures {
  total: number;
  /** `--max-requests`; null when the run had no cap. */
  budget: number | null;
  /** Answers one rule read that another had already received (the same read, shared). */
  shared?: number;
}
