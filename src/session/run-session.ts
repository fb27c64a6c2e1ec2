/**
 * One run from start to reports, shared by the CLI's `run` and the programmatic
 * `runConformance`, so both take the same safety measures and return the same
 * record: the selection (and its shard), the target (an external server or
 * the embedded reference server), the lock and the write-ahead undo journal
 * when an external target may be changed, preflight, the engine, the
 * expectations gate and every report. What is only the CLI's (options
 * parsing, progress, signals, the printed summary) stays in src/cli.
 */
import type { KeyObject } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { RUN_CONFIG_DEFAULTS, type RunConfig } from '../schemas/run-config.ts';
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
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { embeddedTiming } from '../core/timing.ts';
import { isFaultName } from '../reference-server/faults.ts';
import { isVariantName } from '../reference-server/variants.ts';
import { keepRunInHistory, readHistory, ruleHistories, type RunHistory } from '../gate/history.ts';
import { writeBundle } from './bundle.ts';
import { HarRecorder } from '../report/har.ts';
import { renderJson } from '../report/json.ts';
import { shellWord } from '../report/shell-quote.ts';
import type { SummaryLinks } from '../report/summary-markdown.ts';
import { writeReports } from '../report/write-reports.ts';
import { allRules, selectRules, shardRules } from '../runner/catalogue.ts';
import { checkSelection } from './check-selection.ts';
import type { RuleGroup } from '../rules/types.ts';
import { preflight } from '../runner/preflight.ts';
import { runRules, type EngineOptions, type RunTarget } from '../runner/run-rules.ts';
import { pendingChanges, readJournal } from '../runner/undo-journal.ts';
import { checkProfile, loadProfile } from '../target/load-profile.ts';
import { lockReportsDir } from './reports-lock.ts';
import { lockTarget, type TargetLock } from './target-lock.ts';
import { prepareReportsDir } from '../report/reports-dir.ts';
import { connectionOf } from './connection-options.ts';

export const DEFAULT_SERVICE_VERSION = RUN_CONFIG_DEFAULTS.serviceVersion;
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
  checkSelection(catalogue, request);
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
 * it would travel into every report, so they are refused, not redacted, and
 * never repeated in the refusal.
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
  // An @ anywhere is a user and password the parser may have read otherwise (a `/` in them ends the host
  // early, and the part before it would be looked up as a host name and named in a DNS error).
  if (url.username || url.password || value.includes('@')) {
    throw new UsageError(
      '--base-url must not carry a user or password: give the key in DIRECTORY_API_KEY (or --api-key) instead',
    );
  }
}

/** The `i`-th of `n` shares of the resources (1-based), taken in turn so each share mixes kinds. */
export function shareOf<T>(resources: readonly T[], i: number, n: number): T[] {
  return resources.filter((_, index) => index % n === i - 1);
}

export interface OpenedTarget {
  target: RunTarget;
  external: boolean;
  /** The embedded server, when one was started. */
  server?: ReferenceServer;
  close(): Promise<void>;
}

/** The target of a run: the external server as the profile describes it, or a freshly started reference server. */
export async function openTarget(config: RunConfig): Promise<OpenedTarget> {
  const { serviceVersion } = config;
  let opened: OpenedTarget;
  if (config.baseUrl !== undefined) {
    if (config.profile === undefined)
      throw new UsageError('a target profile is required with a base URL (see fixtures/example-profile.json)');
    const profile =
      typeof config.profile === 'string'
        ? await loadProfile(config.profile)
        : checkProfile(structuredClone(config.profile), 'the target profile object');
    if (config.restrictedApiKey) profile.restrictedApiKey = config.restrictedApiKey;
    // A profile given as an object has no file to name: the replay command then needs --profile added.
    const replayArgs = [
      `--base-url ${shellWord(config.baseUrl)}`,
      ...(typeof config.profile === 'string' ? [`--profile ${shellWord(config.profile)}`] : []),
      ...(config.allowMutations ? ['--allow-mutations'] : []),
      ...(serviceVersion !== DEFAULT_SERVICE_VERSION ? [`--service-version ${serviceVersion}`] : []),
    ].join(' ');
    const target: RunTarget = {
      baseUrl: config.baseUrl,
      serviceVersion,
      profile,
      replayArgs,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    };
    opened = { target, external: true, close: () => Promise.resolve() };
  } else {
    // Names were checked with the rest of the configuration; the filters only type them.
    const { resources } = config;
    const faults = config.faults.filter(isFaultName);
    const variants = config.variants.filter(isVariantName);
    // The suite and the server it started share one clock and short windows (core/timing.ts).
    const timing = embeddedTiming();
    const server = await startReferenceServer({ resources, faults, variants, timing });
    const replayArgs = [
      ...(resources !== RUN_CONFIG_DEFAULTS.resources ? [`--resources ${resources}`] : []),
      ...faults.map((f) => `--fault ${shellWord(f)}`),
      ...variants.map((v) => `--variant ${shellWord(v)}`),
    ].join(' ');
    const target: RunTarget = {
      baseUrl: server.url,
      serviceVersion,
      apiKey: server.apiKey,
      profile: server.profile,
      ...(replayArgs ? { replayArgs } : {}),
      timing,
    };
    opened = { target, external: false, server, close: () => server.close() };
  }
  const connection = await connectionOf(config);
  if (connection) opened.target.connection = connection;
  if (config.shard) {
    const { index, count } = config.shard;
    opened.target.profile = {
      ...opened.target.profile,
      mutableResources: shareOf(opened.target.profile.mutableResources, index, count),
    };
  }
  return opened;
}

/** The engine's options: the configuration as it is, with the coverage asked as the share results.json records. */
export function engineOptionsOf(config: RunConfig): EngineOptions {
  return { ...config, minCoverage: config.minCoverage === undefined ? undefined : config.minCoverage / 100 };
}

/**
 * Where the undo journal goes: only runs that may change someone else's server keep one, in the
 * reports folder (`reports` when the run writes none).
 */
export function journalPathOf(config: RunConfig): string | undefined {
  return config.baseUrl !== undefined && config.allowMutations && !config.readOnly
    ? join(config.reports ?? 'reports', 'journal.jsonl')
    : undefined;
}

/** An expectations file as read and checked: `file` is how results.json names it. */
export interface LoadedExpectations {
  file: string;
  data: ExpectationsFile;
}

/** Reads and checks expectations given as a path or as the parsed object; every problem names its entry. */
export async function resolveExpectations(
  given: string | object,
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
  /** Where each run's results.json is kept (--history): the reports show every rule's history. */
  historyDir?: string;
  /** The key of --sign: the reports gain conformance-bundle.json, signed with it (src/session/bundle.ts). */
  signingKey?: KeyObject;
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
      /** With a history folder: each rule's history, the rules that changed, a line per file skipped. */
      history?: RunHistory;
      /** With a signing key: the signed bundle's path. */
      bundle?: string;
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
  let reportsLock: TargetLock | undefined;
  try {
    // First of all: the folder, its reports and its journal are this run's alone (see reports-lock.ts).
    const folder = session.reportsDir ?? (journalPath ? dirname(journalPath) : undefined);
    if (folder !== undefined) reportsLock = await lockReportsDir(folder);
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
      journalPath,
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
    const history =
      session.historyDir !== undefined
        ? ruleHistories(session.historyDir, await readHistory(session.historyDir), run)
        : undefined;
    const paths =
      session.reportsDir !== undefined
        ? await writeReports(run, session.reportsDir, {
            ...(har ? { har } : {}),
            ...(session.links ? { links: session.links } : {}),
            ...(history ? { history } : {}),
          })
        : undefined;
    const bundle =
      session.signingKey && paths?.har
        ? await writeBundle(target.profile, { results: paths.json, har: paths.har }, session.signingKey)
        : undefined;
    if (history) await keepRunInHistory(history, run.startedAt, renderJson(run));
    return {
      ok: true,
      run,
      ...(gate ? { gate } : {}),
      ...(paths ? { paths } : {}),
      ...(history ? { history } : {}),
      ...(bundle ? { bundle } : {}),
    };
  } finally {
    await lock?.release();
    await reportsLock?.release();
  }
}

/** A journal an earlier run left with changes not put back: restore first, or the original state is lost. */
async function refusePendingJournal(path: string): Promise<void> {
  await refuseIfNotRegularFile(path, 'the journal');
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
