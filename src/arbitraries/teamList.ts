import fc from 'fast-check';

export interface TeamListConstraints {
  /** Team ids to draw from (required for lists). */
  teamIds: readonly string[];
  /** Allow the same id twice (default false). */
  allowDuplicates?: boolean;
  /** Shortest list (default 1: an empty list is rejected by revoke-roles, §4.1 rule 7). */
  minLength?: number;
  /** Include `*` (default true). */
  withStar?: boolean;
}

/** A TeamList (spec §2.1): `*` or an array of team ids. */
export function teamList(constraints: TeamListConstraints): fc.Arbitrary<'*' | string[]> {
  const { teamIds, allowDuplicates = false, minLength = 1, withStar = true } = constraints;
  const id = fc.constantFrom(...teamIds);
  const list = allowDuplicates
    ? fc.array(id, { minLength, maxLength: Math.max(minLength, teamIds.length + 2) })
    : fc.uniqueArray(id, { minLength: Math.min(minLength, teamIds.length), maxLength: teamIds.length });
  return withStar ? fc.oneof(fc.constant('*' as const), list) : list;
}
