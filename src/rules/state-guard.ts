/**
 * Every mutating check records the state it may change, restores it with the
 * documented operations afterwards and verifies the restoration. A failed
 * restoration is its own ERROR (DC_ERR_RESTORE) with the exact difference,
 * never a FAIL of the rule.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import { HarnessError } from '../core/errors.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../schemas/index.ts';
import { captureState, stateDifference, type ResourceState, type StatePart } from './steps/state.ts';
import type { BaseCheckContext } from './types.ts';

type StepContext = Pick<BaseCheckContext, 'ruleId' | 'client'>;

/** The parts restoration can put back with documented operations (roles cannot be given back). */
export type RestorablePart = Exclude<StatePart, 'roles'>;

/** Runs `change`, then puts the resource's `parts` back as they were, whatever `change` did. */
export async function withRestoredState<T>(
  ctx: StepContext,
  resourceId: string,
  parts: readonly RestorablePart[],
  change: () => Promise<T>,
): Promise<T> {
  const before = await captureState(ctx, resourceId, parts, { step: 'snapshot before the change' });
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await change() };
  } catch (error) {
    outcome = { error };
  }
  try {
    await restore(ctx, before);
  } catch (restoreError) {
    // A departure found by the check wins over a restore fault (which is reported with its run).
    if (!('error' in outcome)) throw restoreError;
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

async function restore(ctx: StepContext, before: ResourceState): Promise<void> {
  const now = await captureState(ctx, before.resourceId, partsOf(before), { step: 'state before restore' });
  if (!stateDifference(before, now)) return;
  if (before.rates) await restoreRates(ctx.client, before.resourceId, now.rates ?? [], before.rates);
  if (before.teams) await restoreTeams(ctx.client, before.resourceId, before.teams);
  const after = await captureState(ctx, before.resourceId, partsOf(before), { step: 'state after restore' });
  const difference = stateDifference(before, after);
  if (difference) {
    throw new HarnessError(
      'DC_ERR_RESTORE',
      `${partsOf(before).join(' and ')} of resource ${before.resourceId} could not be restored: ` +
        `missing after restore: ${difference.missing.join(' ') || 'none'}; ` +
        `unexpected after restore: ${difference.unexpected.join(' ') || 'none'}`,
    );
  }
}

function partsOf(state: ResourceState): RestorablePart[] {
  return (['rates', 'teams'] as const).filter((p) => state[p] !== undefined);
}

/**
 * Unassigns each period there is now, one range at a time (so restoring never relies on an
 * unassignment that spans several periods: that is under test), then assigns each former one.
 */
async function restoreRates(
  client: DirectoryClient,
  resourceId: string,
  now: ActivityRatePeriod[],
  before: ActivityRatePeriod[],
): Promise<void> {
  for (const p of now) {
    await client.post('resources.unassign-activity-rate', { resource_id: resourceId, date_range: p.date_range });
  }
  for (const p of before) {
    await client.post('resources.assign-activity-rate', {
      resource_id: resourceId,
      date_range: p.date_range,
      average_rate: p.average_rate,
      work_regime_id: p.work_regime.id,
      activity_rate_patterns: p.activity_rate_patterns,
      paid_hourly: p.paid_hourly,
      apprentice: p.apprentice,
      trainee: p.trainee,
      ...(typeof p.indemnity_enabled === 'boolean' ? { indemnity_enabled: p.indemnity_enabled } : {}),
      ...(typeof p.compensation_enabled === 'boolean' ? { compensation_enabled: p.compensation_enabled } : {}),
    });
  }
}

/** Re-assigns every team assignation the resource had (warning_aware: the conflicts are the point). */
async function restoreTeams(client: DirectoryClient, resourceId: string, before: TeamAssignation[]): Promise<void> {
  for (const a of before) {
    await client.post('resources.assign-team', {
      resource_id: resourceId,
      team_id: a.team.id,
      head: a.head,
      date_range: a.date_range,
      ...(typeof a.regrouping === 'string' ? { regrouping: a.regrouping } : {}),
      ...(typeof a.contract_number === 'string' ? { contract_number: a.contract_number } : {}),
      ...(typeof a.external_id === 'string' ? { external_id: a.external_id } : {}),
      warning_aware: true,
    });
  }
}
