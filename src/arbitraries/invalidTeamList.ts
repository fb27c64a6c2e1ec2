import fc from 'fast-check';

/** Values that are no valid `team_ids` of revoke-roles: the empty list (§4.1 rule 7) and non-TeamLists. */
export function invalidTeamList(): fc.Arbitrary<unknown> {
  // A string that is not `*` and a list of what are not Snowflakes are the shapes a server most
  // likely mistakes for valid ones: drawn three times as often, a property's few runs meet both.
  return fc.oneof(
    fc.constant([]),
    { arbitrary: fc.constantFrom('all', '', '**', 'none'), weight: 3 },
    {
      arbitrary: fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
      weight: 3,
    },
    fc.integer(),
    fc.constant({}),
  );
}
