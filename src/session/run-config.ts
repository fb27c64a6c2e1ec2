/**
 * One run's configuration from wherever it is given: `run`'s flags, the
 * environment, a config file and `runConformance`'s options are each checked
 * against the one schema (src/schemas/run-config.ts), then merged, the first
 * that gives an option winning: flags, then environment, then the config
 * file, then the defaults. What depends on more than one option (a base URL
 * needs a profile; faults only for the embedded server) is checked here once,
 * so the CLI and the API refuse the same mistakes in the same words.
 */
import { randomInt } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { FAULTS, isFaultName } from '../reference-server/faults.ts';
import { VARIANTS, isVariantName } from '../reference-server/variants.ts';
import {
  RUN_CONFIG_DEFAULTS,
  RUN_CONFIG_SCHEMA,
  RUN_OPTION_SCHEMAS,
  annotation,
  checkRunOptions,
  type RunConfig,
  type RunConfigInput,
} from '../schemas/run-config.ts';
import { checkProxyUrl, parseHeaders, proxyFromEnv, readCaCerts } from './connection-options.ts';
import { checkBaseUrl, parseShard } from './run-session.ts';

/** The config file read from the working folder when `--config` does not name one. */
export const CONFIG_FILE_NAME = 'directory-conformance.config.json';

export interface RunConfigSources {
  /** `run`'s flags as node:util parseArgs gives them, by flag name. */
  flags?: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  env?: NodeJS.ProcessEnv;
  /** A config file: the one `--config` names (it must exist), or the default one, read when present. */
  configFile?: { path: string; required: boolean };
  /** `runConformance`'s options. */
  api?: unknown;
  /** The caller's own defaults beyond the schema's (the CLI writes its reports to `reports`). */
  defaults?: RunConfigInput;
}

/** The complete configuration of one run, every default applied, or a one-line UsageError. */
export async function resolveRunConfig(sources: RunConfigSources): Promise<RunConfig> {
  const fromFile = sources.configFile ? await readConfigFile(sources.configFile.path, sources.configFile.required) : {};
  const fromEnv = sources.env ? optionsFromEnv(sources.env) : {};
  const fromFlags = sources.flags ? optionsFromFlags(sources.flags) : {};
  const fromApi = sources.api === undefined ? {} : checkRunOptions(withoutUndefined(sources.api), API_SOURCE);
  const given: RunConfigInput = { ...sources.defaults, ...fromFile, ...fromEnv, ...fromFlags, ...fromApi };
  const external = given.baseUrl !== undefined;
  // The standard proxy variables come after the flags, before the config file, as every variable does.
  const envProxy =
    sources.env && given.baseUrl !== undefined && fromFlags.proxy === undefined && fromApi.proxy === undefined
      ? proxyFromEnv(sources.env, given.baseUrl)
      : undefined;
  if (envProxy) given.proxy = envProxy.proxy;
  const config: RunConfig = {
    ...RUN_CONFIG_DEFAULTS,
    ...given,
    // The embedded server is the run's own: its resources may always be changed.
    allowMutations: external ? given.allowMutations === true : true,
    // Polite by default against someone else's server (adaptive); the embedded one needs no cap.
    rate: given.rate ?? (external ? 'auto' : 0),
    seed: given.seed ?? randomInt(0, 2 ** 31 - 1),
  };
  await checkTogether(config, given);
  if (external)
    checkApiKey(given.apiKey, keySource({ fromApi, fromFlags, fromEnv, fromFile }, sources.configFile?.path));
  return config;
}

/**
 * Every request to a target carries its key: an external target without one
 * (or with an empty one: a secret that is not set) is refused before any
 * request, in one line naming where the key was looked for.
 */
function checkApiKey(key: string | undefined, source: string | undefined): void {
  if (key === undefined)
    throw new UsageError(
      'no API key for the target: set DIRECTORY_API_KEY (or --api-key, "apiKey") to the key the target issued',
      { seeHelp: false },
    );
  if (key.trim() === '')
    throw new UsageError(`the API key is empty (${source ?? 'apiKey'}): set it to the key the target issued`, {
      seeHelp: false,
    });
}

/** Where the key the run uses came from, in that source's words. */
function keySource(
  from: Record<'fromApi' | 'fromFlags' | 'fromEnv' | 'fromFile', RunConfigInput>,
  configFile: string | undefined,
): string | undefined {
  if (from.fromApi.apiKey !== undefined) return 'runConformance: apiKey';
  if (from.fromFlags.apiKey !== undefined) return '--api-key';
  if (from.fromEnv.apiKey !== undefined) return 'DIRECTORY_API_KEY';
  if (from.fromFile.apiKey !== undefined) return `${configFile ?? 'the config file'}: /apiKey`;
  return undefined;
}

/** What no single option's schema can say: the options that go together. */
async function checkTogether(config: RunConfig, given: RunConfigInput): Promise<void> {
  if (config.baseUrl !== undefined) {
    checkBaseUrl(config.baseUrl);
    if (config.faults.length > 0 || config.variants.length > 0)
      throw new UsageError('--fault and --variant apply to the embedded server only (omit --base-url)');
    if (config.profile === undefined)
      throw new UsageError(
        'a target profile is required with a base URL: --profile, DIRECTORY_PROFILE or "profile" (see fixtures/example-profile.json)',
      );
  }
  for (const f of config.faults)
    if (!isFaultName(f)) throw new UsageError(unknownName('fault', f, Object.keys(FAULTS)));
  for (const v of config.variants)
    if (!isVariantName(v)) throw new UsageError(unknownName('variant', v, Object.keys(VARIANTS)));
  if (config.path !== undefined && given.seed === undefined)
    throw new UsageError('--path replays a counterexample of one seed: give its --seed too (both are in the report)');
  if (config.replayPath !== undefined && config.path === undefined)
    throw new UsageError('--replay-path goes with the --path (and --seed) of the same counterexample');
  parseHeaders(config.headers);
  if (config.proxy !== undefined) checkProxyUrl(config.proxy);
  if (config.caCert !== undefined) await readCaCerts(config.caCert);
  if (config.shard && config.shard.index > config.shard.count)
    throw new UsageError(`shard must be i/n with 1 <= i <= n, got ${config.shard.index}/${config.shard.count}`);
  // Looked at, never opened: a FIFO or a folder named here would hang or fail the run later.
  if (typeof config.profile === 'string') await refuseIfNotRegularFile(config.profile, 'the target profile');
  if (typeof config.expectations === 'string')
    await refuseIfNotRegularFile(config.expectations, 'the expectations file');
}

/** An unknown fault or variant: the known name close to it, else every known name. */
export function unknownName(what: 'fault' | 'variant', name: string, known: readonly string[]): string {
  const close = closestName(name, known);
  if (close) return `unknown ${what} ${JSON.stringify(name)} (did you mean ${close}?)`;
  const head = name.split('-')[0] ?? name;
  const near = known.filter((k) => k.startsWith(`${head}-`));
  return near.length > 0
    ? `unknown ${what} ${JSON.stringify(name)}; the ${what}s starting with "${head}-": ${near.join(', ')}`
    : `unknown ${what} ${JSON.stringify(name)}; the ${known.length} ${what}s: ${known.join(', ')}`;
}

const API_SOURCE = {
  label: 'runConformance',
  name: (pointer: string): string =>
    pointer === ''
      ? 'options'
      : pointer
          .split('/')
          .slice(1)
          .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
          .join('')
          .replace(/^\./, ''),
};

/** Names a value by its option's own name in this source (a flag, a variable): `--level`, not `/levels/0`. */
function sourceNaming(nameOf: (option: string) => string | undefined): { name(pointer: string): string } {
  return {
    name(pointer) {
      const option = pointer.split('/')[1] ?? '';
      return nameOf(option) ?? option;
    },
  };
}

const LEVELS: readonly string[] = RUN_CONFIG_SCHEMA.properties.levels.items.enum;

/** `run`'s flags as options: numbers read from their text, `--shard i/n` as its record. */
export function optionsFromFlags(flags: RunConfigSources['flags'] & object): RunConfigInput {
  const options: Record<string, unknown> = {};
  for (const option of RUN_OPTION_SCHEMAS.keys()) {
    const flag = annotation(option, 'flag');
    const value = flag === undefined ? undefined : flags[flag];
    if (value === undefined) continue;
    options[option] = option === 'shard' && typeof value === 'string' ? parseShard(value) : fromText(option, value);
  }
  return checkRunOptions(
    options,
    sourceNaming((option) => {
      const flag = annotation(option, 'flag');
      return flag && `--${flag}`;
    }),
  );
}

/** The options the environment gives (each with its variable in the schema). */
export function optionsFromEnv(env: NodeJS.ProcessEnv): RunConfigInput {
  const options: Record<string, unknown> = {};
  for (const option of RUN_OPTION_SCHEMAS.keys()) {
    const name = annotation(option, 'env');
    const value = name === undefined ? undefined : env[name];
    if (value !== undefined) options[option] = fromText(option, value);
  }
  return checkRunOptions(
    options,
    sourceNaming((option) => annotation(option, 'env')),
  );
}

/**
 * A flag's or a variable's text as the value its option takes: a number
 * where the schema takes one (a percentage may end in %); anything else is
 * left as text for the schema to refuse in its words.
 */
function fromText(option: string, value: string | boolean | (string | boolean)[]): unknown {
  // A level is a word of the spec, whatever its case on a command line: `--level must`.
  if (option === 'levels' && Array.isArray(value))
    return value.map((v) => (typeof v === 'string' && LEVELS.includes(v.toUpperCase()) ? v.toUpperCase() : v));
  if (typeof value !== 'string' || !takesNumber(RUN_OPTION_SCHEMAS.get(option))) return value;
  const text = option === 'minCoverage' ? value.replace(/%$/, '') : value;
  return /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : value;
}

function takesNumber(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if ('type' in schema && (schema.type === 'integer' || schema.type === 'number')) return true;
  return 'anyOf' in schema && Array.isArray(schema.anyOf) && schema.anyOf.some(takesNumber);
}

/**
 * A config file's options: checked against the schema (a problem names the
 * file and the JSON path), its paths taken from the file's own folder. The
 * default file is read only when present; a path that is not a regular file
 * is refused without being opened.
 */
export async function readConfigFile(path: string, required: boolean): Promise<RunConfigInput> {
  if (!required && !(await exists(path))) return {};
  await refuseIfNotRegularFile(path, 'the config file');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the config file ${path}: ${e instanceof Error ? e.message : String(e)}`, {
      seeHelp: false,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path}: not JSON: ${e instanceof Error ? e.message : String(e)}`, { seeHelp: false });
  }
  const { $schema: _editorsOnly, ...options } = checkRunOptions(data, {
    label: path,
    name: (pointer) => pointer || '/',
  });
  const from = (p: string): string => (isAbsolute(p) ? p : join(dirname(path), p));
  return {
    ...options,
    ...(typeof options.profile === 'string' ? { profile: from(options.profile) } : {}),
    ...(typeof options.expectations === 'string' ? { expectations: from(options.expectations) } : {}),
    ...(options.reports !== undefined ? { reports: from(options.reports) } : {}),
    ...(options.history !== undefined ? { history: from(options.history) } : {}),
    ...(options.sign !== undefined ? { sign: from(options.sign) } : {}),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** An option given as undefined (`apiKey: process.env.X` when X is unset) is not given: it overrides nothing. */
function withoutUndefined(options: unknown): unknown {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return options;
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}
