/**
 * What an ordinary client of the directory might do (the traffic `judge`
 * and `proxy` must read without the suite's tags): load its page, ask
 * whether it may call the API (a CORS preflight), list the first six
 * resources, page through them two at a time with every option a list
 * takes, read one resource's teams and roles, ask for a resource that does
 * not exist, and assign an activity rate to one week.
 */
import { expect } from 'vitest';
import { listKindId, type TargetProfile } from '../../src/target/profile.ts';
import type { PlainHarClient } from './plain-har.ts';

/** The ids of a list answer's `data`. */
export const ids = (json: unknown): string[] => {
  const data: unknown = typeof json === 'object' && json !== null ? Reflect.get(json, 'data') : undefined;
  return Array.isArray(data)
    ? data.flatMap((r: unknown) => {
        const id: unknown = typeof r === 'object' && r !== null ? Reflect.get(r, 'id') : undefined;
        return typeof id === 'string' ? [id] : [];
      })
    : [];
};

/** A list answer's `next_token`. */
export const nextToken = (json: unknown): unknown =>
  typeof json === 'object' && json !== null ? Reflect.get(json, 'next_token') : undefined;

/** The client's requests, each answered as a conformant server answers them. */
export async function browse(client: PlainHarClient, profile: TargetProfile): Promise<void> {
  const kind = listKindId(profile);
  // A browser's own requests, which call no operation: never judged (whatever the server answers them).
  await client.page('/');
  await client.preflight('resources.list');
  const first = await client.post('resources.list', { kind_id: kind, pagination: { limit: 6, next_token: null } });
  const six = ids(first.json);
  expect(six).toHaveLength(6);
  const request = {
    kind_id: kind,
    filters: [{ key: 'resource.ids', value: six }],
    attributes: profile.attributes ?? [],
    with_teams: true,
    with_relations: true,
    with_total_count: true,
    counting_mode: 'strict',
  };
  let token: unknown = null;
  for (let page = 1; page <= 6; page++) {
    const answer = await client.post('resources.list', { ...request, pagination: { limit: 2, next_token: token } });
    token = nextToken(answer.json);
    if (answer.status !== 200 || typeof token !== 'string' || ids(answer.json).length === 0) break;
  }
  const resource = profile.mutableResources[0]?.id ?? six[0];
  await client.post('resources.show-teams', { resource_id: resource, date_range: '2026-01-01/2026-01-31' });
  await client.post('resources.list-roles', { resource_ids: [resource] });
  await client.post('resources.show-teams', { resource_id: '1', date_range: '2026-01-01/2026-01-31' });
  const rate = 60;
  const assigned = await client.post('resources.assign-activity-rate', {
    resource_id: resource,
    date_range: '2026-03-02/2026-03-06',
    average_rate: rate,
    work_regime_id: profile.workRegimeIds?.[0] ?? null,
    indemnity_enabled: false,
    compensation_enabled: false,
    trainee: false,
    apprentice: false,
    paid_hourly: false,
    activity_rate_patterns: [
      { monday: rate, tuesday: rate, wednesday: rate, thursday: rate, friday: rate, saturday: 0, sunday: 0 },
    ],
  });
  expect(assigned.status).toBeLessThan(300);
}
