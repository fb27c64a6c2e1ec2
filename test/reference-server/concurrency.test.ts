/** Mutations are atomic and lose no update when requests arrive at once. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { harness, roleResource, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.server.close());

interface Period {
  date_range: string;
  average_rate: number;
}

test('concurrent assignments on one resource: every one lands, none overlap', async () => {
  const id = roleResource(h);
  const months = Array.from({ length: 24 }, (_, i) => `2050-${String((i % 12) + 1).padStart(2, '0')}`).slice(0, 12);
  const answers = await Promise.all(
    months.map((m, i) =>
      h.post('resources.assign-activity-rate', {
        resource_id: id,
        date_range: `${m}-01/${m}-28`,
        average_rate: 10 + i,
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(months.map(() => 204));
  const periods = (
    await h.post('resources.show-activity-rates', { resource_id: id, date_range: '2050-01-01/2050-12-31' })
  ).body as Period[];
  expect(periods.map((p) => p.average_rate).sort((a, b) => a - b)).toEqual(months.map((_, i) => 10 + i));
});

test('concurrent overlapping assignments leave exactly one period per day', async () => {
  const id = roleResource(h, 1);
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      h.post('resources.assign-activity-rate', {
        resource_id: id,
        date_range: `2060-01-${String(i + 1).padStart(2, '0')}/2060-02-10`,
        average_rate: i,
      }),
    ),
  );
  const periods = (
    await h.post('resources.show-activity-rates', { resource_id: id, date_range: '2060-01-01/2060-12-31' })
  ).body as Period[];
  const spans = periods.map((p) => p.date_range.split('/') as [string, string]).sort();
  for (let i = 1; i < spans.length; i++)
    expect(spans[i]![0] > spans[i - 1]![1], `${spans[i - 1]} vs ${spans[i]}`).toBe(true);
});

test('valid and invalid requests racing: the invalid ones change nothing', async () => {
  const id = roleResource(h, 2);
  const roles = (await h.post('resources.list-roles', { resource_ids: [id] })).body as Array<{
    role_id: string;
    team_ids: unknown;
  }>;
  const star = roles.find(
    (r) => r.team_ids === '*' && !h.server.profile.roles.find((x) => x.id === r.role_id)?.definesKindId,
  )!;
  const answers = await Promise.all([
    ...Array.from({ length: 10 }, () =>
      h.post('resources.revoke-roles', { resource_ids: [id], role_ids: [star.role_id], team_ids: [] }),
    ),
    h.post('resources.revoke-roles', { resource_ids: [id], role_ids: [star.role_id], team_ids: '*' }),
  ]);
  expect(answers.slice(0, 10).every((a) => a.status === 422)).toBe(true);
  const after = (await h.post('resources.list-roles', { resource_ids: [id], role_ids: [star.role_id] })).body as Array<{
    team_ids: unknown;
  }>;
  expect(after).toHaveLength(1);
  expect(after[0]!.team_ids).toEqual([]);
});
