/**
 * A reports folder belongs to one run: a run takes its folder's lock before
 * it wipes, checks or writes anything there, so two runs on one folder (two
 * shards left with the default `--reports`) never remove each other's
 * reports or write one journal together. The second is refused in one line
 * naming the folder and `--reports`; and since it never reads a journal whose
 * run is alive, it never tells the user to `restore` under that run.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { held, take, type TargetLock } from './target-lock.ts';

/** The folder as the file system knows it: a symbolic link and its target are one folder. */
async function folderKey(dir: string): Promise<string> {
  const absolute = resolve(dir);
  return realpath(absolute).catch(() => absolute);
}

/** The lock file of a reports folder. */
export async function reportsLockPath(dir: string, lockDir = tmpdir()): Promise<string> {
  const key = createHash('sha256')
    .update(`reports\n${await folderKey(dir)}`)
    .digest('hex')
    .slice(0, 24);
  return join(lockDir, `directory-conformance-reports-${key}.lock`);
}

/** Takes the folder's lock, or refuses (a usage error, one line) while another living run holds it. */
export async function lockReportsDir(dir: string, options: { lockDir?: string } = {}): Promise<TargetLock> {
  const path = await reportsLockPath(dir, options.lockDir);
  const folder = await folderKey(dir);
  const since = new Date().toISOString();
  const holder = await take(path, { pid: process.pid, since, target: folder, resource: 'reports', resources: [] });
  if (holder) {
    throw new UsageError(
      `the reports folder ${folder} is in use by another run (process ${holder.pid}, since ${holder.since}): ` +
        'give this run a folder of its own with --reports',
      { seeHelp: false },
    );
  }
  return held([path]);
}
