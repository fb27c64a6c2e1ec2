/**
 * The types checks work with are read off the JSON Schemas ajv compiles
 * (src/schemas/from-schema.ts). These assertions are checked by the compiler
 * (`npm run typecheck`): a schema change that changes a type shows up here.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  matchesSchema,
  type ActivityRatePeriod,
  type ListEnvelope,
  type RoleAssociation,
  type TeamAssignation,
} from '../../src/schemas/index.ts';

describe('types derived from the schemas', () => {
  test('a role association', () => {
    expectTypeOf<RoleAssociation['resource_id']>().toEqualTypeOf<string>();
    expectTypeOf<RoleAssociation['is_assigned']>().toEqualTypeOf<boolean>();
    expectTypeOf<RoleAssociation['team_ids']>().toEqualTypeOf<'*' | string[]>();
  });

  test('the list envelope: required and optional fields, nullable token, open records', () => {
    expectTypeOf<ListEnvelope['next_token']>().toEqualTypeOf<string | null>();
    expectTypeOf<ListEnvelope['total_count']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ListEnvelope['data'][number]['id']>().toEqualTypeOf<string>();
    // Each resource is only known to have an id here; other fields are unknown until checked.
    expectTypeOf<ListEnvelope['data'][number]['kind_id']>().toEqualTypeOf<unknown>();
  });

  test('redactable fields are the value or the Redacted marker', () => {
    expectTypeOf<TeamAssignation['external_id']>().toEqualTypeOf<string | { redacted: 'forbidden' }>();
    expectTypeOf<ActivityRatePeriod['indemnity_enabled']>().toEqualTypeOf<boolean | { redacted: 'forbidden' }>();
    expectTypeOf<ActivityRatePeriod['work_regime']['weekly_worked_days']>().toEqualTypeOf<number>();
    expectTypeOf<ActivityRatePeriod['activity_rate_patterns'][number]['sunday']>().toEqualTypeOf<number>();
  });

  test('matchesSchema narrows to the derived type, and refuses what does not match', () => {
    const value: unknown = { resource_id: '1', role_id: '2', is_assigned: true, team_ids: '*' };
    expect(matchesSchema('RoleAssociation', value)).toBe(true);
    if (matchesSchema('RoleAssociation', value)) expectTypeOf(value).toEqualTypeOf<RoleAssociation>();
    expect(matchesSchema('RoleAssociation', { ...(value as object), team_ids: 'all' })).toBe(false);
  });
});
