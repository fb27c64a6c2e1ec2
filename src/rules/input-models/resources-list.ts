/**
 * The input space of resources.list (§4.8, §4.9), derived from the JSON
 * Schema of its request (ListRequest in src/schemas/definitions.ts): each
 * field the schema declares becomes a factor whose value classes follow its
 * type (a boolean: true, false, omitted; a nullable one: null too; an enum:
 * each value; an array of strings: none, one, several; the pagination
 * object: its limit). The ids filter's list is as listed, reversed or long
 * (a hundred ids, where the target lists that many of the kind: a row it
 * cannot fill is not judged, and the coverage says so). Where the schema says less than the spec's tables
 * (filters and orders are arrays of objects whose keys are strings), the
 * documented shapes of §4.8 give the classes. Classes this target's profile
 * cannot serve are left out, each with why.
 */
import { clockChangeDays } from '../../core/clock-changes.ts';
import { DEFINITIONS } from '../../schemas/definitions.ts';
import type { CoveringFactor } from '../../arbitraries/index.ts';
import type { TargetProfile } from '../../target/profile.ts';
import {
  FROM,
  NOT_SENT,
  OMITTED,
  servableFactors,
  type FixedField,
  type InputModel,
  type Unservable,
} from './model.ts';

export { NOT_SENT, OMITTED } from './model.ts';
export type { FixedField, InputModel, Unservable } from './model.ts';

/** Text the caller supplies in a starts_with filter: one class from the target's data, and non-ASCII ones. */
export const TEXT_VALUES = {
  'ascii from the data': undefined,
  accents: 'Éloï',
  'sharp s': 'Straß',
  CJK: '王小',
  emoji: '😀',
} as const;

/** §4.8 "Filter shapes" and "Order shape": what the schema's arrays of objects hold. */
const DOCUMENTED_ARRAYS: Record<string, readonly string[]> = {
  filters: ['none', 'resource.ids', 'resource.text', 'resource.ids and resource.text'],
  orders: ['none', 'one', 'two'],
};
/** Classes of `pagination.limit` (an integer or null; its maximum is not shown). */
export const LIMIT_CLASSES = ['1', 'small', 'large', 'null'] as const;
/**
 * Classes of a LocalDate: omitted, 29 February (a leap day and a month's
 * end), the first day clocks change that year in the profile's zones (read
 * from the time-zone database, core/clock-changes.ts; a zone without clock
 * changes: the default zones'), and the first day a 32-bit count of seconds
 * since 1970 cannot reach.
 */
export function dateClasses(zones?: readonly string[]): Readonly<Record<string, string>> {
  return {
    '29 February': '2024-02-29',
    'a day clocks change': clockChangeDays([2024], zones)[0] ?? clockChangeDays([2024])[0] ?? '2024-03-10',
    'past 2038-01-19': '2038-01-20',
  };
}

/** The classes' names (the days depend on the profile's zones). */
const DATE_CLASSES = dateClasses();

type SchemaNode = Record<string, unknown>;
const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The classes a property's schema gives, or undefined when the walk does not know its shape. */
function classesOf(name: string, schema: SchemaNode): string[] | undefined {
  const type = schema.type;
  if (Array.isArray(schema.enum)) return [OMITTED, ...schema.enum.map(String)];
  if (type === 'boolean') return [OMITTED, 'true', 'false'];
  if (Array.isArray(type) && type.includes('boolean') && type.includes('null'))
    return [OMITTED, 'true', 'false', 'null'];
  if (schema.$ref === '#/definitions/LocalDate') return [OMITTED, ...Object.keys(DATE_CLASSES)];
  if (type === 'array' && isNode(schema.items)) {
    if (schema.items.type === 'string') return [OMITTED, 'one', 'several'];
    if (schema.items.type === 'object') return DOCUMENTED_ARRAYS[name] ? [...DOCUMENTED_ARRAYS[name]] : undefined;
  }
  if (name === 'pagination' && type === 'object' && isNode(schema.properties) && isNode(schema.properties.limit)) {
    return [...LIMIT_CLASSES];
  }
  return undefined;
}

/** Where the classes of the list request's fields come from, where not from its schema alone. */
const LIST_SOURCES: Readonly<Record<string, string>> = {
  at_date: FROM.calendar,
  attributes: FROM.attributes,
  pagination: FROM.limit,
};

/** Factor names as requests and reports show them. */
export const FACTOR = {
  /** The ids filter's list: as listed, reversed, or long (a hundred ids, the rows' own last). */
  idsOrder: 'filters: resource.ids list',
  textValue: 'filters: resource.text value',
  limit: 'pagination.limit',
} as const;

export function listInputModel(profile: TargetProfile): InputModel {
  const request = DEFINITIONS.ListRequest;
  const required = new Set<string>(request.required);
  const factors: CoveringFactor[] = [];
  const sources: Record<string, string> = {};
  const fixed: FixedField[] = [];
  for (const [name, schema] of Object.entries(request.properties)) {
    if (required.has(name)) {
      fixed.push({ field: name, why: 'required: the kind the profile lists' });
      continue;
    }
    const classes = classesOf(name, schema);
    if (classes === undefined) throw new Error(`the input model has no classes for ListRequest.${name}`);
    const factor = name === 'pagination' ? FACTOR.limit : name;
    factors.push({ name: factor, classes });
    sources[factor] = LIST_SOURCES[name] ?? FROM.schema;
    if (name === 'filters') {
      factors.push({ name: FACTOR.idsOrder, classes: [NOT_SENT, 'as listed', 'reversed', 'long'] });
      factors.push({ name: FACTOR.textValue, classes: [NOT_SENT, ...Object.keys(TEXT_VALUES)] });
      sources[FACTOR.idsOrder] = FROM.listIds;
      sources[FACTOR.textValue] = FROM.listText;
    }
  }
  fixed.push({ field: 'pagination.next_token', why: 'null, then each next_token of the walk (§4.9 rules 1-2)' });
  fixed.push({
    field: 'pagination (omitted)',
    why: 'what a list without it returns is not described (list.without-pagination observes it)',
  });

  const unservable: Unservable[] = [];
  const drop = (factor: string, cls: string, why: string): void => {
    unservable.push({ factor, class: cls, why });
  };
  const attributes = [
    ...new Set([...(profile.sortAttribute ? [profile.sortAttribute] : []), ...(profile.attributes ?? [])]),
  ];
  if (!profile.sortAttribute) {
    const why = 'the target profile names no sortAttribute to filter and order on';
    drop('filters', 'resource.text', why);
    drop('filters', 'resource.ids and resource.text', why);
    drop('orders', 'one', why);
    drop('orders', 'two', why);
    for (const value of Object.keys(TEXT_VALUES)) drop(FACTOR.textValue, value, why);
  } else if (attributes.length < 2) {
    drop('orders', 'two', 'the target profile names no second attribute (attributes) to order on');
  }
  if (attributes.length === 0) drop('attributes', 'one', 'the target profile names no attribute its resources carry');
  if (attributes.length < 2) drop('attributes', 'several', 'the target profile names fewer than two attributes');
  const servable = servableFactors(factors, unservable);
  const at = (name: string): number => servable.findIndex((f) => f.name === name);
  const filters = at('filters');
  const idsOrder = at(FACTOR.idsOrder);
  const textValue = at(FACTOR.textValue);
  return {
    operation: 'resources.list',
    factors: servable,
    sources,
    unservable,
    fixed,
    allowed(row) {
      const filter = row[filters];
      if (filter === undefined) return true;
      const ids = filter.includes('resource.ids');
      const text = filter.includes('resource.text');
      const order = row[idsOrder];
      const value = row[textValue];
      return (
        (order === undefined || (order === NOT_SENT) !== ids) && (value === undefined || (value === NOT_SENT) !== text)
      );
    },
  };
}
