/**
 * Arbitrary JSON at every operation: never a 5xx, never a crash, and the
 * invariants hold afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { harness, roleResource, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ seed: 3 });
});
afterAll(() => h.server.close());

const OPERATIONS = [
  'resources.list',
  'resources.list-roles',
  'resources.revoke-roles',
  'resources.show-teams',
  'resources.assign-team',
  'resources.show-activity-rates',
  'resources.assign-activity-rate',
  'resources.unassign-activity-rate',
];

/** Bodies built from the operations' own field names, with values of every shape. */
function bodies(h: Harness): fc.Arbitrary<unknown> {
  const ids = [
    roleResource(h),
    ...h.server.profile.roles.map((r) => r.id),
    ...h.server.profile.teams.map((t) => t.id),
    h.server.profile.listKindId!,
  ];
  const leaf = fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(
      '*',
      '',
      '2026-02-30/2026-03-01',
      '2024-02-29/2024-03-01',
      '2026-01-01/2025-01-01',
      'null',
      '\u0000',
      '💥',
    ),
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308, Number.MIN_VALUE),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('v'), { maxLength: 5 }),
      fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 }),
    ),
  })).v;
  const field = fc.constantFrom(
    'kind_id',
    'resource_id',
    'resource_ids',
    'role_ids',
    'team_ids',
    'team_id',
    'head',
    'date_range',
    'average_rate',
    'work_regime_id',
    'activity_rate_patterns',
    'external_id',
    'warning_aware',
    'filters',
    'orders',
    'pagination',
    'attributes',
    'with_teams',
    'at_date',
    'counting_mode',
  );
  return fc.oneof(
    fc.dictionary(field, value, { maxKeys: 8 }),
    value,
    fc.array(fc.constantFrom(...ids), { maxLength: 3000 }).map((a) => ({ resource_ids: a })),
  );
}

test('no operation answers 5xx to arbitrary JSON', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...OPERATIONS), bodies(h), async (operation, body) => {
      const res = await h.post(operation, body);
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(typeof (res.body as { message?: unknown }).message).toBe('string');
    }),
    { numRuns: 400, seed: 20261122 },
  );
});

test('no 5xx for raw, deeply nested or non-JSON bodies', async () => {
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  for (const raw of [
    deep,
    '{"a":' + '{"a":'.repeat(2000) + '1' + '}'.repeat(2001),
    '\uFEFF{}',
    'null',
    '"text"',
    '1e999',
    '{"kind_id": "1"}garbage',
  ]) {
    for (const operation of OPERATIONS)
      expect((await h.post(operation, undefined, {}, raw)).status, `${operation} ${raw.slice(0, 20)}`).toBeLessThan(
        500,
      );
  }
});

test('after the fuzzing, the invariants hold', async () => {
  const enabled = new Set(h.server.profile.teams.filter((t) => t.enabled).map((t) => t.id));
  const id = roleResource(h);
  const roles = (await h.post('resources.list-roles', { resource_ids: [id] })).body as Array<{ team_ids: unknown }>;
  for (const r of roles)
    if (Array.isArray(r.team_ids)) for (const t of r.team_ids as string[]) expect(enabled.has(t)).toBe(true);
  const periods = (await h.post('resources.show-activity-rates', { resource_id: id })).body as Array<{
    date_range: string;
  }>;
  const spans = periods.map((p) => p.date_range.split('/') as [string, string]).sort();
  for (let i = 1; i < spans.length; i++) expect(spans[i]![0] > spans[i - 1]![1]).toBe(true);
  const page = (
    await h.post('resources.list', {
      kind_id: h.server.profile.listKindId,
      pagination: { limit: null, next_token: null },
    })
  ).body as { data: unknown[]; next_token: null };
  expect(page.next_token).toBeNull();
  expect(page.data.length).toBeGreaterThan(0);
});
