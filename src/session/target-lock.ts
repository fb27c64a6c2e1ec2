/**
 * One run at a time changes a target: runs on this machine against the same
 * base URL and the same mutable resources take a lock file, so two runs never
 * change each other's resources and report false FAILs. A lock whose process
 * is gone (a crash, kill -9) is taken over.
 */
import { createHash } from 'node:crypto';
import { open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';

export interface TargetLock {
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  since: string;
}

export function lockPath(baseUrl: string, resourceIds: readonly string[], dir = tmpdir()): string {
  const key = createHash('sha256')
    .update(`${baseUrl}\n${[...resourceIds].sort().join(',')}`)
    .digest('hex')
    .slice(0, 16);
  return join(dir, `directory-conformance-${key}.lock`);
}

/** Takes the lock, or (with `wait`) waits for it; otherwise a second run is a usage error naming the first. */
export async function lockTarget(path: string, options: { wait: boolean; pollMs?: number }): Promise<TargetLock> {
  for (;;) {
    try {
      const file = await open(path, 'wx');
      await file.write(JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies Holder));
      await file.close();
      return { release: () => rm(path, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = await readHolder(path);
    if (!holder || !alive(holder.pid)) {
      await rm(path, { force: true });
      continue;
    }
    if (!options.wait) {
      throw new UsageError(
        `another run (process ${holder.pid}, since ${holder.since}) is changing this target's resources: ` +
          'wait for it, or pass --wait-lock to wait here',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
  }
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
