/**
 * What a resource holds (team assignations, activity rates, roles), read with
 * the documented operations, so a check can say "nothing changed" or "this
 * is what changed" in one way everywhere.
 */
import { canonicalJson } from '../../core/canonical-json.ts';
import type { ResourceState, StatePart } from '../resource-state.ts';
import { fail } from '../assertions.ts';
import type { BaseCheckContext } from '../types.ts';
import { WIDE_RANGE, showActivityRates, showTeams } from './assignations.ts';
import { canonicalRoles, listRoles } from './roles.ts';

export type { ResourceState, StatePart } from '../resource-state.ts';

type StepContext = Pick<BaseCheckContext, 'ruleId' | 'client' | 'found'>;

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

function partsOf(state: ResourceState): StatePart[] {
  return (['teams', 'rates', 'roles'] as const).filter((p) => state[p] !== undefined);
}

/** Each part as sorted canonical items, so order and key order never count as a change. */
function canonicalItems(state: ResourceState, part: StatePart): string[] {
  const items: readonly unknown[] = part === 'roles' ? canonicalRoles(state.roles ?? []) : (state[part] ?? []);
  return items.map(canonicalJson).sort();
}

export interface StateDifference {
  /** Items `before` held that `after` does not. */
  missing: string[];
  /** Items `after` holds that `before` did not. */
  unexpected: string[];
}

/** What differs between two captures of the same parts; undefined when nothing does. */
export function stateDifference(before: ResourceState, after: ResourceState): StateDifference | undefined {
  const missing: string[] = [];
  const unexpected: string[] = [];
  for (const part of partsOf(before)) {
    const a = canonicalItems(before, part);
    const b = canonicalItems(after, part);
    missing.push(...a.filter((x) => !b.includes(x)).map((x) => `${part}: ${x}`));
    unexpected.push(...b.filter((x) => !a.includes(x)).map((x) => `${part}: ${x}`));
  }
  return missing.length + unexpected.length === 0 ? undefined : { missing, unexpected };
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
