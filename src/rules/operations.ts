/**
 * Typed steps over the documented operations, shared by the spec files and the
 * properties. Each step checks only what every rule relies on (success and the
 * §2 schema of the answer); the rules check their own clause.
 */
import type { ApiResponse, DirectoryClient } from '../client/directory-client.ts';
import { HarnessError } from '../core/errors.ts';
import { ConformanceFailure } from '../core/errors.ts';
import { expectBody, expectSuccess } from './expect.ts';

export interface ListBody {
  kind_id: string;
  pagination?: { limit: number | null; next_token: string | null };
  filters?: unknown[];
  orders?: unknown[];
  attributes?: string[];
  with_teams?: boolean;
  with_relations?: boolean | null;
  with_total_count?: boolean;
  counting_mode?: 'strict' | 'approximate';
  at_date?: string;
}

export interface ResourceItem {
  id: string;
  kind_id: string;
  attributes?: Record<string, unknown>;
  teams?: Array<{ id: string; head: boolean; name: string }>;
  relations?: unknown[];
}

export interface ListPage {
  data: ResourceItem[];
  next_token: string | null;
  total_count?: number;
  total_count_approximate?: boolean;
}

export interface RoleAssociation {
  resource_id: string;
  role_id: string;
  is_assigned: boolean;
  team_ids: '*' | string[];
}

export interface TeamAssignation {
  team: { id: string; name: string };
  head: boolean;
  date_range: string;
  regrouping: unknown;
  contract_number: unknown;
  external_id: unknown;
}

export interface ActivityRatePeriod {
  average_rate: number;
  date_range: string;
  activity_rate_patterns: Array<Record<string, number>>;
  work_regime: { id: string; weekly_worked_days: number };
  paid_hourly: boolean;
  apprentice: boolean;
  trainee: boolean;
  indemnity_enabled: unknown;
  compensation_enabled: unknown;
}

/**
 * The rule that owns each shared step: a departure in a step is charged to its
 * owner; other rules that need the step are SKIPped as blocked by it.
 */
export const OWNERS = {
  list: 'pagination.envelope',
  listRoles: 'list-roles.plain-array',
  roleAssociation: 'list-roles.association-shape',
  showTeams: 'show-teams.response-shape',
  showActivityRates: 'show-activity-rates.response-shape',
  revoke: 'revoke-roles.no-content',
  paging: 'pagination.each-resource-once',
  limit: 'pagination.limit-respected',
  idsFilter: 'list.ids-filter',
} as const;

function idsFilterOf(body: ListBody): Set<string> | undefined {
  for (const f of body.filters ?? []) {
    const filter = f as { key?: unknown; value?: unknown };
    if (filter.key === 'resource.ids' && Array.isArray(filter.value)) return new Set(filter.value as string[]);
  }
  return undefined;
}

export async function listPage(client: DirectoryClient, body: ListBody, step = 'resources.list'): Promise<ListPage> {
  const res = await client.post('resources.list', body);
  expectSuccess(res, step, [200], OWNERS.list);
  const page = expectBody(res, 'ListEnvelope', `${step}: response.body`, OWNERS.list) as ListPage;
  const limit = body.pagination?.limit;
  if (typeof limit === 'number' && page.data.length > limit) {
    throw new ConformanceFailure(
      [
        {
          where: `${step}: response.body.data`,
          message: `must hold at most limit (${limit}) entries`,
          expected: `<= ${limit}`,
          actual: page.data.length,
        },
      ],
      OWNERS.limit,
    );
  }
  const ids = idsFilterOf(body);
  const stray = ids ? page.data.filter((r) => !ids.has(r.id)) : [];
  if (stray.length > 0) {
    throw new ConformanceFailure(
      [
        {
          where: `${step}: response.body.data`,
          message: 'must hold only resources whose ids are in the resource.ids filter',
          expected: [...ids!],
          actual: stray.map((r) => r.id),
        },
      ],
      OWNERS.idsFilter,
    );
  }
  return page;
}

export interface PageThroughOptions {
  /** Guard against servers whose pages never end: more pages than this is a departure. */
  maxPages: number;
  /** Stop quietly after this many pages (a rule that only looks at the first pages). */
  stopAfterPages?: number;
  /** Called with every page, in order. */
  onPage?: (page: ListPage, index: number) => void;
}

/**
 * Follows §4.9: the first request carries next_token null, each following one
 * repeats it with only next_token replaced, and iteration stops on a null
 * token or an empty page. Memory stays bounded by the ids seen.
 *
 * A resource repeated across pages, a token that comes back, or pages that
 * never end are departures from §4.9 rules 1-3, charged to the rule that owns
 * them; returns the ids in the order they came.
 */
export async function pageThrough(
  client: DirectoryClient,
  body: ListBody,
  options: PageThroughOptions,
): Promise<string[]> {
  const limit = body.pagination?.limit ?? null;
  let token: string | null = null;
  const seenTokens = new Set<string>();
  const seenIds = new Map<string, number>();
  const order: string[] = [];
  const departure = (where: string, message: string, expected: unknown, actual: unknown): never => {
    throw new ConformanceFailure([{ where, message, expected, actual }], OWNERS.paging);
  };
  for (let index = 0; ; index++) {
    if (index >= options.maxPages) {
      departure(
        `limit ${limit}, page ${index + 1}`,
        'must end: next_token never null and data never empty',
        `at most ${options.maxPages} pages`,
        'more',
      );
    }
    const page = await listPage(
      client,
      { ...body, pagination: { limit, next_token: token } },
      `resources.list page ${index + 1}`,
    );
    for (const r of page.data) {
      const first = seenIds.get(r.id);
      if (first !== undefined) {
        departure(
          `limit ${limit}, page ${index + 1}`,
          'must not repeat a resource already returned on an earlier page',
          `resource ${r.id} once`,
          `again (first on page ${first + 1})`,
        );
      }
      seenIds.set(r.id, index);
      order.push(r.id);
    }
    options.onPage?.(page, index);
    if (page.next_token === null || page.data.length === 0) return order;
    if (options.stopAfterPages !== undefined && index + 1 >= options.stopAfterPages) return order;
    if (seenTokens.has(page.next_token)) {
      departure(
        `limit ${limit}, page ${index + 1}.next_token`,
        'must move forward: a next_token came back that was already followed',
        'a new token',
        page.next_token,
      );
    }
    seenTokens.add(page.next_token);
    token = page.next_token;
  }
}

export async function listRoles(
  client: DirectoryClient,
  body: { resource_ids?: string[]; role_ids?: string[] },
  step = 'resources.list-roles',
): Promise<RoleAssociation[]> {
  const res = await client.post('resources.list-roles', body);
  expectSuccess(res, step, [200], OWNERS.listRoles);
  if (!Array.isArray(res.json)) expectBody(res, 'RoleAssociationList', `${step}: response.body`, OWNERS.listRoles);
  return expectBody(res, 'RoleAssociationList', `${step}: response.body`, OWNERS.roleAssociation) as RoleAssociation[];
}

/** The association of one role of one resource that is assigned, if any. */
export async function roleOf(
  client: DirectoryClient,
  resourceId: string,
  roleId: string,
): Promise<RoleAssociation | undefined> {
  const all = await listRoles(client, { resource_ids: [resourceId], role_ids: [roleId] });
  return all.find((a) => a.resource_id === resourceId && a.role_id === roleId && a.is_assigned);
}

export async function showTeams(
  client: DirectoryClient,
  body: { resource_id: string; team_ids?: string[]; head?: boolean; date_range?: string },
  step = 'resources.show-teams',
): Promise<TeamAssignation[]> {
  const res = await client.post('resources.show-teams', body);
  expectSuccess(res, step, [200], OWNERS.showTeams);
  return expectBody(res, 'TeamAssignationList', `${step}: response.body`, OWNERS.showTeams) as TeamAssignation[];
}

export async function showActivityRates(
  client: DirectoryClient,
  body: { resource_id: string; date_range: string },
  step = 'resources.show-activity-rates',
): Promise<ActivityRatePeriod[]> {
  const res = await client.post('resources.show-activity-rates', body);
  expectSuccess(res, step, [200], OWNERS.showActivityRates);
  return expectBody(
    res,
    'ActivityRatePeriodList',
    `${step}: response.body`,
    OWNERS.showActivityRates,
  ) as ActivityRatePeriod[];
}

/** Text of a JSON error body's message, whatever field the server uses for it. */
export function errorMessage(res: ApiResponse): string | undefined {
  const body = res.json;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'detail', 'title', 'error', 'error_description']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>).message === 'string') {
      return (value as Record<string, string>).message;
    }
  }
  return undefined;
}

/** A precondition the target must meet for the rule to say anything (not a verdict on the rule). */
export function precondition(condition: unknown, message: string): asserts condition {
  if (!condition) throw new HarnessError('DC_ERR_PRECONDITION', message);
}
