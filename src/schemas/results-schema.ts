/**
 * The published JSON Schema of results.json (fixtures/results.schema.json):
 * the `ResultsJson` definition of files.ts with the definitions it refers to,
 * closed (no field the schema does not name), so a field the writer adds
 * without describing it here is caught: src/report/json.ts checks every
 * results.json against it before writing it. The readers (compare, merge,
 * expectations update, history) keep their own, open schemas: a newer file
 * with more fields still reads.
 */
import { Ajv } from 'ajv';
import { packagePath } from '../core/package-root.ts';
import { DEFINITIONS } from './definitions.ts';
import { FILE_DEFINITIONS, problemsOf } from './files.ts';

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** Where the schema is published (written by `npm run manifest`, checked by a test). */
export const RESULTS_SCHEMA_PATH = packagePath('fixtures', 'results.schema.json');

const ALL_DEFINITIONS: Readonly<Record<string, Json>> = { ...DEFINITIONS, ...FILE_DEFINITIONS };

export const RESULTS_SCHEMA: { readonly [key: string]: Json } = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'directory-conformance results.json',
  description:
    'Everything of one run (schemaVersion 1): the tool, the target, the options, the summary, and each rule’s result with the exchanges it made. Written by `run`, `merge` and `runConformance`.',
  ...closedObject(FILE_DEFINITIONS.ResultsJson),
  definitions: Object.fromEntries(
    referencedFrom(FILE_DEFINITIONS.ResultsJson).map((name) => [name, closed(ALL_DEFINITIONS[name] ?? {})]),
  ),
};

export function renderResultsSchema(): string {
  return `${JSON.stringify(RESULTS_SCHEMA, null, 2)}\n`;
}

const validate = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true }).compile(
  RESULTS_SCHEMA,
);

/** What is wrong with `value` as a results.json ("/path must …"), one entry per problem; none when it matches. */
export function resultsJsonProblems(value: unknown): string[] {
  return validate(value) ? [] : problemsOf(validate.errors ?? [], value);
}

/**
 * The schema with `additionalProperties: false` on every object schema that
 * names its properties and says nothing of others. What `not` and `if` test
 * is left as it is: closing it would change what it matches.
 */
function closed(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closed);
  return isRecord(schema) ? closedObject(schema) : schema;
}

function closedObject(schema: { readonly [key: string]: Json }): { [key: string]: Json } {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'not' || key === 'if' || key === 'const' || key === 'enum') out[key] = value;
    else if (key === 'properties' && isRecord(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closed(v)]));
    else out[key] = closed(value);
  }
  if (isRecord(schema.properties) && !('additionalProperties' in schema)) out.additionalProperties = false;
  return out;
}

/** Every definition `schema` refers to, directly or through other definitions, in the order first met. */
function referencedFrom(schema: Json): string[] {
  const found: string[] = [];
  const visit = (node: Json): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isRecord(node)) return;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/definitions/', '');
      if (!found.includes(name)) {
        found.push(name);
        visit(ALL_DEFINITIONS[name] ?? null);
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return found;
}

function isRecord(value: Json | undefined): value is { readonly [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
