/**
 * A starting profile read from a live target (`directory-conformance init`):
 * the user gives what no documented read reveals (the kinds, the sandbox
 * resources, and attribute names, since keys inside `attributes` are not
 * shown, §2.2); the documented reads give the rest. Every value the reads
 * could not settle is said in one line with how to fill it: a profile
 * mistake would otherwise come back as the server's FAILs.
 *
 * Only reads are sent, and few: a walk of at most `sampleSize` resources of
 * each kind (with their teams), list-roles of those resources with each key,
 * and show-teams and show-activity-rates of the sandbox resources.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import type { ApiResponse } from '../core/exchange.ts';
import { UsageError } from '../core/errors.ts';
import { errorMessage } from '../rules/assertions.ts';
import { isRecord } from '../rules/json-values.ts';
import { WIDE_RANGE } from '../rules/steps/assignations.ts';
import type { ProfileKind, ProfileResource, ProfileTeam, TargetProfile } from '../target/profile.ts';

export interface DiscoveryInput {
  /** Kind ids; the first is the one the pagination and list rules walk. */
  kinds: readonly string[];
  /** The sandbox: resources the suite may change. */
  mutable: readonly string[];
  /** Attribute names the user knows the listed kind's resources carry. */
  attributes: readonly string[];
  /** How many resources of each kind are read at most. */
  sampleSize: number;
}

export interface Discovery {
  profile: TargetProfile;
  /** One line per value the reads could not settle, each saying how to fill it. */
  toFill: string[];
}

interface Seen {
  /** Resource id → kind id, for every resource read. */
  kindOf: Map<string, string>;
  /** Team id → its name when a read gave one. */
  teams: Map<string, string | undefined>;
  /** Attribute names each listed resource carried unasked. */
  attributesUnasked: Set<string>;
}

/** A short line of an answer: its status and the server's own message. */
function answerOf(res: ApiResponse): string {
  const message = errorMessage(res)?.replace(/\s+/g, ' ').trim();
  return message ? `${res.status}: ${message.slice(0, 200)}` : String(res.status);
}

function ok(res: ApiResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

function records(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function noteTeam(seen: Seen, id: unknown, name: unknown): void {
  if (typeof id !== 'string') return;
  const known = seen.teams.get(id);
  seen.teams.set(id, known ?? (typeof name === 'string' ? name : undefined));
}

/** Walks up to `limit` resources of a kind, with their teams; a kind the target refuses is the user's mistake. */
async function walkKind(client: DirectoryClient, kindId: string, limit: number, seen: Seen): Promise<string[]> {
  const ids: string[] = [];
  let token: string | null = null;
  do {
    const res: ApiResponse = await client.post('resources.list', {
      kind_id: kindId,
      with_teams: true,
      pagination: { limit: Math.min(100, limit - ids.length), next_token: token },
    });
    if (!ok(res)) {
      if (ids.length > 0) break;
      throw new UsageError(
        `the target refused resources.list of kind ${kindId} (answered ${answerOf(res)}); check --kinds`,
      );
    }
    const body: Record<string, unknown> = isRecord(res.json) ? res.json : {};
    const data = records(body.data);
    for (const r of data) {
      if (typeof r.id !== 'string') continue;
      ids.push(r.id);
      seen.kindOf.set(r.id, kindId);
      for (const t of records(r.teams)) noteTeam(seen, t.id, t.name);
      if (isRecord(r.attributes)) for (const name of Object.keys(r.attributes)) seen.attributesUnasked.add(name);
    }
    token = typeof body.next_token === 'string' && data.length > 0 ? body.next_token : null;
  } while (token !== null && ids.length < limit);
  return ids;
}

/** The kind of each sandbox resource, looked up by a resource.ids filter on each kind given. */
async function kindsOfMutable(
  client: DirectoryClient,
  kinds: readonly string[],
  mutable: readonly string[],
  seen: Seen,
): Promise<ProfileResource[]> {
  const unknown = mutable.filter((id) => !seen.kindOf.has(id));
  for (const kindId of kinds) {
    if (unknown.length === 0) break;
    const res = await client.post('resources.list', {
      kind_id: kindId,
      with_teams: true,
      filters: [{ key: 'resource.ids', value: [...unknown] }],
      pagination: { limit: null, next_token: null },
    });
    if (!ok(res) || !isRecord(res.json)) continue;
    for (const r of records(res.json.data)) {
      if (typeof r.id !== 'string' || !unknown.includes(r.id)) continue;
      seen.kindOf.set(r.id, kindId);
      for (const t of records(r.teams)) noteTeam(seen, t.id, t.name);
    }
    unknown.splice(0, unknown.length, ...unknown.filter((id) => !seen.kindOf.has(id)));
  }
  if (unknown.length > 0) {
    throw new UsageError(
      `the target has no resource ${unknown.join(', ')} of the kinds given (looked up by a resource.ids filter on ` +
        `each); check --mutable and --kinds`,
    );
  }
  return mutable.map((id) => ({ id, kindId: seen.kindOf.get(id) ?? '' }));
}

interface Association {
  resourceId: string;
  roleId: string;
  teamIds: unknown;
}

/** list-roles of `ids`, a hundred at a time; undefined when the target did not answer with a list. */
async function rolesOf(client: DirectoryClient, ids: readonly string[]): Promise<Association[] | undefined> {
  const all: Association[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const res = await client.post('resources.list-roles', { resource_ids: ids.slice(i, i + 100) });
    if (!ok(res) || !Array.isArray(res.json)) return undefined;
    for (const a of records(res.json)) {
      if (typeof a.resource_id === 'string' && typeof a.role_id === 'string')
        all.push({ resourceId: a.resource_id, roleId: a.role_id, teamIds: a.team_ids });
    }
  }
  return all;
}

/** The role every read resource of the kind holds and no resource of another kind does (§4.1 rule 2), when one role is. */
function definingRole(kindId: string, associations: readonly Association[], seen: Seen): string[] {
  const ofKind = [...seen.kindOf].filter(([, k]) => k === kindId).map(([id]) => id);
  const held = (id: string): Set<string> =>
    new Set(associations.filter((a) => a.resourceId === id).map((a) => a.roleId));
  const [first, ...rest] = ofKind.map(held);
  if (!first) return [];
  const everywhere = [...first].filter((role) => rest.every((s) => s.has(role)));
  return everywhere.filter((role) =>
    associations.every((a) => a.roleId !== role || seen.kindOf.get(a.resourceId) === kindId),
  );
}

const REDACTABLE = {
  'resources.show-teams': ['regrouping', 'contract_number', 'external_id'],
  'resources.show-activity-rates': ['indemnity_enabled', 'compensation_enabled'],
} as const;

function isRedactedValue(value: unknown): boolean {
  return isRecord(value) && value.redacted === 'forbidden';
}

/** What the sandbox resources' assignations and rates show: teams, work regimes, and the fields the restricted key gets redacted. */
async function readSandbox(
  client: DirectoryClient,
  restricted: DirectoryClient | undefined,
  mutable: readonly string[],
  seen: Seen,
): Promise<{ workRegimeIds: string[]; redacted: string[]; redactableSeen: Set<string> }> {
  const workRegimes = new Set<string>();
  const redacted = new Set<string>();
  const redactableSeen = new Set<string>();
  for (const resource_id of mutable) {
    for (const operation of ['resources.show-teams', 'resources.show-activity-rates'] as const) {
      const res = await client.post(operation, { resource_id, date_range: WIDE_RANGE });
      if (!ok(res)) continue;
      for (const item of records(res.json)) {
        if (isRecord(item.team)) noteTeam(seen, item.team.id, item.team.name);
        if (isRecord(item.work_regime) && typeof item.work_regime.id === 'string') workRegimes.add(item.work_regime.id);
      }
      if (!restricted) continue;
      const answer = await restricted.post(operation, { resource_id, date_range: WIDE_RANGE });
      if (!ok(answer)) continue;
      for (const item of records(answer.json)) {
        for (const name of REDACTABLE[operation]) {
          if (!Object.hasOwn(item, name)) continue;
          redactableSeen.add(name);
          if (isRedactedValue(item[name])) redacted.add(name);
        }
      }
    }
  }
  return { workRegimeIds: [...workRegimes].sort(), redacted: [...redacted].sort(), redactableSeen };
}

/** The attribute names each resource of the listed kind carries when asked for, the given ones first. */
async function carriedAttributes(
  client: DirectoryClient,
  kindId: string,
  names: readonly string[],
  toFill: string[],
): Promise<string[]> {
  const carried: string[] = [];
  for (const name of names) {
    const res = await client.post('resources.list', {
      kind_id: kindId,
      attributes: [name],
      pagination: { limit: 50, next_token: null },
    });
    const data = ok(res) && isRecord(res.json) ? records(res.json.data) : [];
    if (!ok(res))
      toFill.push(`attributes: the target refused ${JSON.stringify(name)} (answered ${answerOf(res)}); left out`);
    else if (data.length > 0 && data.every((r) => isRecord(r.attributes) && Object.hasOwn(r.attributes, name)))
      carried.push(name);
    else
      toFill.push(
        `attributes: ${JSON.stringify(name)} is not carried by every resource listed when asked for; left out`,
      );
  }
  return carried;
}

/** Reads the target and writes what it found into a profile, with a line for each value still to fill. */
export async function discoverProfile(
  client: DirectoryClient,
  restricted: DirectoryClient | undefined,
  input: DiscoveryInput,
): Promise<Discovery> {
  const toFill: string[] = [];
  const seen: Seen = { kindOf: new Map(), teams: new Map(), attributesUnasked: new Set() };
  const [listKind] = input.kinds;
  if (listKind === undefined) throw new UsageError('init needs --kinds: at least one kind id, the listed one first');
  const sampled: string[] = [];
  for (const kindId of input.kinds) {
    const ids = await walkKind(client, kindId, input.sampleSize, seen);
    if (ids.length === 0) toFill.push(`kinds: kind ${kindId} lists no resource; no rule will find one of it`);
    sampled.push(...ids);
  }
  const mutableResources = await kindsOfMutable(client, input.kinds, input.mutable, seen);
  const readIds = [...new Set([...sampled, ...input.mutable])];

  const associations = await rolesOf(client, readIds);
  if (!associations) toFill.push('roles: list-roles did not answer with a list; add the roles your resources hold');
  const roleIds = [...new Set((associations ?? []).map((a) => a.roleId))].sort();
  for (const a of associations ?? [])
    if (Array.isArray(a.teamIds)) for (const t of a.teamIds) noteTeam(seen, t, undefined);

  const kinds: ProfileKind[] = input.kinds.map((id) => {
    const holds = (associations ?? []).some((a) => seen.kindOf.get(a.resourceId) === id);
    if (!holds) return { id, name: id, supportsRoles: false };
    const defining = definingRole(id, associations ?? [], seen);
    if (defining.length !== 1) {
      toFill.push(
        `kinds: kind ${id}'s definingRoleId (§4.1 rule 2) could not be told from the roles read ` +
          `(${defining.length === 0 ? 'no role is held by every resource of it alone' : `candidates ${defining.join(', ')}`}); ` +
          `set it to the role that defines the kind`,
      );
      return { id, name: id, supportsRoles: true };
    }
    return { id, name: id, supportsRoles: true, definingRoleId: defining[0] ?? '' };
  });
  const definedBy = new Map(kinds.flatMap((k) => (k.definingRoleId ? [[k.definingRoleId, k.id] as const] : [])));

  let restrictedHiddenRoleIds: string[] | undefined;
  if (restricted && associations) {
    const visible = await rolesOf(restricted, readIds);
    if (!visible) toFill.push('restrictedHiddenRoleIds: list-roles with the restricted key did not answer with a list');
    else {
      const shown = new Set(visible.map((a) => a.roleId));
      restrictedHiddenRoleIds = roleIds.filter((r) => !shown.has(r));
    }
  }

  const sandbox = await readSandbox(client, restricted, input.mutable, seen);
  if (restricted) {
    const unseen = Object.values(REDACTABLE)
      .flat()
      .filter((f) => !sandbox.redactableSeen.has(f));
    if (unseen.length > 0)
      toFill.push(
        `restrictedRedactedFields: no assignation or rate of the sandbox showed ${unseen.join(', ')} to the restricted ` +
          `key; add those it may not view`,
      );
  } else {
    toFill.push(
      'restrictedRedactedFields, restrictedHiddenRoleIds: no restricted key (DIRECTORY_RESTRICTED_API_KEY); ' +
        'the redaction rules will SKIP',
    );
  }
  if (sandbox.workRegimeIds.length === 0)
    toFill.push('workRegimeIds: no activity rate of the sandbox names a work regime; add the ids of work regimes');

  const names = [...new Set([...input.attributes, ...[...seen.attributesUnasked].sort()])];
  const attributes = await carriedAttributes(client, listKind, names, toFill);
  if (attributes.length === 0)
    toFill.push(
      'attributes, sortAttribute: none known (keys inside attributes are not shown, §2.2, and the target returns ' +
        'none unasked); give names with --attributes, the rules that sort or filter will SKIP until then',
    );

  const teams: ProfileTeam[] = [...seen.teams]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, name]) => ({ id, ...(name !== undefined ? { name } : {}), enabled: true }));
  toFill.push(
    `teams: ${teams.length} seen, each written enabled (no documented read tells a disabled team): set enabled ` +
      'false on the disabled ones and add every team no resource read holds or is assigned to',
  );
  toFill.push(
    'allowRoleRevocation: false; revocation cannot be undone by a documented operation, set it true to let the ' +
      'suite revoke roles on the sandbox resources',
  );

  const profile: TargetProfile = {
    name: 'written by directory-conformance init',
    kinds,
    roles: roleIds.map((id) => {
      const defines = definedBy.get(id);
      return defines ? { id, definesKindId: defines } : { id };
    }),
    teams,
    ...(sandbox.workRegimeIds.length > 0 ? { workRegimeIds: sandbox.workRegimeIds } : {}),
    listKindId: listKind,
    ...(attributes[0] !== undefined ? { sortAttribute: attributes[0], attributes } : {}),
    mutableResources,
    allowRoleRevocation: false,
    ...(restricted ? { restrictedRedactedFields: sandbox.redacted } : {}),
    ...(restrictedHiddenRoleIds ? { restrictedHiddenRoleIds } : {}),
  };
  return { profile, toFill };
}
