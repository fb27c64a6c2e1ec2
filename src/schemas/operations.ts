import type { SchemaType } from './index.ts';

/** The eight operations of spec §4, each with the schema of its request body. */
export const OPERATION_REQUESTS = {
  'resources.revoke-roles': 'RevokeRolesRequest',
  'resources.assign-activity-rate': 'AssignActivityRateRequest',
  'resources.assign-team': 'AssignTeamRequest',
  'resources.show-activity-rates': 'ShowActivityRatesRequest',
  'resources.show-teams': 'ShowTeamsRequest',
  'resources.list-roles': 'ListRolesRequest',
  'resources.unassign-activity-rate': 'UnassignActivityRateRequest',
  'resources.list': 'ListRequest',
} as const;

export type OperationName = keyof typeof OPERATION_REQUESTS;

/** The body of a valid request to `O`, typed by its schema. */
export type RequestOf<O extends OperationName> = SchemaType<(typeof OPERATION_REQUESTS)[O]>;

/** The four reads: they change nothing, so they are safe to repeat. */
export const READ_OPERATIONS: ReadonlySet<string> = new Set<OperationName>([
  'resources.show-activity-rates',
  'resources.show-teams',
  'resources.list-roles',
  'resources.list',
]);
