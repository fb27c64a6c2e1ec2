/**
 * One run from start to reports, shared by the CLI's `run` and the programmatic
 * `runConformance`, so both take the same safety measures and return the same
 * record: the selection (and its shard), the target (an external server or
 * the embedded reference server), the lock and the write-ahead undo journal
 * when an external target may be changed, preflight, the engine, the
 * expectations gate and every report. What is only the CLI's (options
 * parsing, progress, signals, the printed summary) stays in src/cli.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { summarise } from '../core/summarise.ts';
import type { Level, RunResult, RunSelection } from '../core/types.ts';
import {
  applyExpectations,
  checkedExpectations,
  gateRecord,
  loadExpectations,
  type ExpectationsFile,
  type GateOutcome,
} from '../gate/expectations.ts';
import {
  startReferenceServer,
  type FaultName,
  type ReferenceServer,
  type VariantName,
} from '../reference-server/index.ts';
import { HarRecorder } from '../report/har.ts';
import { shellWord } from '../report/shell-quote.ts';
import type { SummaryLinks } from '../report/summary-markdown.ts';
import { writeReports } from '../report/write-reports.ts';
import { allRules, selectRules, shardRules } from '../rules/catalogue.ts';
import type { RuleGroup } from '../rules/types.ts';
import { preflight } from '../runner/preflight.ts';
import { runRules, type EngineOptions, type RunTarget } from '../runner/run-rules.ts';
import { pendingChanges, readJournal } from '../runner/undo-journal.ts';
import { loadProfile } from '../target/load-profile.ts';
import type { TargetProfile } from '../target/profile.ts';
import { lockTarget, type TargetLock } from './target-lock.ts';
import { prepareReportsDir } from '../report/reports-dir.ts';

export const DEFAULT_SERVICE_VERSION = '26.06.25';
/** Pacing against an external target unless told otherwise: adapt to what the server says. */
export const EXTERNAL_DEFAULT_RATE = 'auto';

/** This run is shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** `i/n` with 1 <= i <= n. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const shard = m ? { index: Number(m[1]), count: Number(m[2]) } : undefined;
  if (!shard || !validShard(shard))
    throw new UsageError(`--shard must be i/n with 1 <= i <= n, got ${JSON.stringify(text)}`);
  return shard;
}

function validShard(s: Shard): boolean {
  return Number.isInteger(s.index) && Number.isInteger(s.count) && s.index >= 1 && s.index <= s.count;
}

export interface SelectionRequest {
  rules?: readonly string[];
  sections?: readonly string[];
  levels?: readonly Level[];
  shard?: Shard;
}

/** The rule groups to run and the record of what was asked for (results.json's `selection`). */
export function selectForRun(
  catalogue: readonly RuleGroup[],
  request: SelectionRequest,
): { groups: RuleGroup[]; selection: RunSelection } {
  const { shard } = request;
  if (shard && !validShard(shard))
    throw new UsageError(`shard must be i/n with 1 <= i <= n, got ${shard.index}/${shard.count}`);
  const selected = selectRules(catalogue, {
    rules: [...(request.rules ?? [])],
    sections: [...(request.sections ?? [])],
    levels: [...(request.levels ?? [])],
  });
  const groups = shard ? shardRules(selected, shard.index, shard.count) : selected;
  if (groups.length === 0) throw new UsageError('the selection matches no rule (see `directory-conformance rules`)');
  const selection: RunSelection = {
    ...(request.rules?.length ? { rules: [...request.rules] } : {}),
    ...(request.sections?.length ? { sections: [...request.sections] } : {}),
    ...(request.levels?.length ? { levels: [...request.levels] } : {}),
    ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}),
    catalogueSize: allRules(catalogue).length,
  };
  return { groups, selection };
}

/**
 * The base URL is an http(s) URL without credentials: a user and password in
 * it would travel into every report, so they are refused, not redacted.
 */
export function checkBaseUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // What precedes an @ may be a user and password that did not parse: it is never repeated.
    const shown = value.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, '$1…@');
    const userinfo =
      shown === value
        ? ''
        : '; it must not carry a user or password: give the key in DIRECTORY_API_KEY (or --api-key) instead';
    throw new UsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(shown)}${userinfo}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must be an http(s) URL, got the scheme ${JSON.stringify(url.protocol)}`);
  }
  if (url.username || url.password) {
    throw new UsageError(
      '--base-url must not carry a user or password: give the key in DIRECTORY_API_KEY (or --api-key) instead',
    );
  }
}

/** The `i`-th of `n` shares of the resources (1-based), taken in turn so each share mixes kinds. */
export function shareOf<T>(resources: readonly T[], i: number, n: number): T[] {
  return resources.filter((_, index) => index % n === i - 1);
}

export interface TargetRequest {
  /** An external server; without it, the embedded reference server. */
  baseUrl?: string;
  apiKey?: string;
  restrictedApiKey?: string;
  /** Required with `baseUrl`: the profile, or the path of its JSON file. */
  profile?: TargetProfile | string;
  serviceVersion?: string;
  /** For the replay commands of the reports only; the engine options decide. */
  allowMutations?: boolean;
  /** Embedded server only. */
  faults?: readonly FaultName[];
  variants?: readonly VariantName[];
  resources?: number;
  /** Sharded runs change disjoint shares of the profile's mutable resources. */
  shard?: Shard;
}

export interface OpenedTarget {
  target: RunTarget;
  external: boolean;
  /** The embedded server, when one was started. */
  server?: ReferenceServer;
  close(): Promise<void>;
}

/** The target of a run: the external server as the profile describes it, or a freshly started reference server. */
export async function openTarget(request: TargetRequest): Promise<OpenedTarget> {
  const serviceVersion = request.serviceVersion ?? DEFAULT_SERVICE_VERSION;
  let opened: OpenedTarget;
  if (request.baseUrl !== undefined) {
    checkBaseUrl(request.baseUrl);
    if (request.faults?.length || request.variants?.length)
      throw new UsageError('--fault and --variant apply to the embedded server only (omit --base-url)');
    if (request.profile === undefined)
      throw new UsageError('a target profile is required with a base URL (see fixtures/example-profile.json)');
    const profile =
      typeof request.profile === 'string' ? await loadProfile(request.profile) : structuredClone(request.profile);
    if (request.restrictedApiKey) profile.restrictedApiKey = request.restrictedApiKey;
    // A profile given as an object has no file to name: the replay command then needs --profile added.
    const replayArgs = [
      `--base-url ${shellWord(request.baseUrl)}`,
      ...(typeof request.profile === 'string' ? [`--profile ${shellWord(request.profile)}`] : []),
      ...(request.allowMutations ? ['--allow-mutations'] : []),
      ...(serviceVersion !== DEFAULT_SERVICE_VERSION ? [`--service-version ${serviceVersion}`] : []),
    ].join(' ');
    const target: RunTarget = {
      baseUrl: request.baseUrl,
      serviceVersion,
      profile,
      replayArgs,
      ...(request.apiKey ? { apiKey: request.apiKey } : {}),
    };
    opened = { target, external: true, close: () => Promise.resolve() };
  } else {
    const server = await startReferenceServer({
      ...(request.resources ? { resources: request.resources } : {}),
      ...(request.faults?.length ? { faults: [...request.faults] } : {}),
      ...(request.variants?.length ? { variants: [...request.variants] } : {}),
    });
    const replayArgs = [
      ...(request.resources ? [`--resources ${request.resources}`] : []),
      ...(request.faults ?? []).map((f) => `--fault ${shellWord(f)}`),
      ...(request.variants ?? []).map((v) => `--variant ${shellWord(v)}`),
    ].join(' ');
    const target: RunTarget = {
      baseUrl: server.url,
      serviceVersion,
      apiKey: server.apiKey,
      profile: server.profile,
      ...(replayArgs ? { replayArgs } : {}),
    };
    opened = { target, external: false, server, close: () => server.close() };
  }
  if (request.shard) {
    const { index, count } = request.shard;
    opened.target.profile = {
      ...opened.target.profile,
      mutableResources: shareOf(opened.target.profile.mutableResources, index, count),
    };
  }
  return opened;
}

/** Where the undo journal goes: only runs that may change someone else's server keep one. */
export function journalPathOf(external: boolean, options: EngineOptions, reportsDir: string): string | undefined {
  return external && options.allowMutations && !options.readOnly ? join(reportsDir, 'journal.jsonl') : undefined;
}

/** An expectations file as read and checked: `file` is how results.json names it. */
export interface LoadedExpectations {
  file: string;
  data: ExpectationsFile;
}

/** Reads and checks expectations given as a path or as the parsed object; every problem names its entry. */
export async function resolveExpectations(
  given: string | ExpectationsFile,
  catalogue: readonly RuleGroup[],
): Promise<LoadedExpectations> {
  const known = new Set(allRules(catalogue).map((r) => r.id));
  if (typeof given === 'string') return { file: given, data: await loadExpectations(given, known) };
  return { file: '(expectations object)', data: checkedExpectations(given, '(expectations object)', known) };
}

/** On GitHub Actions, the run's page (where its artifacts are) for the Markdown summary. */
export function artifactLinks(env: NodeJS.ProcessEnv): SummaryLinks {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  return server && repo && id ? { reports: `${server}/${repo}/actions/runs/${id}#artifacts` } : {};
}

export interface SessionOptions {
  selection: RunSelection;
  /** Where every report goes; none written without it. */
  reportsDir?: string;
  /** The undo journal (see journalPathOf); the lock is taken whenever there is one. */
  journalPath?: string;
  expectations?: LoadedExpectations;
  /** Wait for the lock another run on this machine holds instead of refusing to start. */
  waitLock?: boolean;
  links?: SummaryLinks;
  /** Called once preflight passed, just before the first rule (the CLI starts listening for signals there). */
  onReady?: () => void;
}

export type SessionOutcome =
  | {
      ok: true;
      /** Exactly what results.json holds (less its schema version and per-rule request counts). */
      run: RunResult;
      gate?: GateOutcome;
      paths?: Awaited<ReturnType<typeof writeReports>>;
    }
  /** Preflight found the target unusable: nothing ran, nothing was written. */
  | { ok: false; reason: string };

/**
 * Runs the groups against an opened target with the CLI's safety measures:
 * with a journal (an external target that may be changed), the target lock
 * and a refusal to start over a journal with changes not put back; preflight
 * always. Then the engine, the gate, and the reports (the HAR included).
 * `options.interrupt`, once aborted with a signal name as its reason, marks
 * the run interrupted.
 */
export async function conductRun(
  groups: RuleGroup[],
  target: RunTarget,
  options: EngineOptions,
  session: SessionOptions,
): Promise<SessionOutcome> {
  const { journalPath } = session;
  let lock: TargetLock | undefined;
  try {
    if (journalPath) {
      // Before the reports folder is touched: a run refused here leaves an earlier run's reports and journal as they are.
      lock = await lockTarget(
        target.baseUrl,
        target.profile.mutableResources.map((r) => r.id),
        { wait: session.waitLock === true },
      );
      await refusePendingJournal(journalPath);
    }
    // An earlier run's reports go before anything is sent, so CI never uploads them as this run's.
    if (session.reportsDir !== undefined) await prepareReportsDir(session.reportsDir);
    if (journalPath) await mkdir(dirname(journalPath), { recursive: true });
    const reachable = await preflight(target, options.requestTimeoutMs);
    if (!reachable.ok) return { ok: false, reason: reachable.reason };
    session.onReady?.();
    const har = session.reportsDir !== undefined ? new HarRecorder(new Date().toISOString()) : undefined;
    const onExchange = options.onExchange;
    const run = await runRules(groups, target, {
      ...options,
      onExchange: (ruleId, e) => {
        har?.add(ruleId, e);
        onExchange?.(ruleId, e);
      },
      ...(journalPath ? { journalPath } : {}),
    });
    const reason: unknown = options.interrupt?.reason;
    if (options.interrupt?.aborted) run.interrupted = { signal: typeof reason === 'string' ? reason : 'abort' };
    run.selection = session.selection;
    let gate: GateOutcome | undefined;
    if (session.expectations) {
      gate = applyExpectations(run.results, session.expectations.data, new Date().toISOString().slice(0, 10));
      run.gate = gateRecord(session.expectations.file, gate);
      // Known failures neither fail the run nor make it inconclusive; everything else counts as usual.
      const excused = new Set(gate.knownFailures.map((k) => k.result.ruleId));
      run.summary = summarise(run.results, { ...run.options, excused });
    }
    const paths =
      session.reportsDir !== undefined
        ? await writeReports(run, session.reportsDir, {
            ...(har ? { har } : {}),
            ...(session.links ? { links: session.links } : {}),
          })
        : undefined;
    return { ok: true, run, ...(gate ? { gate } : {}), ...(paths ? { paths } : {}) };
  } finally {
    await lock?.release();
  }
}

/** A journal an earlier run left with changes not put back: restore first, or the original state is lost. */
async function refusePendingJournal(path: string): Promise<void> {
  let pending: number;
  try {
    pending = pendingChanges(await readJournal(path)).length;
  } catch (e) {
    // No journal is the usual case; one that is not a journal is named, and never overwritten by this run's.
    if (e instanceof UsageError) throw e;
    return;
  }
  if (pending > 0) {
    throw new UsageError(
      `an earlier run left ${pending} change(s) not put back in ${path}: run \`directory-conformance restore ${path}\` first`,
      { seeHelp: false },
    );
  }
}
