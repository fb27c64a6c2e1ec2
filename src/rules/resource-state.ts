/**
 * What a resource holds, as the suite reads it with the documented
 * operations: a record of its own, so the modules that read it (steps), guard
 * it (state-guard) and tell its changes apart (own-mutations) share it
 * without importing one another.
 */
import type { ActivityRatePeriod, RoleAssociation, TeamAssignation } from '../schemas/index.ts';

export type StatePart = 'teams' | 'rates' | 'roles';

export interface ResourceState {
  resourceId: string;
  teams?: TeamAssignation[];
  rates?: ActivityRatePeriod[];
  roles?: RoleAssociation[];
}
