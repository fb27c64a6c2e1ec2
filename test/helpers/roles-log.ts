/**
 * Hand-written logs of revocations for the role judges' tests: one resource
 * of a kind whose defining role is DEFINING, another role ROLE, three teams.
 */
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { RoleAssociation } from '../../src/schemas/index.ts';
import type { TargetProfile } from '../../src/target/profile.ts';

export const KIND = '1000000000000000001';
export const RESOURCE = '7000000000000000001';
export const DEFINING = '2000000000000000001';
export const ROLE = '2000000000000000002';
export const [T1, T2, T3] = ['3000000000000000001', '3000000000000000002', '3000000000000000003'] as const;

/** The profile of the logs; `T3` is enabled unless said otherwise. */
export function rolesProfile(options: { t3Enabled?: boolean } = {}): TargetProfile {
  return {
    kinds: [{ id: KIND, name: 'employee', supportsRoles: true, definingRoleId: DEFINING }],
    roles: [{ id: DEFINING, definesKindId: KIND }, { id: ROLE }],
    teams: [
      { id: T1, enabled: true },
      { id: T2, enabled: true },
      { id: T3, enabled: options.t3Enabled ?? true },
    ],
    mutableResources: [{ id: RESOURCE, kindId: KIND }],
  };
}

/** One answered exchange as a judge reads it. */
export function exchange(operation: string, step: string, request: unknown, status: number, body?: unknown): Observed {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { operation, step, request, status, body, text, earlierStatuses: [], credential: 'main' };
}

/** A role the resource holds, on every team or on these. */
export const held = (roleId: string, teams: '*' | string[]): RoleAssociation => ({
  resource_id: RESOURCE,
  role_id: roleId,
  is_assigned: true,
  team_ids: teams,
});
