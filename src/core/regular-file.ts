import { stat } from 'node:fs/promises';
import { UsageError } from './errors.ts';

/**
 * Refuses a path that exists but is not a regular file (a FIFO, a folder, a
 * device) before anything opens it: reading a FIFO waits for a writer for
 * ever. Looked at with stat, never opened. A path that does not exist is left
 * to the reader, which says so in its own words.
 */
export async function refuseIfNotRegularFile(path: string, what: string): Promise<void> {
  let kind: string;
  try {
    const s = await stat(path);
    if (s.isFile()) return;
    kind = s.isDirectory() ? 'a folder' : s.isFIFO() ? 'a FIFO' : s.isSocket() ? 'a socket' : 'not a regular file';
  } catch {
    return;
  }
  throw new UsageError(`${what} ${path} is ${kind}, not a regular file`, { seeHelp: false });
}
