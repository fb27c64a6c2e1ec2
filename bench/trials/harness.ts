/**
 * What every trial shares: a fresh reference server (so no trial inherits
 * another's quarantined or changed resources), its profile on disk without
 * the restricted key, a latency proxy in front of it when a run must still be
 * changing state when something happens to it, the CLI in-process or in a
 * child process, and the target's state read straight from the server.
 * Everything listens on 127.0.0.1, port 0, and is closed by the trial.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { startRateLimitedProxy, type RateLimitedProxy } from '../../src/hostile-server/rate-limited-proxy.ts';
import {
  startReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../../src/reference-server/index.ts';
import { resourceLockPaths } from '../../src/session/target-lock.ts';
import { stateOfTarget } from '../../test/helpers/target-state.ts';

export { stateOfTarget };

/** What one trial found: whether the promise held, whether the trial reached what it tries, and why. */
export interface TrialOutcome {
  held: boolean;
  /**
   * The fault met what it aims at (the kill landed while the target was changed, a restoration broke, the
   * second run overlapped the first, the fault was injected, the echo reached a transcript): a trial that did
   * not reach it held a promise it did not test.
   */
  reached: boolean;
  detail: string;
}

export interface Target {
  server: ReferenceServer;
  /** The profile, without the restricted key, as a file a run takes. */
  profilePath: string;
  /** A folder of the trial's own, removed with the target. */
  dir: string;
  close(): Promise<void>;
}

/** What every trial's run that changes the target takes: its profile and key, mutations allowed, no rate cap. */
export function mutatingRunArgs(target: Target): string[] {
  return ['--profile', target.profilePath, '--api-key', target.server.apiKey, '--allow-mutations', '--rate', '0'];
}

export async function startTarget(scratch: string, options: ReferenceServerOptions = {}): Promise<Target> {
  const server = await startReferenceServer(options);
  const dir = await mkdtemp(join(scratch, 'trial-'));
  const profilePath = join(dir, 'profile.json');
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  await writeFile(profilePath, JSON.stringify(profile));
  return {
    server,
    profilePath,
    dir,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A proxy that adds `latencyMs` to every request and limits nothing else: a run stays mid-change long enough. */
export function latencyProxy(upstream: string, latencyMs: number): Promise<RateLimitedProxy> {
  return startRateLimitedProxy({
    upstream,
    latencyMs,
    bucketSize: 1_000_000,
    refillPerSecond: 1_000_000,
    maxInFlight: 1_000,
  });
}

/** The CLI in this process, its two streams captured together. */
export async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

/** The built CLI in a child process (a process that can be killed), its output captured. */
export function cliProcess(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['bin/directory-conformance.mjs', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return { child, output: () => out };
}

/** The child's exit code (null when a signal ended it); a child still running after `ms` is killed. */
export function exited(child: ChildProcess, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves once the journal announces a change (or after about 10 s): the run is changing a resource. */
export async function journalSaysChanging(journal: string): Promise<boolean> {
  for (let i = 0; i < 400; i++) {
    const text = await readFile(journal, 'utf8').catch(() => '');
    if (text.includes('"event":"changing"')) return true;
    await sleep(25);
  }
  return false;
}

/** The lock files a run against `baseUrl` takes for the target's resources that still exist: none may outlive it. */
export async function lockFilesLeft(baseUrl: string, server: ReferenceServer): Promise<string[]> {
  const left: string[] = [];
  for (const r of server.profile.mutableResources) {
    for (const path of await resourceLockPaths(baseUrl, r.id)) {
      if (
        await access(path).then(
          () => true,
          () => false,
        )
      )
        left.push(path);
    }
  }
  return left;
}

/** A small deterministic generator: the trial with seed s does the same thing each time. */
export function random(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** An integer in [min, max] from `next`. */
export function between(next: () => number, min: number, max: number): number {
  return min + Math.floor(next() * (max - min + 1));
}
