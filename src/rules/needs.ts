/**
 * What a rule can need from the target, as one table: each need either
 * provides its value (what the check may then rely on: a string, not an
 * optional profile field) or says why this target and run do not meet it
 * (the rule is SKIPped with that reason). `Need`, `NeedProvides` and so the
 * check contexts are derived from the table; nothing is kept twice.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import { listKindId, type TargetProfile } from '../target/profile.ts';

/** What the needs are judged against: the profile, the run's choices, the restricted client when there is a key. */
export interface NeedEnv {
  readonly profile: TargetProfile;
  readonly allowMutations: boolean;
  readonly restricted: DirectoryClient | undefined;
}

interface Met<P extends object> {
  readonly met: true;
  readonly provides: P;
}
interface Unmet {
  readonly met: false;
  readonly reason: string;
}

const met = <P extends object>(provides: P): Met<P> => ({ met: true, provides });
const unmet = (reason: string): Unmet => ({ met: false, reason });
/** A need met or not, providing nothing beyond the guarantee. */
const when = (condition: boolean, reason: string): Met<object> | Unmet => (condition ? met({}) : unmet(reason));

const roleKinds = (profile: TargetProfile): Set<string> =>
  new Set(profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
const MUTATIONS_OFF = 'mutations are not allowed for this run (pass --allow-mutations)';

export const NEEDS = {
  listKind: ({ profile }: NeedEnv) => {
    const id = listKindId(profile);
    return id ? met({ listKindId: id }) : unmet('the target profile names no kind to list');
  },
  sortAttribute: ({ profile }: NeedEnv) =>
    profile.sortAttribute
      ? met({ sortAttribute: profile.sortAttribute })
      : unmet('the target profile names no sortAttribute to order and filter on'),
  roleKindResource: ({ profile }: NeedEnv) =>
    when(
      profile.mutableResources.some((r) => roleKinds(profile).has(r.kindId)),
      'the target profile lists no mutable resource of a kind that supports roles',
    ),
  nonRoleKindResource: ({ profile }: NeedEnv) =>
    when(
      profile.mutableResources.some((r) => !roleKinds(profile).has(r.kindId)),
      'the target profile lists no mutable resource of a kind without roles',
    ),
  definingRole: ({ profile }: NeedEnv) =>
    when(
      profile.kinds.some((k) => k.supportsRoles && k.definingRoleId),
      'the target profile names no kind-defining role',
    ),
  restrictedKey: ({ restricted }: NeedEnv) =>
    restricted
      ? met({ restricted })
      : unmet('no restricted API key was given (--restricted-api-key or DIRECTORY_RESTRICTED_API_KEY)'),
  mutableResource: ({ profile, allowMutations }: NeedEnv) =>
    allowMutations
      ? when(profile.mutableResources.length > 0, 'the target profile lists no mutable resource')
      : unmet(MUTATIONS_OFF),
  roleRevocation: ({ profile, allowMutations }: NeedEnv) =>
    allowMutations
      ? when(
          profile.allowRoleRevocation === true,
          'role revocation cannot be undone; the target profile does not opt in (allowRoleRevocation)',
        )
      : unmet(MUTATIONS_OFF),
  workRegime: ({ profile }: NeedEnv) => {
    const [first, ...rest] = profile.workRegimeIds ?? [];
    return first !== undefined
      ? met({ workRegimeIds: [first, ...rest] as const })
      : unmet('the target profile names no work regime');
  },
} satisfies Record<string, (env: NeedEnv) => Met<object> | Unmet>;

/** What a rule needs from the target before it can run; unmet needs give SKIP with the reason. */
export type Need = keyof typeof NEEDS;

/** What each met need guarantees a check, as the table provides it. */
export type NeedProvides = { [K in Need]: Extract<ReturnType<(typeof NEEDS)[K]>, { met: true }>['provides'] };

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Everything any need can provide, each field present only when its need is met. */
export type Provisions = Partial<Intersection<NeedProvides[Need]>>;

/** What the needs `N` guarantee together. */
export type ProvidedBy<N extends Need> = Intersection<NeedProvides[N]>;

/** Why `need` is not met by this target and run, or undefined when it is. */
export function unmetNeed(need: Need, env: NeedEnv): string | undefined {
  const outcome = NEEDS[need](env);
  return outcome.met ? undefined : outcome.reason;
}

/** What every met need provides, for the engine to hand to the check of a rule whose needs are all met. */
export function provisions(env: NeedEnv): Provisions {
  const out: Provisions = {};
  for (const resolve of Object.values(NEEDS)) {
    const outcome = resolve(env);
    if (outcome.met) Object.assign(out, outcome.provides);
  }
  return out;
}

/**
 * Whether `context` holds what every need of `needs` provides for this
 * target and run, the very values the table gives: a rule's check runs only
 * past this test, which narrows its context by what it found, not by a
 * promise.
 */
export function meetsNeeds<C extends object, N extends Need>(
  context: C,
  needs: readonly N[],
  env: NeedEnv,
): context is C & ProvidedBy<N> {
  return needs.every((need) => {
    const outcome = NEEDS[need](env);
    return (
      outcome.met &&
      Object.entries(outcome.provides).every(
        ([key, value]) => key in context && sameValue(Reflect.get(context, key), value),
      )
    );
  });
}

/** Provided values are strings, clients and lists of strings: a list is the same when its items are. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}
