/**
 * An ordinary client of the directory, nothing of the suite: what an
 * application that lists, reads and changes resources sends, with `fetch`.
 * `npm run passive-power` runs it through the validating proxy against each
 * faulty server, to measure what the proxy catches from such traffic alone.
 *
 * With each key (the main one, then the restricted one): a full paged walk
 * with orders, attributes, teams, relations and a strict count; a walk
 * filtered on a text prefix; a walk filtered on ids, in
 * the collection's order and reversed; the show and list-roles reads. Then,
 * with the main key, one revocation and one activity-rate assignment, each
 * with the reads of what it changes before and after, by both keys.
 *
 * It is written as such a client is: it reads what it needs from answers and
 * carries on whatever a faulty server says (a walk stops at a page cap, an
 * answer that is no JSON is an empty one, a request that fails is skipped).
 */
import type { TargetProfile } from '../src/target/profile.ts';

/** Pages a walk follows at most: a server that never ends a walk does not keep the client for ever. */
const PAGE_CAP = 200;

const YEAR = '2026-01-01/2026-12-31';

interface Answer {
  status: number;
  json: unknown;
}

const get = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Reflect.get(value, key) : undefined;

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const ids = (page: unknown): string[] =>
  list(get(page, 'data')).flatMap((r) => {
    const id = get(r, 'id');
    return typeof id === 'string' ? [id] : [];
  });

/** An order on an attribute, as §4.8 shows one (`asc` is the direction the spec uses). */
const ordered = (attribute: string) => ({ key: 'resource.attribute', direction: 'asc', attribute });

export interface Keys {
  main: string;
  restricted: string | undefined;
}

export async function ordinaryClient(baseUrl: string, keys: Keys, profile: TargetProfile): Promise<void> {
  const send = async (key: string, operation: string, body: unknown): Promise<Answer> => {
    try {
      const res = await fetch(`${baseUrl}/api/directory/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json };
    } catch {
      return { status: 0, json: undefined };
    }
  };

  /** Every page of a walk, its resources' ids in the order they came. */
  const walk = async (key: string, request: Record<string, unknown>, limit: number): Promise<string[]> => {
    const seen: string[] = [];
    let token: unknown = null;
    for (let page = 0; page < PAGE_CAP; page++) {
      const answer = await send(key, 'resources.list', { ...request, pagination: { limit, next_token: token } });
      const found = ids(answer.json);
      seen.push(...found);
      token = get(answer.json, 'next_token');
      if (answer.status !== 200 || found.length === 0 || typeof token !== 'string') break;
    }
    return seen;
  };

  const kind = profile.listKindId ?? profile.kinds[0]?.id ?? '';
  const sort = profile.sortAttribute;
  const attributes = profile.attributes ?? [];
  const resource = profile.mutableResources[0]?.id ?? '';
  const both = [keys.main, ...(keys.restricted ? [keys.restricted] : [])];

  for (const key of both) {
    const whole = await walk(
      key,
      {
        kind_id: kind,
        ...(sort ? { orders: [ordered(sort)] } : {}),
        attributes,
        with_teams: true,
        with_relations: true,
        with_total_count: true,
        counting_mode: 'strict',
      },
      25,
    );
    if (sort) {
      const first = await send(key, 'resources.list', {
        kind_id: kind,
        attributes: [sort],
        pagination: { limit: 1, next_token: null },
      });
      const value = get(get(list(get(first.json, 'data'))[0], 'attributes'), sort);
      const prefix = typeof value === 'string' ? value.slice(0, 1) : '';
      if (prefix !== '') {
        await walk(
          key,
          {
            kind_id: kind,
            filters: [{ key: 'resource.text', value: { attribute: sort, operator: 'starts_with', value: prefix } }],
            orders: [ordered(sort)],
            attributes: [sort],
          },
          4,
        );
      }
    }
    const some = whole.slice(0, 9);
    if (some.length > 0) {
      for (const order of [some, [...some].reverse()]) {
        await walk(key, { kind_id: kind, filters: [{ key: 'resource.ids', value: order }], with_total_count: true }, 2);
      }
    }
    await send(key, 'resources.show-teams', { resource_id: resource, date_range: YEAR });
    await send(key, 'resources.show-teams', { resource_id: resource, head: true, date_range: YEAR });
    await send(key, 'resources.show-activity-rates', { resource_id: resource, date_range: YEAR });
    await send(key, 'resources.list-roles', { resource_ids: profile.mutableResources.map((r) => r.id) });
  }

  // One revocation, with the roles read before and after by both keys.
  const roleHolder = profile.mutableResources.find((r) => profile.kinds.find((k) => k.id === r.kindId)?.supportsRoles);
  if (roleHolder && profile.allowRoleRevocation) {
    const before = await send(keys.main, 'resources.list-roles', { resource_ids: [roleHolder.id] });
    if (keys.restricted) await send(keys.restricted, 'resources.list-roles', { resource_ids: [roleHolder.id] });
    const defining = new Set(profile.roles.flatMap((r) => (r.definesKindId ? [r.id] : [])));
    const role = list(before.json)
      .map((a) => get(a, 'role_id'))
      .find((id): id is string => typeof id === 'string' && !defining.has(id));
    if (role) {
      await send(keys.main, 'resources.revoke-roles', { resource_ids: [roleHolder.id], role_ids: [role] });
      for (const key of both) await send(key, 'resources.list-roles', { resource_ids: [roleHolder.id] });
    }
  }

  // One activity-rate assignment, with the rates read before and after by both keys.
  const week = '2026-03-02/2026-03-06';
  for (const key of both) await send(key, 'resources.show-activity-rates', { resource_id: resource, date_range: YEAR });
  const rate = 60;
  await send(keys.main, 'resources.assign-activity-rate', {
    resource_id: resource,
    date_range: week,
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
  for (const key of both) await send(key, 'resources.show-activity-rates', { resource_id: resource, date_range: YEAR });
}
