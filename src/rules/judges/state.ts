/**
 * A resource's state as a capture read it (steps/state.ts tags each part's
 * read `<step>: teams`, `<step>: activity rates`, `<step>: roles`), read back
 * from a rule's log: so a judge can say "nothing changed" from the exchanges
 * alone, as the driver's step would have.
 */
import { matchesSchema } from '../../schemas/index.ts';
import { partsOf, stateDifference, type ResourceState } from '../resource-state.ts';
import { noEvidence, type Judgement } from './judgement.ts';
import { field, type Observed } from './observed.ts';

/** The last read of each part a capture tagged `step` made; undefined when it made none or one was not a list. */
export function stateIn(log: readonly Observed[], step: string): ResourceState | undefined {
  const last = (suffix: string): Observed | undefined => log.findLast((o) => o.step === `${step}: ${suffix}`);
  const teams = last('teams');
  const rates = last('activity rates');
  const roles = last('roles');
  const resourceId = [teams, rates, roles].map((o) => field(o?.request, 'resource_id')).find((id) => id !== undefined);
  const rolesOf = field(roles?.request, 'resource_ids');
  const id = typeof resourceId === 'string' ? resourceId : Array.isArray(rolesOf) ? rolesOf[0] : undefined;
  if (typeof id !== 'string') return undefined;
  const state: ResourceState = { resourceId: id };
  if (teams) {
    if (!matchesSchema('TeamAssignationList', teams.body)) return undefined;
    state.teams = teams.body;
  }
  if (rates) {
    if (!matchesSchema('ActivityRatePeriodList', rates.body)) return undefined;
    state.rates = rates.body;
  }
  if (roles) {
    if (!matchesSchema('RoleAssociationList', roles.body)) return undefined;
    state.roles = roles.body;
  }
  return state;
}

/** The state read at `after` holds what the one read at `before` held (a rejected request changes nothing). */
export function unchangedBetween(
  log: readonly Observed[],
  steps: { before: string; after: string; message: string },
): Judgement {
  const before = stateIn(log, steps.before);
  const after = stateIn(log, steps.after);
  if (!before || !after) return noEvidence(`no readable state of the resource both ${steps.before} and ${steps.after}`);
  const difference = stateDifference(before, after);
  if (!difference) return [];
  return [
    {
      where: `state of resource ${before.resourceId} (${partsOf(before).join(', ')})`,
      message: steps.message,
      expected: 'unchanged',
      actual: difference,
    },
  ];
}
