import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Violation } from '../core/types.ts';
import { DEFINITIONS } from './definitions.ts';
import type { FromSchema } from './from-schema.ts';
import { isDateRange, isDuration, isLocalDate } from './formats.ts';

export { isDateRange, isDuration, isLocalDate, parseDateRange } from './formats.ts';

/** Every definition of src/schemas/definitions.ts. */
export type SchemaName = keyof typeof DEFINITIONS;

/** The TypeScript type of a value that matches the named schema (derived from it, see from-schema.ts). */
export type SchemaType<N extends SchemaName> = FromSchema<(typeof DEFINITIONS)[N], typeof DEFINITIONS>;

export type Snowflake = SchemaType<'Snowflake'>;
export type TeamList = SchemaType<'TeamList'>;
export type Redacted = SchemaType<'Redacted'>;
export type Resource = SchemaType<'Resource'>;
export type RoleAssociation = SchemaType<'RoleAssociation'>;
export type TeamAssignation = SchemaType<'TeamAssignation'>;
export type ActivityRatePattern = SchemaType<'ActivityRatePattern'>;
export type ActivityRatePeriod = SchemaType<'ActivityRatePeriod'>;
export type ListEnvelope = SchemaType<'ListEnvelope'>;
export type AssignTeamWarning = SchemaType<'AssignTeamWarning'>;
export type ListRequest = SchemaType<'ListRequest'>;
export type RevokeRolesRequest = SchemaType<'RevokeRolesRequest'>;
export type AssignActivityRateRequest = SchemaType<'AssignActivityRateRequest'>;
export type AssignTeamRequest = SchemaType<'AssignTeamRequest'>;
export type ShowTeamsRequest = SchemaType<'ShowTeamsRequest'>;
export type ShowActivityRatesRequest = SchemaType<'ShowActivityRatesRequest'>;
export type ListRolesRequest = SchemaType<'ListRolesRequest'>;
export type UnassignActivityRateRequest = SchemaType<'UnassignActivityRateRequest'>;

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
ajv.addFormat('local-date', { type: 'string', validate: isLocalDate });
ajv.addFormat('date-range', { type: 'string', validate: isDateRange });
ajv.addFormat('iso-duration', { type: 'string', validate: isDuration });
ajv.addSchema({ $id: 'directory', definitions: DEFINITIONS });

const compiled = new Map<SchemaName, ValidateFunction>();

function validatorOf(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    fn = ajv.getSchema(`directory#/definitions/${name}`);
    if (!fn) throw new Error(`unknown schema ${name}`);
    compiled.set(name, fn);
  }
  return fn;
}

/** True when `value` matches the named schema; narrows it to the schema's type. */
export function matchesSchema<N extends SchemaName>(name: N, value: unknown): value is SchemaType<N> {
  return validatorOf(name)(value);
}

/** Violations of a §2 schema, one per ajv error, with paths in JS notation. */
export function validateSchema(name: SchemaName, value: unknown, where = 'response.body'): Violation[] {
  const fn = validatorOf(name);
  if (fn(value)) return [];
  return pruneAnyOf(fn.errors ?? []).map((e) => ({
    where: where + jsPath(e.instancePath),
    message: e.message?.startsWith('must') ? e.message : `must ${e.message ?? 'match the schema'}`,
    expected: `${name}: ${e.keyword}${Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    actual: truncate(valueAt(value, e.instancePath)),
  }));
}

/** anyOf reports every branch; keep the summary error unless it is the only one at its path. */
function pruneAnyOf(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  return errors.filter((e) => e.keyword === 'anyOf' || !anyOfPaths.has(e.instancePath));
}

function jsPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');
}

/** The value at a JSON pointer (ajv's instancePath) of `root`; undefined when there is none. */
export function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const p of pointer.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

function truncate(v: unknown): unknown {
  const text = JSON.stringify(v);
  if (text === undefined || text.length <= 300) return v;
  return `${text.slice(0, 300)}…`;
}
