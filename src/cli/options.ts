import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';

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
    throw new UsageError(e instanceof Error ? withSuggestion(e.message, Object.keys(options)) : String(e));
  }
}

/** An unknown flag close to a known one (`--tmeout`) is answered with the one meant. */
function withSuggestion(message: string, flags: readonly string[]): string {
  const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
  const near = unknown === undefined ? undefined : closestName(unknown, flags);
  return near === undefined ? message : `${message} (did you mean --${near}?)`;
}

export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}
