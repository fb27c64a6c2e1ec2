/**
 * Every option of one run, as one JSON Schema: the CLI's flags, the
 * environment, a config file (`directory-conformance.config.json`) and
 * `runConformance` all parse into the object it describes, and the
 * TypeScript types below are derived from it (see from-schema.ts), so the
 * options cannot be written twice. fixtures/run-config.schema.json is this
 * schema as a file (a test keeps the two equal).
 *
 * Besides JSON Schema's own keywords, each option may carry annotations:
 * `flag` (its `run` flag), `env` (the environment variable read for it),
 * `file` (a path: in a config file, relative to that file's folder) and
 * `expected` (what a value must be, said when it is none of the choices).
 */
import { Ajv, type ErrorObject } from 'ajv';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';
import { packagePath } from '../core/package-root.ts';
import type { FromSchema, WithDefaults } from './from-schema.ts';

/** The longest delay a Node timer keeps (a longer one fires at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const int = <const Min extends number, const Max extends number>(minimum: Min, maximum: Max) =>
  ({ type: 'integer', minimum, maximum }) as const;
const TIMER = `an integer number of ms from 1 to ${MAX_TIMER_MS} (the longest timer Node keeps)`;
const strings = { type: 'array', items: { type: 'string' } } as const;

export const RUN_CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'directory-conformance run configuration',
  description:
    'Options of `directory-conformance run` and `runConformance`. Precedence: flags, then environment, then this file, then the defaults.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', description: 'The schema of this file, for editors.' },
    baseUrl: {
      type: 'string',
      flag: 'base-url',
      env: 'DIRECTORY_BASE_URL',
      description: 'The server under test; without it, the embedded reference server.',
    },
    apiKey: { type: 'string', flag: 'api-key', env: 'DIRECTORY_API_KEY', description: 'API key (prefer the env var).' },
    restrictedApiKey: {
      type: 'string',
      flag: 'restricted-api-key',
      env: 'DIRECTORY_RESTRICTED_API_KEY',
      description: 'A key with fewer permissions.',
    },
    profile: {
      anyOf: [{ type: 'string' }, { type: 'object' }],
      flag: 'profile',
      env: 'DIRECTORY_PROFILE',
      file: true,
      expected: 'a file path or a target profile object',
      description: 'The target profile (fixtures/target-profile.schema.json) or its path; required with baseUrl.',
    },
    serviceVersion: {
      type: 'string',
      default: '26.06.25',
      flag: 'service-version',
      env: 'DIRECTORY_SERVICE_VERSION',
      description: 'The Service-Version header.',
    },
    headers: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      flag: 'header',
      description:
        'Fixed extra request headers, each "Name: value", sent with every request to the target; the value of a credential-like header (authorization, token, key, secret, cookie…) is redacted from every report.',
    },
    proxy: {
      type: 'string',
      flag: 'proxy',
      description:
        'HTTP proxy for every request to the target (default against baseUrl: HTTPS_PROXY or HTTP_PROXY, as its scheme asks, unless NO_PROXY names its host).',
    },
    caCert: {
      type: 'string',
      flag: 'ca-cert',
      env: 'DIRECTORY_CA_CERT',
      file: true,
      description:
        "PEM file of CA certificates the target's (and the proxy's) TLS certificate may chain to, besides Node's own.",
    },
    allowMutations: {
      type: 'boolean',
      default: false,
      flag: 'allow-mutations',
      description:
        "Mutating rules run against baseUrl, on the profile's mutableResources only (always on for the embedded server).",
    },
    readOnly: {
      type: 'boolean',
      default: false,
      flag: 'read-only',
      description: 'Run only rules that do not change state.',
    },
    dryRun: {
      type: 'boolean',
      default: false,
      flag: 'dry-run',
      description: 'CLI only: print the plan, send nothing.',
    },
    strict: { type: 'boolean', default: false, flag: 'strict', description: 'INFERRED departures fail the run too.' },
    concurrency: { ...int(1, 1024), default: 4, flag: 'concurrency', description: 'Rules run side by side.' },
    rate: {
      anyOf: [{ const: 'auto' }, int(0, 1_000_000)],
      flag: 'rate',
      expected: '"auto" or an integer from 0 to 1000000',
      description:
        'Requests per second; 0: no cap; "auto": pace to the server (default against baseUrl; 0 against the embedded server).',
    },
    maxRequests: {
      ...int(1, Number.MAX_SAFE_INTEGER),
      // 0 is the engine's "no budget"; a budget given is at least one request, so 0 is never given by mistake.
      default: 0,
      expected: `an integer from 1 to ${Number.MAX_SAFE_INTEGER} (leave it out for no budget)`,
      flag: 'max-requests',
      description: 'Stop sending after this many requests (default: no budget); the rest is NOT-TESTED.',
    },
    maxTime: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,8}(ms|s|m|h)$',
      flag: 'max-time',
      expected: 'a duration: a whole number and a unit, such as 90s, 15m or 1h',
      description:
        'Stop sending once this much time has passed since the run started (default: no limit); the rest is NOT-TESTED.',
    },
    maxFailures: {
      ...int(1, 1_000_000),
      flag: 'max-failures',
      description: 'Fail fast: once this many rules FAILed, no rule starts any more (the rest is NOT-TESTED).',
    },
    requestTimeoutMs: {
      ...int(1, MAX_TIMER_MS),
      default: 15_000,
      expected: TIMER,
      flag: 'timeout',
      description: 'Deadline of one HTTP request, in ms.',
    },
    ruleTimeoutMs: {
      ...int(1, MAX_TIMER_MS),
      default: 120_000,
      expected: TIMER,
      flag: 'rule-timeout',
      description: 'Deadline of one rule, all its requests included, in ms.',
    },
    rules: { ...strings, default: [], flag: 'rule', description: 'Rule ids, or prefixes ending in *.' },
    sections: { ...strings, default: [], flag: 'section', description: 'Spec sections such as 4.9.' },
    levels: {
      type: 'array',
      items: { enum: ['MUST', 'INFERRED', 'OBSERVED'] },
      default: [],
      flag: 'level',
      description: 'Only rules of these levels.',
    },
    shard: {
      type: 'object',
      required: ['index', 'count'],
      additionalProperties: false,
      properties: { index: int(1, 10_000), count: int(1, 10_000) },
      flag: 'shard',
      description: 'Run shard index (1-based) of count: its share of the selection and of the mutable resources.',
    },
    seed: {
      ...int(-(2 ** 31), 2 ** 31 - 1),
      flag: 'seed',
      expected: 'a 32-bit integer, from -2147483648 to 2147483647',
      description: 'fast-check seed, a 32-bit integer (default: random, recorded in the reports).',
    },
    depth: {
      enum: ['quick', 'default', 'deep'],
      default: 'default',
      flag: 'depth',
      env: 'DIRECTORY_DEPTH',
      description:
        "How hard the run looks: quick (fewer property runs, each input class once), default (every pair of input classes), deep (every triple, more property runs). docs/performance.md: each depth's request count.",
    },
    numRuns: {
      ...int(1, 1_000_000),
      flag: 'num-runs',
      description: "Runs of every property (default: each its own, at the run's depth).",
    },
    maxCommands: {
      ...int(1, 1_000),
      flag: 'max-commands',
      description: 'Longest sequence of a model-based property (default: each its own).',
    },
    path: {
      type: 'string',
      pattern: '^\\d+(:\\d+)*$',
      flag: 'path',
      description: 'With seed: the fast-check path of one counterexample to replay.',
    },
    replayPath: {
      type: 'string',
      flag: 'replay-path',
      description: 'With path: the command sequence of a model-based counterexample.',
    },
    resources: {
      ...int(10, 1_000_000),
      default: 200,
      flag: 'resources',
      description: 'Embedded server only: size of the generated directory.',
    },
    faults: { ...strings, default: [], flag: 'fault', description: 'Embedded server only: named faults.' },
    variants: { ...strings, default: [], flag: 'variant', description: 'Embedded server only: conformant variants.' },
    reports: {
      type: 'string',
      flag: 'reports',
      file: true,
      description: 'Folder of every report (the CLI writes to reports by default; the API writes none without it).',
    },
    history: {
      type: 'string',
      flag: 'history',
      env: 'DIRECTORY_HISTORY',
      file: true,
      description:
        "Folder that keeps each run's results.json (named by time): the reports show every rule's last verdicts, its flips, since when it fails, and what changed since the last run.",
    },
    sign: {
      type: 'string',
      flag: 'sign',
      env: 'DIRECTORY_SIGN_KEY',
      file: true,
      description:
        'An Ed25519 private key (PEM): the run writes conformance-bundle.json beside its reports, its results and redacted exchanges signed, for `verify`.',
    },
    quiet: { type: 'boolean', default: false, flag: 'quiet', description: 'CLI only: no progress output.' },
    verbose: { type: 'boolean', default: false, flag: 'verbose', description: 'CLI only: one line per rule.' },
    expectations: {
      anyOf: [{ type: 'string' }, { type: 'object' }],
      flag: 'expectations',
      file: true,
      expected: 'a file path or an expectations object',
      description: 'Known failures of the target (gate mode): an expectations file or its content.',
    },
    waitLock: {
      type: 'boolean',
      default: false,
      flag: 'wait-lock',
      description: 'Wait while another run changes the same resources instead of refusing to start.',
    },
    minCoverage: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      expected: 'a percentage from 0 to 100 (80 or 80%)',
      flag: 'min-coverage',
      description: 'Percent of the selected rules the target can serve that must reach a verdict (default 100).',
    },
    failOnSkip: {
      type: 'boolean',
      default: false,
      flag: 'fail-on-skip',
      description: 'Any SKIP makes the run inconclusive.',
    },
  },
} as const;

type Schema = typeof RUN_CONFIG_SCHEMA;
export type RunOptionName = Exclude<keyof Schema['properties'], '$schema'>;

/** Run options as given (every one optional). */
export type RunConfigInput = FromSchema<Schema, object>;
/**
 * One run's complete configuration: every option with a default has its
 * value; `seed` (random) and `rate` (by target) are filled when resolved.
 */
export type RunConfig = WithDefaults<Schema, object, 'seed' | 'rate'>;

/** The defaults the schema states (`default`). */
export const RUN_CONFIG_DEFAULTS = {
  serviceVersion: RUN_CONFIG_SCHEMA.properties.serviceVersion.default,
  headers: [],
  allowMutations: RUN_CONFIG_SCHEMA.properties.allowMutations.default,
  readOnly: RUN_CONFIG_SCHEMA.properties.readOnly.default,
  dryRun: RUN_CONFIG_SCHEMA.properties.dryRun.default,
  strict: RUN_CONFIG_SCHEMA.properties.strict.default,
  concurrency: RUN_CONFIG_SCHEMA.properties.concurrency.default,
  maxRequests: RUN_CONFIG_SCHEMA.properties.maxRequests.default,
  requestTimeoutMs: RUN_CONFIG_SCHEMA.properties.requestTimeoutMs.default,
  ruleTimeoutMs: RUN_CONFIG_SCHEMA.properties.ruleTimeoutMs.default,
  depth: RUN_CONFIG_SCHEMA.properties.depth.default,
  rules: [],
  sections: [],
  levels: [],
  resources: RUN_CONFIG_SCHEMA.properties.resources.default,
  faults: [],
  variants: [],
  quiet: RUN_CONFIG_SCHEMA.properties.quiet.default,
  verbose: RUN_CONFIG_SCHEMA.properties.verbose.default,
  waitLock: RUN_CONFIG_SCHEMA.properties.waitLock.default,
  failOnSkip: RUN_CONFIG_SCHEMA.properties.failOnSkip.default,
} satisfies Omit<RunConfig, 'seed' | 'rate'>;

/** The schema as a file, for editors and other tools (written by `npm run manifest`, checked by a test). */
export const RUN_CONFIG_SCHEMA_PATH = packagePath('fixtures', 'run-config.schema.json');

export function renderRunConfigSchema(): string {
  return `${JSON.stringify(RUN_CONFIG_SCHEMA, null, 2)}\n`;
}

/** Where options came from, as messages name them: `--timeout`, `DIRECTORY_BASE_URL`, `cfg.json: /seed`. */
export interface OptionSource {
  /** Said first (a file's path, `runConformance`); none for flags and variables, whose names say it. */
  label?: string;
  /** The name of the value at this JSON pointer (`/shard/index`) in this source's own words. */
  name(pointer: string): string;
}

const ajv = new Ajv({ strict: true, allErrors: false, allowUnionTypes: true, verbose: true });
ajv.addVocabulary(['flag', 'env', 'file', 'expected']);
const validate = ajv.compile<RunConfigInput>(RUN_CONFIG_SCHEMA);

/** Each option's schema, by name, as plain records (for the annotations). */
export const RUN_OPTION_SCHEMAS: ReadonlyMap<string, Readonly<Record<string, unknown>>> = new Map(
  Object.entries(RUN_CONFIG_SCHEMA.properties),
);

/** An annotation of an option's schema (`flag`, `env`, `expected`), when it has one. */
export function annotation(option: string, key: 'flag' | 'env' | 'expected'): string | undefined {
  const value = RUN_OPTION_SCHEMAS.get(option)?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Checks run options from one source against the schema; the first problem
 * is a UsageError of one line naming the option in the source's words (an
 * unknown one with the known option it is closest to, if any).
 */
export function checkRunOptions(value: unknown, source: OptionSource): RunConfigInput {
  if (validate(value)) return value;
  // anyOf reports each branch before itself: the anyOf error is the one to say (with `expected`).
  const error = validate.errors?.find((e) => e.keyword === 'anyOf') ?? validate.errors?.[0];
  const prefix = source.label ? `${source.label}: ` : '';
  if (!error) throw new UsageError(`${prefix}not valid run options`);
  throw new UsageError(prefix + problemOf(error, value, source));
}

function problemOf(error: ErrorObject, root: unknown, source: OptionSource): string {
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    const pointer = `${error.instancePath}/${escapePointer(extra)}`;
    const near = error.instancePath === '' ? suggestOption(extra) : undefined;
    return `unknown option ${source.name(pointer)}${near ? ` (did you mean ${source.name(`/${near}`)}?)` : ''}`;
  }
  const name = source.name(error.instancePath);
  const got = JSON.stringify(valueAt(root, error.instancePath)) ?? 'nothing';
  const parent: unknown = error.parentSchema;
  const expected =
    parent !== null && typeof parent === 'object' && 'expected' in parent && typeof parent.expected === 'string'
      ? parent.expected
      : undefined;
  if (expected) return `${name} must be ${expected}, got ${got}`;
  const allowed: unknown = error.params.allowedValues;
  if (error.keyword === 'enum' && Array.isArray(allowed))
    return `${name} must be one of ${allowed.join(', ')}, got ${got}`;
  return `${name} ${error.message ?? 'is not valid'}, got ${got}`;
}

/** The option a misspelt key is closest to, by its own name or its flag's (`timeout` → requestTimeoutMs). */
function suggestOption(key: string): string | undefined {
  const byName = new Map<string, string>();
  for (const option of RUN_OPTION_SCHEMAS.keys()) {
    if (option === '$schema') continue;
    byName.set(option, option);
    const flag = annotation(option, 'flag');
    if (flag)
      byName.set(
        flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
        option,
      );
  }
  const near = closestName(key, [...byName.keys()]);
  return near === undefined ? undefined : byName.get(near);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const part of pointer.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = Object.entries(v).find(([k]) => k === part.replace(/~1/g, '/').replace(/~0/g, '~'))?.[1];
  }
  return v;
}
