/**
 * The input space of the three reads other than resources.list (§4.4-4.6),
 * derived from their request schemas (src/schemas/definitions.ts): a single
 * Snowflake is the resource read (held fixed: one the run never changes,
 * chosen from the data); a list of Snowflakes is a factor whose classes are
 * the list's documented shapes (team_ids: one id, several, ids the resource
 * does not hold, disabled teams; resource_ids and role_ids: one, several (up
 * to three), several reversed; each list also long, a hundred ids, where the
 * profile names that many or, for resources, the target lists them); a boolean is true, false or omitted; a
 * DateRange is two factors: where it lies against the target's data and
 * where its ends fall on the calendar (date-ranges.ts). Every field may be
 * omitted: which are required, and what omitting one does, is not shown.
 */
import { DEFINITIONS } from '../../schemas/definitions.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import type { TargetProfile } from '../../target/profile.ts';
import type { CoveringFactor } from '../../arbitraries/index.ts';
import { RANGE_ENDS, RANGE_POSITIONS } from './date-ranges.ts';
import {
  FROM,
  LONG_LIST,
  NOT_SENT,
  OMITTED,
  servableFactors,
  type FixedField,
  type InputModel,
  type Unservable,
} from './model.ts';

export type ReadOperation = 'resources.show-teams' | 'resources.list-roles' | 'resources.show-activity-rates';

/** The classes of a list of team ids (a TeamList's array form, as show-teams takes it). */
export const TEAM_ID_CLASSES = [OMITTED, 'one', 'several', 'not held', 'disabled', 'long'] as const;
/** The classes of a list of resource or role ids. */
export const ID_LIST_CLASSES = [OMITTED, 'one', 'several', 'reversed', 'long'] as const;
export const BOOLEAN_CLASSES = [OMITTED, 'true', 'false'] as const;
/** The second factor of a DateRange field: where its ends fall. */
export const endsFactor = (field: string): string => `${field} ends`;

type SchemaNode = Record<string, unknown>;
const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const SNOWFLAKE = '#/definitions/Snowflake';

export function readInputModel(operation: ReadOperation, profile: TargetProfile): InputModel {
  const request: SchemaNode = DEFINITIONS[OPERATION_REQUESTS[operation]];
  const properties = isNode(request.properties) ? request.properties : {};
  const factors: CoveringFactor[] = [];
  const sources: Record<string, string> = {};
  const fixed: FixedField[] = [];
  const ranges: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isNode(schema)) throw new Error(`the input model cannot read ${operation}.${name}`);
    if (schema.$ref === SNOWFLAKE) {
      fixed.push({
        field: name,
        why: 'the resource read: one of the target’s that no rule changes, chosen from its data',
      });
    } else if (schema.$ref === '#/definitions/DateRange') {
      ranges.push(name);
      factors.push({ name, classes: [OMITTED, ...RANGE_POSITIONS] });
      factors.push({ name: endsFactor(name), classes: [NOT_SENT, ...RANGE_ENDS] });
      sources[name] = FROM.ranges;
      sources[endsFactor(name)] = FROM.calendar;
      fixed.push({
        field: `${name} (wide)`,
        why: 'the reads every row is judged against send 1900-01-01/2199-12-31',
      });
    } else if (schema.type === 'boolean') {
      factors.push({ name, classes: [...BOOLEAN_CLASSES] });
      sources[name] = FROM.schema;
    } else if (schema.type === 'array' && isNode(schema.items) && schema.items.$ref === SNOWFLAKE) {
      factors.push({ name, classes: name === 'team_ids' ? [...TEAM_ID_CLASSES] : [...ID_LIST_CLASSES] });
      sources[name] = FROM.idLists;
    } else {
      throw new Error(`the input model has no classes for ${operation}.${name}`);
    }
  }

  const unservable: Unservable[] = [];
  if (properties.team_ids !== undefined && !profile.teams.some((t) => !t.enabled)) {
    unservable.push({ factor: 'team_ids', class: 'disabled', why: 'the target profile names no disabled team' });
  }
  if (properties.role_ids !== undefined && profile.roles.length < 2) {
    for (const cls of ['several', 'reversed']) {
      unservable.push({ factor: 'role_ids', class: cls, why: 'the target profile names fewer than two roles' });
    }
  }
  // Teams and roles are the profile's: it names a hundred or it cannot be sent. Resources the target
  // lists: a target with fewer leaves the class's rows unjudged, and the coverage says so.
  const named = { team_ids: profile.teams.length, role_ids: profile.roles.length } as const;
  for (const [field, count] of Object.entries(named)) {
    if (properties[field] !== undefined && count < LONG_LIST) {
      unservable.push({
        factor: field,
        class: 'long',
        why: `the target profile names ${count} ${field === 'team_ids' ? 'team' : 'role'}${count === 1 ? '' : 's'}, fewer than ${LONG_LIST}`,
      });
    }
  }
  const servable = servableFactors(factors, unservable);
  const pairs = ranges.map((name) => [
    servable.findIndex((f) => f.name === name),
    servable.findIndex((f) => f.name === endsFactor(name)),
  ]);
  return {
    operation,
    factors: servable,
    sources,
    unservable,
    fixed,
    allowed(row) {
      // A range's ends are sent with the range, and only with it.
      return pairs.every(([range = -1, ends = -1]) => {
        const r = row[range];
        const e = row[ends];
        return r === undefined || e === undefined || (r === OMITTED) === (e === NOT_SENT);
      });
    },
  };
}
