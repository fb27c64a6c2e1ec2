/**
 * One run at a time changes a resource of a target: a run on this machine
 * that may change a target's mutable resources takes one lock file per
 * resource, so two runs never change each other's resources and report false
 * FAILs, while runs on disjoint resources (the shards of one selection) go
 * side by side. The lock is all or nothing: a run holds every resource it
 * needs or none. A lock whose process is gone (a crash, kill -9, a zombie
 * its parent has not reaped) is taken over at once.
 *
 * The target is the server as the network sees it, not as the URL spells it:
 * a lock file per address the host name resolves to, with the port and the
 * path, every address of this machine counting as one (`localhost`,
 * `127.0.0.1` and `::1` are one target; two names of one host share their
 * addresses, and so their locks). `restore` takes the same locks.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { link, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { readFileSync, unlinkSync } from 'node:fs';
import { isIP } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { errnoCode } from '../core/errno.ts';
import { fileProblems, matchesFileSchema, oneLine, type FileType } from '../schemas/files.ts';

export interface TargetLock {
  release(): Promise<void>;
}

export interface Holder {
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

/**
 * The target as the network sees it: one key per address the host resolves
 * to (every address of this machine is `local`), each with the port and the
 * path. A host that does not resolve is keyed by its name (the run will not
 * reach it either).
 */
export async function networkKeys(baseUrl: string): Promise<string[]> {
  const url = new URL(baseUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const path = url.pathname.replace(/\/+$/, '');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    addresses = [`name:${host}`];
  }
  const local = localAddresses();
  const keys = addresses.map((a) => (local.has(normalAddress(a)) || isLoopback(a) ? 'local' : normalAddress(a)));
  return [...new Set(keys)].sort().map((a) => `${a} ${port}${path}`);
}

/** This machine's own addresses: a run against any of them changes the same server. */
function localAddresses(): Set<string> {
  const out = new Set<string>(['0.0.0.0', '::']);
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) out.add(normalAddress(info.address));
  }
  return out;
}

function isLoopback(address: string): boolean {
  const a = normalAddress(address);
  return a === '::1' || a.startsWith('127.');
}

/** An IPv4 address mapped into IPv6 is the IPv4 address; IPv6 in lower case. */
function normalAddress(address: string): string {
  return address.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

/** The lock files of one resource of a target: one per network key (see networkKeys). */
export async function resourceLockPaths(baseUrl: string, resourceId: string, dir = tmpdir()): Promise<string[]> {
  return (await networkKeys(baseUrl)).map((key) => lockPathOf(key, resourceId, dir));
}

function lockPathOf(networkKey: string, resourceId: string, dir: string): string {
  const key = createHash('sha256').update(`${networkKey}\n${resourceId}`).digest('hex').slice(0, 24);
  return join(dir, `directory-conformance-${key}.lock`);
}

export interface LockOptions {
  /** Wait for the resources another run holds instead of refusing. */
  wait: boolean;
  pollMs?: number;
  /** Where lock files live (default: the system's temporary folder). */
  dir?: string;
  /** What a refusal tells the user to do (default: wait, or pass --wait-lock). */
  advice?: string;
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
  const keys = await networkKeys(baseUrl);
  const since = new Date().toISOString();
  for (;;) {
    const taken: string[] = [];
    let conflict: LockFile | undefined;
    try {
      for (const id of ids) {
        for (const key of keys) {
          const path = lockPathOf(key, id, options.dir ?? tmpdir());
          conflict = await take(path, { pid: process.pid, since, target, resource: id, resources: ids });
          if (conflict) break;
          taken.push(path);
        }
        if (conflict) break;
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
      const spelled =
        conflict.target && conflict.target !== target ? ` (the same server as its ${conflict.target})` : '';
      throw new UsageError(
        `another run (process ${conflict.pid}, since ${conflict.since}) is changing resource(s) ` +
          `${folded(shared)} of ${target}${spelled}: ${options.advice ?? 'wait for it, or pass --wait-lock to wait here'}`,
        { seeHelp: false },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
  }
}

/** A list of ids that stays one readable line: the first few, then how many more. */
export function folded(ids: readonly string[], shown = 5): string {
  return ids.length <= shown + 1
    ? ids.join(', ')
    : `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more (${ids.length} in all)`;
}

/** The lock files are removed on release, and on any exit of the process before it (process.exit included). */
export function held(paths: readonly string[]): TargetLock {
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
export async function take(path: string, holder: Holder): Promise<LockFile | undefined> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(aside, JSON.stringify(holder));
  try {
    for (;;) {
      try {
        await link(aside, path);
        return undefined;
      } catch (e) {
        if (errnoCode(e) !== 'EEXIST') throw e;
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

/** The process exists and has not exited: a zombie (exited, not yet reaped by its parent) holds nothing. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (errnoCode(e) !== 'EPERM') return false;
  }
  return !exited(pid);
}

/** On Linux, /proc/<pid>/stat gives the state after the command name: Z (zombie) or X (dead) have exited. */
function exited(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .charAt(0);
  return state === 'Z' || state === 'X';
}
