import type { DirectoryClient } from '../client/directory-client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { TargetProfile } from '../target/profile.ts';

/**
 * MUST: the spec states it; a departure is a FAIL.
 * OBSERVED: the spec leaves it open ("not shown"); the suite records what the
 * server did and never fails it.
 */
export type Level = 'MUST' | 'OBSERVED';

/**
 * none: only reads. reversible: changes state that documented operations can
 * restore (team assignments, activity rates). irreversible: cannot be undone
 * with documented operations (role revocation).
 */
export type Mutation = 'none' | 'reversible' | 'irreversible';

/** What a rule needs from the target before it can run; unmet needs give SKIP with the reason. */
export type Need =
  | 'listKind'
  | 'sortAttribute'
  | 'roleKindResource'
  | 'nonRoleKindResource'
  | 'definingRole'
  | 'restrictedKey'
  | 'mutableResource'
  | 'roleRevocation'
  | 'workRegime';

export type Verdict = 'PASS' | 'FAIL' | 'ERROR' | 'SKIP' | 'OBSERVED' | 'NOT-TESTED';

/** A structured departure from a rule (modelled on ajv's error objects). */
export interface Violation {
  /** Where in the exchange: "response.status", "response.body[2].team_ids", "page 3". */
  where: string;
  /** Short "must ..." sentence. */
  message: string;
  expected?: unknown;
  actual?: unknown;
}

export interface Observation {
  /** What was looked at, e.g. "status of an empty team_ids rejection". */
  subject: string;
  /** What the server did. */
  value: unknown;
}

/** Replay information of a failing property. */
export interface PropertyReplay {
  seed: number;
  path?: string;
  counterexample?: string;
  numShrinks?: number;
  numRuns: number;
}

export interface RunOptions {
  /** fast-check runs per property. */
  numRuns: number;
  /** fast-check seed; the same seed replays the same run. */
  seed: number;
  /** Mutating rules run only when allowed. The embedded server always allows them. */
  allowMutations: boolean;
  /** A fast-check path to replay one counterexample (with seed). */
  path?: string;
}

export interface CheckContext {
  readonly ruleId: string;
  /** Client with the main credential; every exchange is recorded for the report. */
  readonly client: DirectoryClient;
  /** Client without any credential (§5). */
  readonly anonymous: DirectoryClient;
  /** Client with the profile's restricted credential, when there is one. */
  readonly restricted: DirectoryClient | undefined;
  readonly profile: TargetProfile;
  readonly options: RunOptions;
  /** Record what the server did where the spec is open. */
  observe(subject: string, value: unknown): void;
  /** Attach property replay information (seed, path, counterexample). */
  setReplay(replay: PropertyReplay): void;
  /**
   * Take exclusive use of a mutable resource for this rule, so rules never
   * disturb each other's state. Returns undefined when none is left.
   */
  claimResource(predicate?: (resourceId: string, kindId: string) => boolean): string | undefined;
  readonly signal: AbortSignal;
}

export interface Rule {
  /** Stable id, e.g. "pagination.exact-multiple-empty-page". */
  id: string;
  /** Spec clause, e.g. "§4.9 rule 4". */
  clause: string;
  /** The sentence of the spec the rule enforces (or, for OBSERVED, the open point). */
  sentence: string;
  level: Level;
  mutates: Mutation;
  needs: Need[];
  /** 'example' rules check fixed exchanges; 'property' rules run fast-check. */
  kind: 'example' | 'property';
  /** Throws a ConformanceFailure (FAIL) or a HarnessError (ERROR); returns normally to PASS. */
  check(ctx: CheckContext): Promise<void>;
}

/** One spec file: a group of rules for one section or operation. */
export interface RuleGroup {
  /** Section of the spec, e.g. "§4.9". */
  section: string;
  title: string;
  /** File that declares the group, relative to the repository root. */
  file: string;
  rules: Rule[];
}

export interface RuleResult {
  ruleId: string;
  clause: string;
  sentence: string;
  section: string;
  group: string;
  level: Level;
  kind: Rule['kind'];
  mutates: Mutation;
  verdict: Verdict;
  /** Why a rule was skipped, not tested, or errored. */
  reason?: string;
  /** Stable machine code of a harness fault (ERROR). */
  errorCode?: string;
  /** A SKIP because a shared step failed: the rule that owns that step (and FAILs on it). */
  blockedBy?: string;
  violations: Violation[];
  observations: Observation[];
  exchanges: Exchange[];
  replay?: PropertyReplay;
  requestCount: number;
  durationMs: number;
}

export interface RunSummary {
  total: number;
  byVerdict: Record<Verdict, number>;
  /** Share of MUST rules that ran (not skipped / not tested) and passed. */
  score: number;
  /** Share of the catalogue the run could exercise. */
  coverage: number;
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
}
