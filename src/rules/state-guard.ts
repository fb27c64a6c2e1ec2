/**
 * Every mutating check records the state it may change, restores it with the
 * documented operations afterwards and verifies the restoration. A failed
 * restoration is its own ERROR (DC_ERR_RESTORE) with the exact difference,
 * never a FAIL of the rule.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import { HarnessError } from '../core/errors.ts';
import { canonicalJson } from '../core/canonical-json.ts';
import { type ActivityRatePeriod, type TeamAssignation, showActivityRates, showTeams } from './operations.ts';

export const WIDE_RANGE = '1900-01-01/2199-12-31';

function canonical(items: unknown[]): string[] {
  return items.map(canonicalJson).sort();
}

function difference(before: unknown[], after: unknown[]): string {
  const a = canonical(before);
  const b = canonical(after);
  const lost = a.filter((x) => !b.includes(x));
  const added = b.filter((x) => !a.includes(x));
  return `missing after restore: ${lost.join(' ') || 'none'}; unexpected after restore: ${added.join(' ') || 'none'}`;
}

async function verify(what: string, before: unknown[], after: unknown[]): Promise<void> {
  if (JSON.stringify(canonical(before)) !== JSON.stringify(canonical(after))) {
    throw new HarnessError('DC_ERR_RESTORE', `${what} could not be restored: ${difference(before, after)}`);
  }
}

/** Runs `change`, then `restore`, whatever `change` did; a departure found by `change` wins over a restore fault. */
async function guarded<T>(change: () => Promise<T>, restore: () => Promise<void>): Promise<T> {
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await change() };
  } catch (error) {
    outcome = { error };
  }
  try {
    await restore();
  } catch (restoreError) {
    if (!('error' in outcome)) throw restoreError;
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/** Runs `change`, then puts the resource's activity rates back as they were. */
export async function withRestoredRates<T>(
  client: DirectoryClient,
  resourceId: string,
  change: () => Promise<T>,
): Promise<T> {
  const before = await showActivityRates(
    client,
    { resource_id: resourceId, date_range: WIDE_RANGE },
    'snapshot of activity rates',
  );
  return guarded(change, () => restoreRates(client, resourceId, before));
}

async function restoreRates(client: DirectoryClient, resourceId: string, before: ActivityRatePeriod[]): Promise<void> {
  await client.post('resources.unassign-activity-rate', { resource_id: resourceId, date_range: WIDE_RANGE });
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
  const after = await showActivityRates(
    client,
    { resource_id: resourceId, date_range: WIDE_RANGE },
    'activity rates after restore',
  );
  await verify(`activity rates of resource ${resourceId}`, before, after);
}

/** Runs `change`, then re-assigns every team assignation the resource had (warning_aware) and verifies. */
export async function withRestoredTeams<T>(
  client: DirectoryClient,
  resourceId: string,
  change: () => Promise<T>,
): Promise<T> {
  const before = await showTeams(
    client,
    { resource_id: resourceId, date_range: WIDE_RANGE },
    'snapshot of team assignations',
  );
  return guarded(change, () => restoreTeams(client, resourceId, before));
}

async function restoreTeams(client: DirectoryClient, resourceId: string, before: TeamAssignation[]): Promise<void> {
  const now = await showTeams(
    client,
    { resource_id: resourceId, date_range: WIDE_RANGE },
    'team assignations before restore',
  );
  if (JSON.stringify(canonical(now)) === JSON.stringify(canonical(before))) return;
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
  const after = await showTeams(
    client,
    { resource_id: resourceId, date_range: WIDE_RANGE },
    'team assignations after restore',
  );
  await verify(`team assignations of resource ${resourceId}`, before, after);
}
