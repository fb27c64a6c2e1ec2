/**
 * What a resource holds (team assignations, activity rates, roles), read with
 * the documented operations, so a check can say "nothing changed" or "this
 * is what changed" in one way everywhere.
 */
import { partsOf, stateDifference, type ResourceState, type StatePart } from '../resource-state.ts';
import { fail } from '../assertions.ts';
import type { BaseCheckContext } from '../types.ts';
import { WIDE_RANGE, showActivityRates, showTeams } from './assignations.ts';
import { listRoles } from './roles.ts';

export { stateDifference, type ResourceState, type StateDifference, type StatePart } from '../resource-state.ts';

type StepContext = Pick<BaseCheckContext, 'ruleId' | 'client' | 'found' | 'ownerOf'>;

export async function captureState(
  ctx: StepContext,
  resourceId: string,
  parts: readonly StatePart[],
  options: { step?: string; fresh?: boolean } = {},
): Promise<ResourceState> {
  const step = options.step ?? 'state of the resource';
  const fresh = options.fresh === true;
  const state: ResourceState = { resourceId };
  if (parts.includes('teams')) {
    state.teams = await showTeams(
      ctx,
      { resource_id: resourceId, date_range: WIDE_RANGE },
      { step: `${step}: teams`, fresh },
    );
  }
  if (parts.includes('rates')) {
    state.rates = await showActivityRates(
      ctx,
      { resource_id: resourceId, date_range: WIDE_RANGE },
      { step: `${step}: activity rates`, fresh },
    );
  }
  if (parts.includes('roles')) {
    state.roles = await listRoles(ctx, { resource_ids: [resourceId] }, { step: `${step}: roles`, fresh });
  }
  return state;
}

/** The same capture narrowed to `parts`. */
export function partOf(state: ResourceState, parts: readonly StatePart[]): ResourceState {
  const narrowed: ResourceState = { resourceId: state.resourceId };
  for (const part of parts) if (state[part] !== undefined) narrowed[part] = state[part] as never;
  return narrowed;
}

/** The resource must still hold what `before` held (a rejected or no-op request changes nothing). */
export async function expectStateUnchanged(
  ctx: StepContext,
  before: ResourceState,
  options: { message: string; step?: string },
): Promise<void> {
  const after = await captureState(ctx, before.resourceId, partsOf(before), { step: options.step ?? 'state after' });
  const difference = stateDifference(before, after);
  if (difference) {
    fail({
      where: `state of resource ${before.resourceId} (${partsOf(before).join(', ')})`,
      message: options.message,
      expected: 'unchanged',
      actual: difference,
    });
  }
}
