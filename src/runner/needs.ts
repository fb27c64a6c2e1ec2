import type { RunOptions } from '../core/types.ts';
import type { Need } from '../rules/types.ts';
import type { TargetProfile } from '../target/profile.ts';

/** Why a need is not met by this target and run, or undefined when it is. */
export function unmetNeed(need: Need, profile: TargetProfile, options: RunOptions): string | undefined {
  const roleKinds = new Set(profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
  switch (need) {
    case 'listKind':
      return profile.listKindId || profile.kinds.length > 0 ? undefined : 'the target profile names no kind to list';
    case 'sortAttribute':
      return profile.sortAttribute ? undefined : 'the target profile names no sortAttribute to order and filter on';
    case 'roleKindResource':
      return profile.mutableResources.some((r) => roleKinds.has(r.kindId))
        ? undefined
        : 'the target profile lists no mutable resource of a kind that supports roles';
    case 'nonRoleKindResource':
      return profile.mutableResources.some((r) => !roleKinds.has(r.kindId))
        ? undefined
        : 'the target profile lists no mutable resource of a kind without roles';
    case 'definingRole':
      return profile.kinds.some((k) => k.supportsRoles && k.definingRoleId)
        ? undefined
        : 'the target profile names no kind-defining role';
    case 'restrictedKey':
      return profile.restrictedApiKey
        ? undefined
        : 'no restricted API key was given (--restricted-api-key or DIRECTORY_RESTRICTED_API_KEY)';
    case 'mutableResource':
      if (!options.allowMutations) return 'mutations are not allowed for this run (pass --allow-mutations)';
      return profile.mutableResources.length > 0 ? undefined : 'the target profile lists no mutable resource';
    case 'roleRevocation':
      if (!options.allowMutations) return 'mutations are not allowed for this run (pass --allow-mutations)';
      return profile.allowRoleRevocation
        ? undefined
        : 'role revocation cannot be undone; the target profile does not opt in (allowRoleRevocation)';
    case 'workRegime':
      return (profile.workRegimeIds?.length ?? 0) > 0 ? undefined : 'the target profile names no work regime';
  }
}
