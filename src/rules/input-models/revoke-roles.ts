/**
 * The input space of resources.revoke-roles (§4.1), derived from its request
 * schema (src/schemas/definitions.ts): each list of Snowflakes is a factor of
 * its documented shapes (`resource_ids`: one resource or several, up to
 * three; `role_ids`: one role, several, or the kind-defining role beside
 * another), the order the id lists are sent in is one factor (as read, or
 * all reversed: the order of a list input never matters), and the TeamList is
 * omitted, `*` or each form of an explicit list against the teams the first
 * role named is held on (one of them, several, every one, a team it does not
 * hold, held and not held together, a disabled team). What a revocation does
 * depends on what it meets, so the scope the first role is held on (`*` or an
 * explicit list) is a factor too: the rows are drawn on the resources' roles
 * as last read.
 *
 * Revocations cannot be undone: the resources are the rule's for good, so
 * a list of a hundred resources (a hundred resources given up) is never sent.
 */
import { DEFINITIONS } from '../../schemas/definitions.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import { definesAKind, kindById, type TargetProfile } from '../../target/profile.ts';
import type { CoveringFactor } from '../../arbitraries/index.ts';
import {
  FROM,
  LONG_LIST,
  OMITTED,
  servableFactors,
  type FixedField,
  type InputModelOf,
  type Unservable,
} from './model.ts';

export const RESOURCE_CLASSES = ['one', 'several', 'long'] as const;
export const ROLE_CLASSES = ['one', 'several', 'with the kind-defining role', 'long'] as const;
export const TEAM_CLASSES = [
  OMITTED,
  '*',
  'one held',
  'several held',
  'every held',
  'not held',
  'held and not held',
  'disabled',
  'long',
] as const;
export const ORDER_CLASSES = ['as read', 'reversed'] as const;
export const HELD_ON_CLASSES = ['*', 'an explicit list'] as const;

/** The factors the rows read besides the request's own fields. */
export const ORDER = 'order of the id lists';
export const HELD_ON = 'scope the first role is held on';

/**
 * How many of the profile's mutable resources of role kinds the rule may
 * give up: a fifth of them, at most eight (the other revocation rules need
 * theirs, each for good).
 */
export function revocationPool(profile: TargetProfile): number {
  const roleResources = profile.mutableResources.filter((r) => kindById(profile, r.kindId)?.supportsRoles === true);
  return Math.min(8, Math.floor(roleResources.length / 5));
}

/** How many resources a row of `several` names: three where the pool allows. */
export const severalResources = (profile: TargetProfile): number => Math.min(3, revocationPool(profile));

type SchemaNode = Record<string, unknown>;
const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const SNOWFLAKE = '#/definitions/Snowflake';

export const revokeRolesInputModel: InputModelOf = (profile) => {
  const request: SchemaNode = DEFINITIONS[OPERATION_REQUESTS['resources.revoke-roles']];
  const properties = isNode(request.properties) ? request.properties : {};
  const factors: CoveringFactor[] = [];
  const fixed: FixedField[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isNode(schema)) throw new Error(`the input model cannot read revoke-roles.${name}`);
    const anyOf = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isNode) : [];
    const idList = schema.type === 'array' && isNode(schema.items) && schema.items.$ref === SNOWFLAKE;
    if (idList && name === 'resource_ids') factors.push({ name, classes: [...RESOURCE_CLASSES] });
    else if (idList && name === 'role_ids') factors.push({ name, classes: [...ROLE_CLASSES] });
    else if (anyOf.some((s) => s.const === '*')) factors.push({ name, classes: [...TEAM_CLASSES] });
    else throw new Error(`the input model has no classes for revoke-roles.${name}`);
  }
  factors.push({ name: ORDER, classes: [...ORDER_CLASSES] });
  factors.push({ name: HELD_ON, classes: [...HELD_ON_CLASSES] });
  fixed.push({
    field: 'resource_ids (which)',
    why: 'resources of role kinds the rule claims, up to a fifth of the profile’s (at most eight): a revocation cannot be undone',
  });

  const unservable: Unservable[] = [
    {
      factor: 'resource_ids',
      class: 'long',
      why: `${LONG_LIST} resources would be ${LONG_LIST} mutable resources given up for good: a revocation cannot be undone`,
    },
  ];
  const pool = revocationPool(profile);
  if (pool < 2) {
    unservable.push({
      factor: 'resource_ids',
      class: 'several',
      why: 'the target profile lists fewer than ten mutable resources of role kinds: the rule may give up one',
    });
  }
  const ordinary = profile.roles.filter((r) => !definesAKind(profile, r.id));
  if (ordinary.length < 2) {
    unservable.push({
      factor: 'role_ids',
      class: 'several',
      why: 'the target profile names fewer than two roles that define no kind',
    });
  }
  if (!profile.kinds.some((k) => k.supportsRoles && k.definingRoleId !== undefined)) {
    unservable.push({
      factor: 'role_ids',
      class: 'with the kind-defining role',
      why: 'the target profile names no kind-defining role',
    });
  }
  if (profile.roles.length < LONG_LIST) {
    unservable.push({
      factor: 'role_ids',
      class: 'long',
      why: `the target profile names ${profile.roles.length} role${profile.roles.length === 1 ? '' : 's'}, fewer than ${LONG_LIST}`,
    });
  }
  if (profile.teams.length < LONG_LIST) {
    unservable.push({
      factor: 'team_ids',
      class: 'long',
      why: `the target profile names ${profile.teams.length} team${profile.teams.length === 1 ? '' : 's'}, fewer than ${LONG_LIST}`,
    });
  }
  if (!profile.teams.some((t) => !t.enabled)) {
    unservable.push({ factor: 'team_ids', class: 'disabled', why: 'the target profile names no disabled team' });
  }
  const lists = (factor: string, classes: readonly string[]): boolean =>
    classes.some((c) => c !== 'one' && !unservable.some((u) => u.factor === factor && u.class === c));
  const manyResources = lists('resource_ids', RESOURCE_CLASSES);
  const manyRoles = lists('role_ids', ROLE_CLASSES);
  if (!manyResources && !manyRoles) {
    unservable.push({
      factor: ORDER,
      class: 'reversed',
      why: 'one resource and one role at a time: the lists reversed are the lists sent',
    });
  }
  const servable = servableFactors(factors, unservable);
  const at = (name: string): number => servable.findIndex((f) => f.name === name);
  const [resources, roles, teams, order, heldOn] = [
    at('resource_ids'),
    at('role_ids'),
    at('team_ids'),
    at(ORDER),
    at(HELD_ON),
  ];
  return {
    operation: 'resources.revoke-roles',
    factors: servable,
    sources: {
      resource_ids: FROM.revocations,
      role_ids: FROM.revocations,
      team_ids: FROM.revocations,
      [ORDER]: FROM.orderOfLists,
      [HELD_ON]: FROM.heldOn,
    },
    unservable,
    fixed,
    allowed(row) {
      const r = row[resources];
      const o = row[roles];
      const t = row[teams];
      const reversed = row[order] === 'reversed';
      const h = row[heldOn];
      // Removing a kind-defining role entirely is refused or ignored: which is not shown (§4.1 rule 2).
      if (o === 'with the kind-defining role' && t === OMITTED) return false;
      // A role on `*` holds every team: none is "not held".
      if (h === '*' && (t === 'not held' || t === 'held and not held')) return false;
      // Reversing lists of one resource and one role sends the same resources and roles (a list the
      // row leaves open is one when the profile gives it no other class).
      const oneResource = r === 'one' || (r === undefined && !manyResources);
      const oneRole = o === 'one' || (o === undefined && !manyRoles);
      if (reversed && oneResource && oneRole) return false;
      return true;
    },
  };
};
