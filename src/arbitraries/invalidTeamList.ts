import fc from 'fast-check';

/** Values that are no valid `team_ids` of revoke-roles: the empty list (§4.1 rule 7) and non-TeamLists. */
export function invalidTeamList(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant([]),
    fc.constantFrom('all', '', '**', 'none'),
    fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
    fc.integer(),
    fc.constant({}),
  );
}
