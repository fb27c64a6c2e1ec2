/**
 * The TypeScript type of a value that passed a JSON Schema, computed from the
 * schema itself: the same definitions ajv compiles give the types checks work
 * with, so the two can never drift. Covers the keywords src/schemas uses:
 * $ref to a definition, anyOf and oneOf, if/then/else (either branch), const,
 * enum, type (one or several), object
 * properties with required, array items, a record's additionalProperties
 * schema. Other keywords (format, pattern, minItems, not…) narrow values, not
 * types, and are ignored here.
 */
export type FromSchema<S, Defs> = S extends { readonly $ref: `#/definitions/${infer Name}` }
  ? Name extends keyof Defs
    ? FromSchema<Defs[Name], Defs>
    : unknown
  : S extends { readonly anyOf: readonly (infer Branch)[] } | { readonly oneOf: readonly (infer Branch)[] }
    ? FromSchema<Branch, Defs>
    : S extends { readonly then: infer Then; readonly else: infer Else }
      ? FromSchema<Then, Defs> | FromSchema<Else, Defs>
      : S extends { readonly const: infer C }
        ? C
        : S extends { readonly enum: readonly (infer E)[] }
          ? E
          : S extends { readonly type: infer T }
            ? FromTypes<T extends readonly (infer One)[] ? One : T, S, Defs>
            : unknown;

type FromTypes<T, S, Defs> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer Items }
            ? FromSchema<Items, Defs>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, Defs>
            : unknown;

type Required<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/**
 * Records accept properties the spec does not list, but a check reads only
 * what the schema names; a schema that says `additionalProperties: true`
 * (a record checked elsewhere, such as each Resource of a list page) lets a
 * check read other fields, as unknown.
 */
type Extra<S> = S extends { readonly additionalProperties: true } ? { readonly [key: string]: unknown } : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<S, Defs> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends Required<S> ? K : never]: FromSchema<P[K], Defs> } & {
        -readonly [K in keyof P as K extends Required<S> ? never : K]?: FromSchema<P[K], Defs>;
      }
    > &
      Extra<S>
  : S extends { readonly additionalProperties: infer Each extends object }
    ? { [key: string]: FromSchema<Each, Defs> }
    : { [key: string]: unknown };

type Defaulted<P> = { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P];

/**
 * The object a schema describes once its defaults are applied: a property
 * that is required, has a `default`, or is named in `Filled` (a default
 * computed when the object is built) is always present.
 */
export type WithDefaults<S, Defs, Filled extends string = never> = S extends { readonly properties: infer P }
  ? Simplify<
      {
        -readonly [K in keyof P as K extends Required<S> | Defaulted<P> | Filled ? K : never]-?: FromSchema<P[K], Defs>;
      } & {
        -readonly [K in keyof P as K extends Required<S> | Defaulted<P> | Filled ? never : K]?: FromSchema<P[K], Defs>;
      }
    >
  : never;
