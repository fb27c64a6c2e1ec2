/**
 * Every operation's input model, by operation: `rules --coverage` prints
 * each for a profile and a seed, and a run's results say what each pairwise
 * rule exercised of it. A new model is a file `<operation>.ts` exporting a
 * function of the profile, and a line here.
 */
import type { OperationName } from '../../schemas/operations.ts';
import type { InputModelOf } from './model.ts';
import { listInputModel } from './resources-list.ts';
import { showTeamsInputModel } from './show-teams.ts';
import { listRolesInputModel } from './list-roles.ts';
import { showActivityRatesInputModel } from './show-activity-rates.ts';
import { assignActivityRateInputModel } from './assign-activity-rate.ts';
import { assignTeamInputModel } from './assign-team.ts';
import { unassignActivityRateInputModel } from './unassign-activity-rate.ts';
import { revokeRolesInputModel } from './revoke-roles.ts';

export type { FixedField, InputModel, InputModelOf, Unservable } from './model.ts';

export const INPUT_MODELS: Partial<Record<OperationName, InputModelOf>> = {
  'resources.list': listInputModel,
  'resources.show-teams': showTeamsInputModel,
  'resources.list-roles': listRolesInputModel,
  'resources.show-activity-rates': showActivityRatesInputModel,
  'resources.assign-activity-rate': assignActivityRateInputModel,
  'resources.assign-team': assignTeamInputModel,
  'resources.unassign-activity-rate': unassignActivityRateInputModel,
  'resources.revoke-roles': revokeRolesInputModel,
};
