import type { DirectoryClient } from '../client/directory-client.ts';
import type { Level, Mutation, PropertyReplay, RunOptions } from '../core/types.ts';
import type { TargetProfile } from '../target/profile.ts';

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
