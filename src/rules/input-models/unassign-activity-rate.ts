/**
 * The input space of resources.unassign-activity-rate (§4.7), derived from
 * its request schema (src/schemas/definitions.ts): the resource is held fixed
 * (a resource the rule holds, restored after the rows); a DateRange is two
 * factors, where it lies against the resource's own periods and where its
 * ends fall on the calendar (date-ranges.ts). The range is always sent: an
 * unassignment without one might remove every period of the resource, and
 * what it does is not shown.
 */
import { DEFINITIONS } from '../../schemas/definitions.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import type { CoveringFactor } from '../../arbitraries/index.ts';
import { RANGE_ENDS, RANGE_POSITIONS } from './date-ranges.ts';
import { endsFactor } from './reads.ts';
import { FROM, type FixedField, type InputModelOf } from './model.ts';

type SchemaNode = Record<string, unknown>;
const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);

export const unassignActivityRateInputModel: InputModelOf = () => {
  const request: SchemaNode = DEFINITIONS[OPERATION_REQUESTS['resources.unassign-activity-rate']];
  const properties = isNode(request.properties) ? request.properties : {};
  const factors: CoveringFactor[] = [];
  const fixed: FixedField[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isNode(schema)) throw new Error(`the input model cannot read unassign-activity-rate.${name}`);
    if (schema.$ref === '#/definitions/Snowflake') {
      fixed.push({ field: name, why: 'a resource the rule holds, restored after the rows' });
    } else if (schema.$ref === '#/definitions/DateRange') {
      factors.push({ name, classes: [...RANGE_POSITIONS] });
      factors.push({ name: endsFactor(name), classes: [...RANGE_ENDS] });
      fixed.push({
        field: `${name} (omitted)`,
        why: 'always sent: an unassignment without a range might remove every period, and what it does is not shown',
      });
    } else {
      throw new Error(`the input model has no classes for unassign-activity-rate.${name}`);
    }
  }
  const sources = Object.fromEntries(
    factors.map((f) => [f.name, f.name.endsWith(endsFactor('')) ? FROM.calendar : FROM.ranges]),
  );
  return {
    operation: 'resources.unassign-activity-rate',
    factors,
    sources,
    unservable: [],
    fixed,
    allowed: () => true,
  };
};
