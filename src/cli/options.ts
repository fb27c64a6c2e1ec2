import { parseArgs, type ParseArgsConfig } from 'node:util';
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
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}
