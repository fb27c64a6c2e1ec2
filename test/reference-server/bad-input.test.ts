/**
 * Bad input gets a clear 4xx whose message names the field, never a 5xx, and
 * changes nothing.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { harness, otherResource, roleResource, type Harness } from './helpers.ts';

let h: Harness;
let id: string;
beforeAll(async () => {
  h = await harness();
  id = roleResource(h);
});
afterAll(() => h.server.close());

interface Case {
  name: string;
  operation: string;
  body?: unknown;
  raw?: string;
  field: string;
}

const cases = (): Case[] => {
  const role = h.server.profile.roles.find((r) => !r.definesKindId)!.id;
  const team = h.server.profile.teams[0]!.id;
  const kind = h.server.profile.listKindId!;
  return [
    { name: 'malformed JSON', operation: 'resources.assign-team', raw: '{"resource_id": ', field: 'body' },
    { name: 'body is an array', operation: 'resources.list', raw: '[]', field: 'body' },
    { name: 'missing kind_id', operation: 'resources.list', body: {}, field: 'kind_id' },
    { name: 'kind_id of the wrong type', operation: 'resources.list', body: { kind_id: 12 }, field: 'kind_id' },
    { name: 'unknown kind_id', operation: 'resources.list', body: { kind_id: '42' }, field: 'kind_id' },
    {
      name: 'limit zero',
      operation: 'resources.list',
      body: { kind_id: kind, pagination: { limit: 0, next_token: null } },
      field: 'pagination.limit',
    },
    {
      name: 'pagination without next_token',
      operation: 'resources.list',
      body: { kind_id: kind, pagination: { limit: 5 } },
      field: 'pagination.next_token',
    },
    {
      name: 'unknown filter key',
      operation: 'resources.list',
      body: { kind_id: kind, filters: [{ key: 'resource.nope', value: 1 }] },
      field: 'filters[0].key',
    },
    {
      name: 'impossible at_date',
      operation: 'resources.list',
      body: { kind_id: kind, at_date: '2026-02-30' },
      field: 'at_date',
    },
    {
      name: 'empty team_ids',
      operation: 'resources.revoke-roles',
      body: { resource_ids: [id], role_ids: [role], team_ids: [] },
      field: 'team_ids',
    },
    {
      name: 'team_ids not a list',
      operation: 'resources.revoke-roles',
      body: { resource_ids: [id], role_ids: [role], team_ids: 'all' },
      field: 'team_ids',
    },
    {
      name: 'unknown resource',
      operation: 'resources.revoke-roles',
      body: { resource_ids: ['9'], role_ids: [role] },
      field: 'resource_ids',
    },
    {
      name: 'revoking for a kind without roles',
      operation: 'resources.revoke-roles',
      body: { resource_ids: [id, otherResource(h)], role_ids: [role] },
      field: 'resource_ids',
    },
    { name: 'missing role_ids', operation: 'resources.revoke-roles', body: { resource_ids: [id] }, field: 'role_ids' },
    {
      name: 'reversed date range',
      operation: 'resources.assign-team',
      body: { resource_id: id, team_id: team, head: false, date_range: '2026-03-10/2026-03-01', warning_aware: true },
      field: 'date_range',
    },
    {
      name: 'impossible date',
      operation: 'resources.assign-activity-rate',
      body: { resource_id: id, date_range: '2026-02-30/2026-03-31', average_rate: 50 },
      field: 'date_range',
    },
    {
      name: 'malformed date range',
      operation: 'resources.show-teams',
      body: { resource_id: id, date_range: '2026-01-01' },
      field: 'date_range',
    },
    {
      name: 'rate of the wrong type',
      operation: 'resources.assign-activity-rate',
      body: { resource_id: id, date_range: '2026-01-01/2026-01-31', average_rate: '50' },
      field: 'average_rate',
    },
    {
      name: 'pattern missing a weekday',
      operation: 'resources.assign-activity-rate',
      body: {
        resource_id: id,
        date_range: '2026-01-01/2026-01-31',
        average_rate: 50,
        activity_rate_patterns: [{ monday: 1 }],
      },
      field: 'activity_rate_patterns[0].tuesday',
    },
    {
      name: 'unknown work regime',
      operation: 'resources.assign-activity-rate',
      body: { resource_id: id, date_range: '2026-01-01/2026-01-31', average_rate: 50, work_regime_id: '77' },
      field: 'work_regime_id',
    },
    {
      name: 'unassign without date_range',
      operation: 'resources.unassign-activity-rate',
      body: { resource_id: id },
      field: 'date_range',
    },
    {
      name: 'head of the wrong type',
      operation: 'resources.assign-team',
      body: { resource_id: id, team_id: team, head: 'yes', date_range: '2026-01-01/2026-01-31' },
      field: 'head',
    },
  ];
};

test('every kind of bad input: a 4xx naming the field, and nothing changes', async () => {
  const before = await h.state([id]);
  for (const c of cases()) {
    const res = await h.post(c.operation, c.body, {}, c.raw);
    expect(res.status, c.name).toBeGreaterThanOrEqual(400);
    expect(res.status, c.name).toBeLessThan(500);
    const body = res.body as { message?: string; field?: string };
    expect(body.field, c.name).toBe(c.field);
    expect(body.message, c.name).toContain(c.field === 'body' ? 'body' : c.field.split('[')[0]!);
  }
  expect(await h.state([id])).toBe(before);
});

test('a request refused for one resource changes no other resource of the same request', async () => {
  const role = h.server.profile.roles.find((r) => !r.definesKindId)!.id;
  const ids = [roleResource(h, 1), roleResource(h, 2)];
  const before = await h.state(ids);
  const res = await h.post('resources.revoke-roles', { resource_ids: [...ids, otherResource(h)], role_ids: [role] });
  expect(res.status).toBe(422);
  expect(await h.state(ids)).toBe(before);
});

test('a duplicate contract external_id is refused and changes nothing', async () => {
  const [a, b] = [roleResource(h, 3), roleResource(h, 4)];
  const ok = await h.post('resources.assign-activity-rate', {
    resource_id: a,
    date_range: '2040-01-01/2040-12-31',
    average_rate: 80,
    external_id: 'dup-1',
  });
  expect(ok.status).toBe(204);
  const before = await h.state([b]);
  const dup = await h.post('resources.assign-activity-rate', {
    resource_id: b,
    date_range: '2040-01-01/2040-12-31',
    average_rate: 80,
    external_id: 'dup-1',
  });
  expect(dup.status).toBe(409);
  expect(await h.state([b])).toBe(before);
  const generated = await h.post('resources.assign-activity-rate', {
    resource_id: b,
    date_range: '2041-01-01/2041-12-31',
    average_rate: 80,
    external_id: `C-${a}-1`,
  });
  expect(generated.status).toBe(409);
});
