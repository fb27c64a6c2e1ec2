/**
 * Data too thin to show a rule is a SKIP with the reason, never a PASS: a
 * loop over nothing proves nothing. Each rule below runs against a directory
 * that answers every request correctly but holds too little: no resource, a
 * few (fewer than three pages), resources without the sort attribute, or a
 * restricted key that is the main key with no role declared hidden from it.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RuleResult } from '../../src/core/types.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import type { TargetProfile } from '../../src/target/profile.ts';
import { json, startTestServer } from '../helpers/http-server.ts';

const CATALOGUE = await loadCatalogue();
const KIND = '1000000000000000001';
const RESOURCE = '7000000000000000001';

const PROFILE: TargetProfile = {
  kinds: [{ id: KIND, name: 'employee', supportsRoles: true, definingRoleId: '2000000000000000001' }],
  roles: [{ id: '2000000000000000001', definesKindId: KIND }, { id: '2000000000000000002' }],
  teams: [{ id: '3000000000000000001', enabled: true }],
  listKindId: KIND,
  sortAttribute: 'last_name',
  attributes: ['last_name', 'first_name'],
  mutableResources: [{ id: RESOURCE, kindId: KIND }],
  restrictedApiKey: 'restricted-key',
  restrictedHiddenRoleIds: ['2000000000000000002'],
};

/** `count` resources of the kind, carrying the requested attributes only when `withAttributes`. */
function resources(count: number, withAttributes: boolean) {
  return Array.from({ length: count }, (_, i) => {
    const id = String(BigInt(RESOURCE) + BigInt(i));
    const attributes = withAttributes ? { last_name: `Name ${String(i).padStart(3, '0')}`, first_name: 'A' } : {};
    return { id, kind_id: KIND, label: id, short_label: id, sort_label: id, attributes };
  });
}

/**
 * A directory that follows the spec over a tiny data set: resources.list pages
 * (offset tokens), filters by ids, adds teams, relations and counts when asked;
 * every other read answers an empty array; missing credentials get a 401.
 */
function thinDirectory(count: number, withAttributes: boolean) {
  const all = resources(count, withAttributes);
  return (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const auth = req.headers.authorization ?? '';
    if (auth !== 'Bearer main-key' && auth !== 'Bearer restricted-key') {
      json(res, 401, { message: 'the credentials are not valid' });
      return;
    }
    const operation = (req.url ?? '').split('/').pop();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json(res, 400, { message: 'the body is not JSON' });
      return;
    }
    if (operation !== 'resources.list') {
      json(res, 200, []);
      return;
    }
    if (typeof body.kind_id !== 'string') {
      json(res, 400, { message: 'kind_id is required' });
      return;
    }
    const filters = (body.filters ?? []) as Array<{ key: string; value: unknown }>;
    const ids = filters.find((f) => f.key === 'resource.ids')?.value as string[] | undefined;
    const matching = all.filter((r) => body.kind_id === KIND && (!ids || ids.includes(r.id)));
    const pagination = (body.pagination ?? { limit: null, next_token: null }) as {
      limit: number | null;
      next_token: string | null;
    };
    const start = pagination.next_token === null ? 0 : Number(pagination.next_token);
    const end = pagination.limit === null ? matching.length : start + pagination.limit;
    const data = matching.slice(start, end).map((r) => ({
      ...r,
      picture: { shape: 'round', initial: 'R', url: 'https://pictures.example.invalid/r.png' },
      attributes: Object.fromEntries(
        Object.entries(r.attributes).filter(([k]) => ((body.attributes ?? []) as string[]).includes(k)),
      ),
      ...(body.with_teams ? { teams: [] } : {}),
      ...(body.with_relations ? { relations: [] } : {}),
    }));
    const full = pagination.limit !== null && data.length === pagination.limit;
    json(res, 200, {
      data,
      next_token: full ? String(end) : null,
      ...(body.with_total_count ? { total_count: matching.length, total_count_approximate: false } : {}),
    });
  };
}

async function verdictsAgainst(count: number, withAttributes: boolean, ids: readonly string[]) {
  const server = await startTestServer(thinDirectory(count, withAttributes));
  try {
    const groups = CATALOGUE.map((g) => ({ ...g, rules: g.rules.filter((r) => ids.includes(r.id)) })).filter(
      (g) => g.rules.length > 0,
    );
    const run = await runRules(
      groups,
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: 'main-key', profile: PROFILE },
      { ...DEFAULT_ENGINE_OPTIONS, readOnly: true },
    );
    return new Map(run.results.map((r) => [r.ruleId, r]));
  } finally {
    await server.close();
  }
}

function expectSkipped(results: Map<string, RuleResult>, id: string, reason: RegExp): void {
  const result = results.get(id);
  expect(result, `${id} ran`).toBeDefined();
  expect({ id, verdict: result!.verdict, reason: result!.reason }).toMatchObject({ verdict: 'SKIP', reason });
}

describe('an empty directory: every rule that reads its data SKIPs', () => {
  const cases: Array<[string, RegExp]> = [
    ['show-teams.response-shape', /no profile resource read has a team assignation/],
    ['show-activity-rates.response-shape', /no profile resource has an activity rate period/],
    ['show-activity-rates.average-rate-integer', /no profile resource read has an activity rate period/],
    ['list-roles.association-shape', /no role association/],
    ['list-roles.restricted-sees-subset', /hold no role/],
    ['list.orders-ascending', /page\(s\) holding resources/],
    ['list.with-teams', /page\(s\) holding resources/],
    ['list.with-relations', /page\(s\) holding resources/],
    ['list.attributes-returned', /page\(s\) holding resources/],
    ['list.total-count-only-when-asked', /page\(s\) holding resources/],
    ['list.resource-shape', /page\(s\) holding resources/],
    ['list.resources-of-the-kind', /page\(s\) holding resources/],
    ['list.counts-agree', /no resource to count/],
    ['list.total-count-of-filtered-set', /fewer than 7 resources/],
    ['pagination.limit-respected', /no more than 1 resources/],
    ['list.filters-all-applied', /no resource of the listed kind has a text value/],
    ['list.several-orders-stable', /fewer than six of the first resources/],
    ['pagination.each-resource-once', /no walk ended after two pages or more/],
  ];
  let results: Map<string, RuleResult>;
  beforeAll(async () => {
    results = await verdictsAgainst(
      0,
      true,
      cases.map(([id]) => id),
    );
  });
  for (const [id, reason] of cases) test(id, () => expectSkipped(results, id, reason));
});

describe('a directory of four resources: rules about every page SKIP (fewer than three pages)', () => {
  const ids = [
    'list.with-teams',
    'list.with-relations',
    'list.attributes-returned',
    'list.total-count-only-when-asked',
    'list.resource-shape',
    'list.resources-of-the-kind',
    'list.orders-ascending',
  ];
  let results: Map<string, RuleResult>;
  beforeAll(async () => {
    results = await verdictsAgainst(4, true, ids);
  });
  for (const id of ids) test(id, () => expectSkipped(results, id, /gave 1 page\(s\) holding resources: 3 are needed/));
});

describe('resources without the sort attribute', () => {
  test('list.orders-ascending SKIPs: no order to judge', async () => {
    const results = await verdictsAgainst(60, false, ['list.orders-ascending']);
    expectSkipped(results, 'list.orders-ascending', /fewer than two resources carry last_name/);
  });

  test('several filters and orders SKIP: no text to filter on, no ties to order', async () => {
    const results = await verdictsAgainst(60, false, ['list.filters-all-applied', 'list.several-orders-stable']);
    expectSkipped(results, 'list.filters-all-applied', /no resource of the listed kind has a text value/);
    expectSkipped(results, 'list.several-orders-stable', /fewer than six of the first resources/);
  });
});

describe('list-roles.restricted-sees-subset with the main key as the restricted key', () => {
  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  beforeAll(async () => {
    server = await startReferenceServer({ timing: embeddedTiming(), resources: 40 });
  });
  afterAll(async () => {
    await server.close();
  });
  const verdict = async (hidden: string[]) => {
    const groups = CATALOGUE.map((g) => ({
      ...g,
      rules: g.rules.filter((r) => r.id === 'list-roles.restricted-sees-subset'),
    })).filter((g) => g.rules.length > 0);
    const profile = { ...server.profile, restrictedApiKey: server.apiKey, restrictedHiddenRoleIds: hidden };
    const run = await runRules(
      groups,
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile, timing: server.timing },
      DEFAULT_ENGINE_OPTIONS,
    );
    return run.results[0]!;
  };

  test('SKIPs when the profile declares no hidden role: nothing to show a filter', async () => {
    expect(await verdict([])).toMatchObject({
      verdict: 'SKIP',
      reason: expect.stringMatching(/restrictedHiddenRoleIds/),
    });
  });

  test('FAILs when it declares one: the key sees what it may not', async () => {
    const hidden = server.profile.restrictedHiddenRoleIds!;
    expect(hidden.length).toBeGreaterThan(0);
    expect((await verdict(hidden)).verdict).toBe('FAIL');
  });
});
