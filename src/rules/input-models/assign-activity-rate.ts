/**
 * The input space of resources.assign-activity-rate (§4.2), derived from its
 * request schema (src/schemas/definitions.ts): the resource and the range
 * is held fixed (a resource the rule holds); the range is a week of the
 * row's own inside one of its periods (starting the day after the row
 * before's week ends: touching the period that row made), or exactly the
 * range of a period the resource holds (the one the last row done made), so
 * that each row's period is read alone; a
 * Snowflake-or-null is omitted, null (the sector's regime) or each work
 * regime of the profile; a boolean is true, false or omitted; the rate is a
 * whole or a fractional value (always sent, see RATE_CLASSES); an array of patterns is omitted (the rate
 * spread evenly), one week or several (up to four); a string the caller
 * supplies is omitted, ASCII or non-ASCII text (accents, ß, CJK, emoji).
 * Every field may be omitted: which are required is not shown (§4.2 rule 3).
 */
import { DEFINITIONS } from '../../schemas/definitions.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import type { CoveringFactor } from '../../arbitraries/index.ts';
import { BOOLEAN_CLASSES } from './reads.ts';
import { FROM, OMITTED, type FixedField, type InputModelOf } from './model.ts';

/**
 * The rate is sent in every row: a server that requires it (which fields are
 * required is not shown) refuses a row without it, and the refusal would mask
 * every other class of that row.
 */
export const RATE_CLASSES = ['whole', 'fraction'] as const;
export const PATTERN_CLASSES = [OMITTED, 'one week', 'several weeks'] as const;
export const TEXT_CLASSES = [OMITTED, 'ascii', 'non-ascii'] as const;
/**
 * Where a row's range lies against the resource's own periods: a week of its
 * own, touching the period the row before made, or exactly the range of a
 * period the resource holds (a server may take an existing range for an
 * update of that period rather than a new assignment over it).
 */
export const RANGE_CLASSES = ['a week of its own', 'exactly an existing period'] as const;
export const [OWN_WEEK, EXISTING_PERIOD] = RANGE_CLASSES;
/** The class of a work regime of the profile: its place in the profile's list. */
export const regimeClass = (index: number): string => `regime ${index + 1}`;

type SchemaNode = Record<string, unknown>;
const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const SNOWFLAKE = '#/definitions/Snowflake';

export const assignActivityRateInputModel: InputModelOf = (profile) => {
  const request: SchemaNode = DEFINITIONS[OPERATION_REQUESTS['resources.assign-activity-rate']];
  const properties = isNode(request.properties) ? request.properties : {};
  const regimes = (profile.workRegimeIds ?? []).map((_, i) => regimeClass(i));
  const factors: CoveringFactor[] = [];
  const sources: Record<string, string> = {};
  const fixed: FixedField[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isNode(schema)) throw new Error(`the input model cannot read assign-activity-rate.${name}`);
    const anyOf = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isNode) : [];
    if (schema.$ref === SNOWFLAKE) {
      fixed.push({ field: name, why: 'a resource the rule holds, restored after the rows' });
    } else if (schema.$ref === '#/definitions/DateRange') {
      factors.push({ name, classes: [...RANGE_CLASSES] });
      sources[name] = FROM.ownRange;
    } else if (anyOf.some((s) => s.$ref === SNOWFLAKE) && anyOf.some((s) => s.type === 'null')) {
      factors.push({ name, classes: [OMITTED, 'null', ...regimes] });
      sources[name] = FROM.profile;
    } else if (schema.type === 'boolean') {
      factors.push({ name, classes: [...BOOLEAN_CLASSES] });
      sources[name] = FROM.schema;
    } else if (schema.type === 'number') {
      factors.push({ name, classes: [...RATE_CLASSES] });
      sources[name] = FROM.schema;
      fixed.push({
        field: `${name} (omitted)`,
        why: 'sent in every row: a row refused for lacking it would mask its other classes',
      });
    } else if (schema.type === 'array') {
      factors.push({ name, classes: [...PATTERN_CLASSES] });
      sources[name] = FROM.schema;
    } else if (schema.type === 'string') {
      factors.push({ name, classes: [...TEXT_CLASSES] });
      sources[name] = FROM.text;
    } else {
      throw new Error(`the input model has no classes for assign-activity-rate.${name}`);
    }
  }
  return {
    operation: 'resources.assign-activity-rate',
    factors,
    sources,
    unservable:
      regimes.length === 0
        ? [{ factor: 'work_regime_id', class: 'regime 1', why: 'the target profile names no work regime' }]
        : [],
    fixed,
    allowed: () => true,
  };
};
