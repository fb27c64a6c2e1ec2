/**
 * The contract every generator passes (after fast-check's ArbitraryAssertions):
 * the same seed gives the same values; valid values validate against the JSON
 * Schema of spec §2; invalid ones never do.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as arb from '../../src/arbitraries/index.ts';
import { validateSchema, type SchemaName } from '../../src/schemas/index.ts';

const TEAMS = ['3000000000000000001', '3000000000000000002', '3000000000000000003'];

const valid: Array<[string, fc.Arbitrary<unknown>, SchemaName]> = [
  ['snowflake', arb.snowflake(), 'Snowflake'],
  ['localDate', arb.localDate(), 'LocalDate'],
  ['dateRange', arb.dateRange(), 'DateRange'],
  ['teamList', arb.teamList({ teamIds: TEAMS }), 'TeamList'],
  ['activityRatePattern', arb.activityRatePattern(), 'ActivityRatePattern'],
];

const invalid: Array<[string, fc.Arbitrary<unknown>, SchemaName]> = [
  ['impossibleLocalDate', arb.impossibleLocalDate(), 'LocalDate'],
  ['malformedLocalDate', arb.malformedLocalDate(), 'LocalDate'],
  ['malformedDateRange', arb.malformedDateRange(), 'DateRange'],
];

function sample(a: fc.Arbitrary<unknown>, seed: number): unknown[] {
  return fc.sample(a, { seed, numRuns: 30 });
}

describe('generator contract', () => {
  for (const [name, a] of [...valid, ...invalid]) {
    test(`${name}: the same seed gives the same values`, () => {
      expect(sample(a, 7)).toEqual(sample(a, 7));
      expect(sample(a, 7)).not.toEqual(sample(a, 8));
    });
  }
  for (const [name, a, schema] of valid) {
    test(`${name}: every value validates against ${schema}`, () => {
      fc.assert(
        fc.property(a, (v) => validateSchema(schema, v).length === 0),
        { numRuns: 300 },
      );
    });
  }
  for (const [name, a, schema] of invalid) {
    test(`${name}: no value validates against ${schema}`, () => {
      fc.assert(
        fc.property(a, (v) => validateSchema(schema, v).length > 0),
        { numRuns: 300 },
      );
    });
  }

  test('invalid team lists never make a valid revoke-roles team_ids', () => {
    fc.assert(
      fc.property(
        arb.invalidTeamList(),
        (teamIds) =>
          validateSchema('RevokeRolesRequest', { resource_ids: ['1'], role_ids: ['2'], team_ids: teamIds }).length > 0,
      ),
    );
  });

  test('reversed date ranges end before they start', () => {
    fc.assert(fc.property(arb.reversedDateRange(), (r) => r.slice(11) < r.slice(0, 10)));
  });

  test('invalid limits never make a valid list request', () => {
    fc.assert(
      fc.property(
        arb.invalidPaginationLimit(),
        (limit) => validateSchema('ListRequest', { kind_id: '1', pagination: { limit, next_token: null } }).length > 0,
      ),
    );
  });

  test('a tampered token always differs from the token', () => {
    fc.assert(fc.property(arb.tamperedToken(), fc.string({ minLength: 1 }), (t, token) => t.apply(token) !== token));
  });

  test('a list query change always changes filters or orders', () => {
    const c = { ids: TEAMS, attribute: 'last_name', prefixes: ['A', 'B'] };
    fc.assert(fc.property(arb.listQueryChange(c), ([a, b]) => JSON.stringify(a) !== JSON.stringify(b)));
    fc.assert(fc.property(arb.listQuery(c), (q) => validateSchema('ListRequest', { kind_id: '1', ...q }).length === 0));
  });

  test('leap days come up', () => {
    expect(fc.sample(arb.localDate(), { seed: 1, numRuns: 500 }).some((d) => d.endsWith('-02-29'))).toBe(true);
  });
});
