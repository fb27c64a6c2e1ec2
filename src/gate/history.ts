/**
 * History across runs (`--history DIR`): each run's results.json is kept in
 * DIR, named by the time the run started, and read back (validated against
 * the results schema, never cast) to tell for every rule its last verdicts,
 * how often it flipped, since when it fails, and whether its verdict changed
 * since the last run. A file that cannot be read or does not match is skipped
 * with one warning line: history informs a run, it never stops one.
 */
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Verdict } from '../core/types.ts';
import { fileProblems, matchesFileSchema, oneLine } from '../schemas/files.ts';

/** Verdicts shown per rule, the current run's included. */
export const HISTORY_SHOWN = 20;
/** Runs kept in the folder: older files of ours are removed as new ones come. */
export const HISTORY_KEPT = 50;
/** A rule with this many flips among its last UNSTABLE_WINDOW verdicts is unstable. */
export const UNSTABLE_FLIPS = 3;
export const UNSTABLE_WINDOW = 10;

const FILE_NAME = /^results-(\d{8}T\d{6}(?:\d{3})?Z)(?:-\d+)?\.json$/;

/** One earlier run as the history knows it. */
export interface PastRun {
  file: string;
  startedAt: string;
  verdicts: ReadonlyMap<string, Verdict>;
}

/** One rule's history, the current run last. */
export interface RuleHistory {
  /** The last verdicts, oldest first, up to HISTORY_SHOWN; each with when its run started. */
  verdicts: Array<{ verdict: Verdict; startedAt: string }>;
  /** Changes of verdict from one run to the next, over `verdicts`. */
  flips: number;
  /** Flips among the last UNSTABLE_WINDOW verdicts reach UNSTABLE_FLIPS. */
  unstable: boolean;
  /** When the rule FAILs now: the start of the first run of its unbroken run of FAILs. */
  failingSince?: string;
  /** The verdict of the last run that had the rule, when it differs from this run's. */
  changedFrom?: Verdict;
}

export interface RunHistory {
  /** The folder, as given. */
  dir: string;
  /** Earlier runs read (files that could not be read are not counted). */
  earlierRuns: number;
  rules: ReadonlyMap<string, RuleHistory>;
  /** Rules whose verdict changed since the last run that had them, in rule order. */
  changed: Array<{ ruleId: string; from: Verdict; to: Verdict }>;
  /** One line per file skipped. */
  warnings: string[];
}

/** The folder's runs, oldest first; a file that cannot be read or checked is a warning, not a run. */
export async function readHistory(dir: string): Promise<{ runs: PastRun[]; warnings: string[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    // No folder yet: the first run of a history.
    if (codeOf(e) === 'ENOENT') return { runs: [], warnings: [] };
    return { runs: [], warnings: [`history: cannot read the folder ${dir}: ${messageOf(e)}`] };
  }
  const ours = names.filter((n) => FILE_NAME.test(n)).sort();
  const runs: PastRun[] = [];
  const warnings: string[] = [];
  for (const name of ours.slice(-HISTORY_KEPT)) {
    const path = join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
    } catch (e) {
      warnings.push(`history: skipped ${path}: ${messageOf(e)}`.replace(/[\r\n]+/g, ' '));
      continue;
    }
    if (!matchesFileSchema('ResultsFile', value)) {
      warnings.push(`history: skipped ${oneLine(path, fileProblems('ResultsFile', value))}`);
      continue;
    }
    runs.push({
      file: path,
      startedAt: value.startedAt,
      verdicts: new Map(value.results.map((r) => [r.ruleId, r.verdict])),
    });
  }
  runs.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  return { runs, warnings };
}

/**
 * Keeps this run's results.json in the folder, named by when the run started
 * (`results-20260625T101500123Z.json`), and removes our oldest files beyond
 * HISTORY_KEPT. Other files in the folder are left alone.
 */
export async function keepInHistory(dir: string, startedAt: string, json: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = startedAt.replace(/[-:.]/g, '');
  const taken = new Set(await readdir(dir));
  let name = `results-${stamp}.json`;
  for (let n = 2; taken.has(name); n++) name = `results-${stamp}-${n}.json`;
  const path = join(dir, name);
  await writeFile(path, json, { flag: 'wx' });
  const ours = [...taken, name].filter((n) => FILE_NAME.test(n)).sort();
  for (const old of ours.slice(0, Math.max(0, ours.length - HISTORY_KEPT))) await unlink(join(dir, old));
  return path;
}

/**
 * Keeps a run in its history (`keepInHistory`); a file that cannot be
 * written is one of the history's warnings, never the run's failure.
 */
export async function keepRunInHistory(history: RunHistory, startedAt: string, json: string): Promise<void> {
  try {
    await keepInHistory(history.dir, startedAt, json);
  } catch (e) {
    history.warnings.push(`history: this run was not kept in ${history.dir}: ${messageOf(e)}`);
  }
}

/** One shard of a sharded run, as its results say: when that shard started, and which share it ran. */
export interface ShardOfRun {
  startedAt: string;
  index: number;
  count: number;
}

/**
 * Removes from the folder the results of the given shards (the same start
 * and share), once they are merged: a merged run kept in the folder its
 * shards were kept in then counts once, whole, and not also as its shares
 * (each would read as a run that had only some of the rules). Returns the
 * files removed; a file that cannot be read is left alone, as readHistory
 * leaves it.
 */
export async function forgetShards(dir: string, shards: readonly ShardOfRun[]): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter((n) => FILE_NAME.test(n))) {
    const path = join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
    } catch {
      continue;
    }
    if (!matchesFileSchema('RunRecord', value)) continue;
    const shard = value.selection?.shard;
    const merged =
      shard !== undefined &&
      shards.some((s) => s.startedAt === value.startedAt && s.index === shard.index && s.count === shard.count);
    if (!merged) continue;
    await unlink(path);
    removed.push(path);
  }
  return removed;
}

/** Each rule of this run with its history: the earlier runs' verdicts, then this run's. */
export function ruleHistories(
  dir: string,
  past: { runs: readonly PastRun[]; warnings: readonly string[] },
  current: { startedAt: string; results: ReadonlyArray<{ ruleId: string; verdict: Verdict }> },
): RunHistory {
  const rules = new Map<string, RuleHistory>();
  const changed: RunHistory['changed'] = [];
  for (const { ruleId, verdict } of current.results) {
    const all = [
      ...past.runs.flatMap((run) => {
        const v = run.verdicts.get(ruleId);
        return v === undefined ? [] : [{ verdict: v, startedAt: run.startedAt }];
      }),
      { verdict, startedAt: current.startedAt },
    ];
    const verdicts = all.slice(-HISTORY_SHOWN);
    const previous = all.at(-2)?.verdict;
    const history: RuleHistory = {
      verdicts,
      flips: flipsIn(verdicts),
      unstable: flipsIn(all.slice(-UNSTABLE_WINDOW)) >= UNSTABLE_FLIPS,
    };
    if (verdict === 'FAIL') {
      let first = all.length - 1;
      while (first > 0 && all[first - 1]?.verdict === 'FAIL') first -= 1;
      history.failingSince = all[first]?.startedAt ?? current.startedAt;
    }
    if (previous !== undefined && previous !== verdict) {
      history.changedFrom = previous;
      changed.push({ ruleId, from: previous, to: verdict });
    }
    rules.set(ruleId, history);
  }
  changed.sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  return { dir, earlierRuns: past.runs.length, rules, changed, warnings: [...past.warnings] };
}

function flipsIn(verdicts: ReadonlyArray<{ verdict: Verdict }>): number {
  let flips = 0;
  for (let i = 1; i < verdicts.length; i++) if (verdicts[i]?.verdict !== verdicts[i - 1]?.verdict) flips += 1;
  return flips;
}

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
