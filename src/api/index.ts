/**
 * The programmatic entry: `runConformance` does what `directory-conformance
 * run` does, in-process, with the same options as typed fields, and returns
 * the run result: exactly what results.json holds (its `selection`, the
 * expectations `gate`, and the summary's outcome with `minCoverage`,
 * `failOnSkip` and known failures applied). With `reports` it writes every
 * report the CLI writes (index.html, junit.xml, results.json, summary.md,
 * exchanges.har), removing an earlier run's first.
 *
 * Against an external `baseUrl` with `allowMutations` it takes the CLI's
 * safety measures: the target lock (one run at a time changes a target's
 * resources; `waitLock` waits for it), the write-ahead undo journal in
 * `<reports>/journal.jsonl` (`reports/journal.jsonl` without `reports`),
 * which `directory-conformance restore` replays, and a refusal to start over
 * a journal with changes not put back. Preflight always runs; a problem it
 * finds (unreachable target, refused key, a mutable resource the target lacks)
 * and every configuration mistake throws an Error naming it. What the API
 * cannot do is the CLI's signal handling: pass `interrupt` to stop it.
 */
import { randomInt } from 'node:crypto';
import { UsageError } from '../core/errors.ts';
import type { Level, RunResult } from '../core/types.ts';
import type { ExpectationsFile } from '../gate/expectations.ts';
import type { FaultName } from '../reference-server/faults.ts';
import type { VariantName } from '../reference-server/variants.ts';
import { loadCatalogue } from '../rules/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../runner/run-rules.ts';
import {
  EXTERNAL_DEFAULT_RATE,
  artifactLinks,
  conductRun,
  journalPathOf,
  openTarget,
  resolveExpectations,
  selectForRun,
  type Shard,
} from '../session/run-session.ts';
import type { TargetProfile } from '../target/profile.ts';

export interface ConformanceOptions {
  /** The server under test; without it, the embedded reference server (with `faults`/`variants`). */
  baseUrl?: string;
  apiKey?: string;
  restrictedApiKey?: string;
  /** The target profile, or the path of its JSON file; required with `baseUrl`. */
  profile?: TargetProfile | string;
  serviceVersion?: string;
  /** Mutating rules run against `baseUrl` only when allowed (always against the embedded server). */
  allowMutations?: boolean;
  readOnly?: boolean;
  /** INFERRED departures fail the run too. */
  strict?: boolean;
  /** Selection: rule ids (a trailing `*` matches a prefix), sections (`4.9`), levels. */
  rules?: string[];
  sections?: string[];
  levels?: Level[];
  /** Run one share of the selection: shard `index` (1-based) of `count`, with its share of the mutable resources. */
  shard?: Shard;
  seed?: number;
  numRuns?: number;
  maxCommands?: number;
  /** With `seed`: the fast-check path of one counterexample to replay (and, for a model-based one, its `replayPath`). */
  path?: string;
  replayPath?: string;
  concurrency?: number;
  /** Requests per second; 0 = no cap; 'auto' adapts to the server (the default against `baseUrl`). */
  rate?: number | 'auto';
  maxRequests?: number;
  requestTimeoutMs?: number;
  /** Percentage (0 to 100) of the selected rules the target can serve that must reach a verdict; default 100. */
  minCoverage?: number;
  /** Any SKIP makes the run inconclusive. */
  failOnSkip?: boolean;
  /** Known failures of the target (gate mode): the path of an expectations file, or its parsed content. */
  expectations?: string | ExpectationsFile;
  /** With `allowMutations` against `baseUrl`: wait while another run changes the same resources instead of throwing. */
  waitLock?: boolean;
  /** Stops the run as a signal stops the CLI: no rule starts any more; the result is marked interrupted. */
  interrupt?: AbortSignal;
  /** Embedded server only. */
  faults?: FaultName[];
  variants?: VariantName[];
  resources?: number;
  /** Write every report the CLI writes to this folder. */
  reports?: string;
}

export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const catalogue = await loadCatalogue();
  const { groups, selection } = selectForRun(catalogue, {
    rules: options.rules ?? [],
    sections: options.sections ?? [],
    levels: options.levels ?? [],
    ...(options.shard ? { shard: options.shard } : {}),
  });
  const external = options.baseUrl !== undefined;
  const rate = options.rate ?? (external ? EXTERNAL_DEFAULT_RATE : 0);
  if (options.minCoverage !== undefined && !(options.minCoverage >= 0 && options.minCoverage <= 100))
    throw new UsageError(`minCoverage must be a percentage from 0 to 100, got ${options.minCoverage}`);
  const engine: EngineOptions = {
    ...DEFAULT_ENGINE_OPTIONS,
    allowMutations: external ? options.allowMutations === true : true,
    readOnly: options.readOnly === true,
    strict: options.strict === true,
    seed: options.seed ?? randomInt(0, 2 ** 31 - 1),
    ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
    ...(options.maxCommands !== undefined ? { maxCommands: options.maxCommands } : {}),
    ...(options.path ? { path: options.path } : {}),
    ...(options.replayPath ? { replayPath: options.replayPath } : {}),
    concurrency: options.concurrency ?? DEFAULT_ENGINE_OPTIONS.concurrency,
    ratePerSecond: rate === 'auto' ? 0 : rate,
    adaptiveRate: rate === 'auto',
    maxRequests: options.maxRequests ?? 0,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.requestTimeoutMs,
    ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage / 100 } : {}),
    ...(options.failOnSkip ? { failOnSkip: true } : {}),
    ...(options.interrupt ? { interrupt: options.interrupt } : {}),
  };
  const expectations =
    options.expectations !== undefined ? await resolveExpectations(options.expectations, catalogue) : undefined;

  const opened = await openTarget({
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.restrictedApiKey ? { restrictedApiKey: options.restrictedApiKey } : {}),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    ...(options.serviceVersion ? { serviceVersion: options.serviceVersion } : {}),
    allowMutations: engine.allowMutations,
    ...(options.faults?.length ? { faults: options.faults } : {}),
    ...(options.variants?.length ? { variants: options.variants } : {}),
    ...(options.resources ? { resources: options.resources } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
  });
  try {
    const journalPath = journalPathOf(opened.external, engine, options.reports ?? 'reports');
    const outcome = await conductRun(groups, opened.target, engine, {
      selection,
      ...(options.reports !== undefined ? { reportsDir: options.reports } : {}),
      ...(journalPath ? { journalPath } : {}),
      ...(expectations ? { expectations } : {}),
      waitLock: options.waitLock === true,
      links: artifactLinks(process.env),
    });
    if (!outcome.ok) throw new UsageError(`cannot run: ${outcome.reason}`);
    return outcome.run;
  } finally {
    await opened.close();
  }
}

export { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
export type { FaultName } from '../reference-server/faults.ts';
export type { VariantName } from '../reference-server/variants.ts';
export type { TargetProfile } from '../target/profile.ts';
export type { Expectation, ExpectationsFile } from '../gate/expectations.ts';
export type { Shard } from '../session/run-session.ts';
export type {
  GateRecord,
  Level,
  RuleResult,
  RunResult,
  RunSelection,
  RunSummary,
  Verdict,
  Violation,
} from '../core/types.ts';
