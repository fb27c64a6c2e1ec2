import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';

/** A JSON file the user named; a missing or broken one is a usage error (exit 2). */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return parsed;
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${e instanceof Error ? e.message : String(e)}`, {
      seeHelp: false,
    });
  }
}
