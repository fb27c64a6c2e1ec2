import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errnoCode } from '../core/errno.ts';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';
import { RUN_CONFIG_DEFAULTS } from '../schemas/run-config.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with mistakes turned into a UsageError (exit 2). */
export function parseOptions<T extends Options>(
  argv: string[],
  options: T,
  allowPositionals = false,
): ReturnType<
  typeof parseArgs<{
    args: string[];
    options: T & { help: { type: 'boolean'; short: 'h' } };
    allowPositionals: boolean;
    strict: true;
  }>
> {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
  } catch (e) {
    throw mistakeOf(e, argv, Object.keys(options));
  }
}

/**
 * node:util parseArgs's error as one line naming what was wrong: an unknown
 * flag with the known one it is closest to, a flag without its value, a
 * value given to a switch, an argument the command does not take. Only a
 * mistake with no near name points at the command's help.
 */
function mistakeOf(e: unknown, argv: readonly string[], flags: readonly string[]): UsageError {
  const message = e instanceof Error ? e.message : String(e);
  const code = e instanceof Error && 'code' in e ? e.code : undefined;
  const unknown = /^Unknown option '(-{1,2})([^'=]+)'/.exec(message);
  if (unknown) {
    const [, dashes = '--', name = ''] = unknown;
    const near = dashes === '--' ? closestName(name, flags) : undefined;
    return near === undefined
      ? new UsageError(`unknown option ${dashes}${name}`, { seeHelp: true })
      : new UsageError(`unknown option ${dashes}${name} (did you mean --${near}?)`);
  }
  const flag = /^Option '(--?[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    if (message.includes('does not take an argument'))
      return new UsageError(`${flag} is a switch and takes no value (leave out the =…)`);
    const next = argv[argv.indexOf(flag) + 1];
    if (message.includes('ambiguous') && next !== undefined)
      return new UsageError(
        `${flag} needs a value; a value that starts with a dash is given as ${flag}=${next}, not ${flag} ${next}`,
      );
    return new UsageError(`${flag} needs a value`, { seeHelp: true });
  }
  const positional = /^Unexpected argument '([^']*)'/.exec(message)?.[1];
  if (positional !== undefined)
    return new UsageError(`unexpected argument ${JSON.stringify(positional)}: this command takes only flags`, {
      seeHelp: true,
    });
  return new UsageError(message.split('\n')[0] ?? message, { seeHelp: true });
}

export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** `--port`: a TCP port, 0 for one the system picks. */
export function portOption(value: string | undefined, fallback: number): number {
  const port = intOption(value, 'port', fallback);
  if (port > 65535) throw new UsageError(`--port must be a TCP port, 0 to 65535 (0 picks a free one), got ${port}`);
  return port;
}

/**
 * Starts listening as `listen` does, a port that cannot be had told in one
 * line (exit 2) rather than as an internal error: in use, or not this user's
 * to take.
 */
export async function listening<T>(host: string, port: number, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on ${host} is in use: choose another --port (0 picks a free one)`);
    if (code === 'EACCES')
      throw new UsageError(`port ${port} on ${host} is not this user's to listen on: choose a --port above 1023`);
    if (code === 'EADDRNOTAVAIL') throw new UsageError(`${host} is no address of this machine: choose another --host`);
    throw error;
  }
}

/** `--resources`: the embedded directory's size a recording of it was made with (judge, proxy). */
export function resourcesOf(text: string | undefined): number {
  if (text === undefined) return RUN_CONFIG_DEFAULTS.resources;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--resources must be a whole number above 0, not ${text}`);
  return n;
}
