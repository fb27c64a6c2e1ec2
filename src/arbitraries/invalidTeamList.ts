import fc from 'fast-check';

/** Values that are no valid `team_ids` of revoke-roles: the empty list (§4.1 rule 7) and non-TeamLists. */
export function invalidTeamList(): fc.Arbitrary<unknown> {
  // A string that is not `*` and a list of what are not Snowflakes are the shapes a server most
  // likely mistakes for valid ones: drawn three times as often, a property's few runs meet both.
  const [empty, text, notSnowflakes, integer, object] = kinds();
  return fc.oneof(empty, { arbitrary: text, weight: 3 }, { arbitrary: notSnowflakes, weight: 3 }, integer, object);
}

/** The kinds of invalid `team_ids`: the empty list, a string other than `*`, a list of non-Snowflakes, a number, an object. */
function kinds(): [
  fc.Arbitrary<unknown>,
  fc.Arbitrary<unknown>,
  fc.Arbitrary<unknown>,
  fc.Arbitrary<unknown>,
  fc.Arbitrary<unknown>,
] {
  return [
    fc.constant([]),
    fc.constantFrom('all', '', '**', 'none'),
    fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
    fc.integer(),
    fc.constant({}),
  ];
}

/**
 * Invalid `team_ids` of every kind, in the order a run's repetitions send
 * them: each kind in turn, so a server that takes one kind for valid is
 * found in every run, not only in the runs that draw that kind; a string
 * other than `*` every other time and a list of non-Snowflakes often, the
 * shapes a server most likely mistakes for valid ones (and may mistake only
 * now and then).
 */
export function invalidTeamListsOfEachKind(): fc.Arbitrary<unknown[]> {
  const [empty, text, notSnowflakes, integer, object] = kinds();
  return fc.tuple(text, notSnowflakes, text, empty, text, integer, text, notSnowflakes, text, object);
}
