/**
 * One run at a time changes a resource of a target: a run on this machine
 * that may change a target's mutable resources takes one lock file per
 * resource, so two runs never change each other's resources and report false
 * FAILs, while runs on disjoint resources (the shards of one selection) go
 * side by side. The lock is all or nothing: a run holds every resource it
 * needs or none. A lock whose process is gone (a crash, kill -9) is taken over.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { fileProblems, matchesFileSchema, oneLine, type FileType } from '../schemas/files.ts';

export interface TargetLock {
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  since: string;
  /** The target, as targetKey() writes it. */
  target: string;
  /** This file's resource. */
  resource: string;
  /** Every resource the holding run locked, to name the overlap in a refusal. */
  resources: string[];
}

/** A lock file as read back (src/schemas/files.ts). */
type LockFile = FileType<'LockHolder'>;

/**
 * The target as the client addresses it: origin (scheme and host lower-cased,
 * default port dropped) and path without trailing slashes. A query or
 * fragment never reaches an operation's address, so it is left out too:
 * `http://Staging.example/` and `http://staging.example` are one target.
 */
export function targetKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The lock file of one resource of a target. */
export function resourceLockPath(baseUrl: string, resourceId: string, dir = tmpdir()): string {
  const key = createHash('sha256')
    .update(`${targetKey(baseUrl)}\n${resourceId}`)
    .digest('hex')
    .slice(0, 24);
  return join(dir, `directory-conformance-${key}.lock`);
}

export interface LockOptions {
  /** Wait for the resources another run holds instead of refusing. */
  wait: boolean;
  pollMs?: number;
  /** Where lock files live (default: the system's temporary folder). */
  dir?: string;
}

/**
 * Takes a lock on every resource, or (with `wait`) waits until it can take
 * them all at once; otherwise a run that overlaps another is a usage error
 * naming the other run's process and the resources both would change.
 */
export async function lockTarget(
  baseUrl: string,
  resourceIds: readonly string[],
  options: LockOptions,
): Promise<TargetLock> {
  const ids = [...new Set(resourceIds)].sort();
  const target = targetKey(baseUrl);
  const since = new Date().toISOString();
  for (;;) {
    const taken: string[] = [];
    let conflict: LockFile | undefined;
    try {
      for (const id of ids) {
        const path = resourceLockPath(baseUrl, id, options.dir);
        const holder = await take(path, { pid: process.pid, since, target, resource: id, resources: ids });
        if (holder) {
          conflict = holder;
          break;
        }
        taken.push(path);
      }
    } catch (e) {
      // A lock file that is not one: what was taken so far is given back before the run stops.
      await Promise.all(taken.map((p) => rm(p, { force: true })));
      throw e;
    }
    if (!conflict) return held(taken);
    // All or nothing: a run that cannot have every resource holds none while it waits or gives up.
    await Promise.all(taken.map((p) => rm(p, { force: true })));
    if (!options.wait) {
      const theirs = new Set(conflict.resources.length > 0 ? conflict.resources : [conflict.resource]);
      const shared = ids.filter((id) => theirs.has(id));
      throw new UsageError(
        `another run (process ${conflict.pid}, since ${conflict.since}) is changing resource(s) ` +
          `${shared.join(', ')} of ${target}: wait for it, or pass --wait-lock to wait here`,
        { seeHelp: false },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
  }
}

/** The lock files are removed on release, and on any exit of the process before it (process.exit included). */
function held(paths: readonly string[]): TargetLock {
  const onExit = (): void => {
    for (const p of paths) {
      try {
        unlinkSync(p);
      } catch {
        // Already gone.
      }
    }
  };
  if (paths.length > 0) process.once('exit', onExit);
  return {
    async release() {
      process.off('exit', onExit);
      await Promise.all(paths.map((p) => rm(p, { force: true })));
    },
  };
}

/**
 * Creates the lock file with its content in one step (written aside, then
 * linked into place: a reader never sees it empty); undefined when taken, the
 * living holder otherwise. A holder whose process is gone is taken over.
 */
async function take(path: string, holder: Holder): Promise<LockFile | undefined> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(aside, JSON.stringify(holder));
  try {
    for (;;) {
      try {
        await link(aside, path);
        return undefined;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const other = await readHolder(path);
      if (other && alive(other.pid)) return other;
      await rm(path, { force: true });
    }
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/**
 * The holder a lock file names; undefined when it is gone (released since).
 * A lock file is written whole before it is linked into place, so one that
 * is not a holder was not written by this tool: it is named, never taken over.
 */
async function readHolder(path: string): Promise<LockFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const file = `lock file ${path}`;
  const hint = 'not a lock of this tool: remove it if no run of directory-conformance is using the target';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`${file}: not JSON; ${hint}`, { seeHelp: false });
  }
  const problems = fileProblems('LockHolder', data);
  if (problems.length === 0 && matchesFileSchema('LockHolder', data)) return data;
  throw new UsageError(`${oneLine(file, problems)}; ${hint}`, { seeHelp: false });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
