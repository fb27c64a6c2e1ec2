/**
 * The programmatic entry: `runConformance` runs the catalogue (or a
 * selection) against a base URL, or against the embedded reference server when
 * none is given, and returns the typed run result, the same object
 * results.json holds. Reports are written only when `reports` names a folder.
 */
import { randomInt } from 'node:crypto';
import type { Level, RunResult } from '../core/types.ts';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import type { FaultName } from '../reference-server/faults.ts';
import type { VariantName } from '../reference-server/variants.ts';
import { writeReports } from '../report/write-reports.ts';
import { loadCatalogue, selectRules } from '../rules/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../runner/run-rules.ts';
import { loadProfile } from '../target/load-profile.ts';
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
  strict?: boolean;
  /** Selection: rule ids (a trailing `*` matches a prefix), sections (`4.9`), levels. */
  rules?: string[];
  sections?: string[];
  levels?: Level[];
  seed?: number;
  numRuns?: number;
  maxCommands?: number;
  concurrency?: number;
  /** Requests per second; 0 = no cap; 'auto' adapts to the server (the default against `baseUrl`). */
  rate?: number | 'auto';
  maxRequests?: number;
  requestTimeoutMs?: number;
  /** Embedded server only. */
  faults?: FaultName[];
  variants?: VariantName[];
  resources?: number;
  /** Write index.html, junit.xml and results.json to this folder. */
  reports?: string;
}

export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const groups = selectRules(await loadCatalogue(), {
    rules: options.rules ?? [],
    sections: options.sections ?? [],
    levels: options.levels ?? [],
  });
  const external = options.baseUrl !== undefined;
  const rate = options.rate ?? (external ? 'auto' : 0);
  let server: ReferenceServer | undefined;
  try {
    let target;
    if (options.baseUrl !== undefined) {
      if (options.profile === undefined) throw new TypeError('runConformance: `profile` is required with `baseUrl`');
      const profile = typeof options.profile === 'string' ? await loadProfile(options.profile) : { ...options.profile };
      if (options.restrictedApiKey) profile.restrictedApiKey = options.restrictedApiKey;
      target = {
        baseUrl: options.baseUrl,
        serviceVersion: options.serviceVersion ?? '26.06.25',
        profile,
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      };
    } else {
      server = await startReferenceServer({
        ...(options.faults ? { faults: options.faults } : {}),
        ...(options.variants ? { variants: options.variants } : {}),
        ...(options.resources ? { resources: options.resources } : {}),
      });
      target = {
        baseUrl: server.url,
        serviceVersion: options.serviceVersion ?? '26.06.25',
        apiKey: server.apiKey,
        profile: server.profile,
      };
    }
    const run = await runRules(groups, target, {
      ...DEFAULT_ENGINE_OPTIONS,
      allowMutations: external ? options.allowMutations === true : true,
      readOnly: options.readOnly === true,
      strict: options.strict === true,
      seed: options.seed ?? randomInt(0, 2 ** 31 - 1),
      ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
      ...(options.maxCommands !== undefined ? { maxCommands: options.maxCommands } : {}),
      concurrency: options.concurrency ?? DEFAULT_ENGINE_OPTIONS.concurrency,
      ratePerSecond: rate === 'auto' ? 0 : rate,
      adaptiveRate: rate === 'auto',
      maxRequests: options.maxRequests ?? 0,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.requestTimeoutMs,
    });
    if (options.reports) await writeReports(run, options.reports);
    return run;
  } finally {
    await server?.close();
  }
}

export { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
export type { FaultName } from '../reference-server/faults.ts';
export type { VariantName } from '../reference-server/variants.ts';
export type { TargetProfile } from '../target/profile.ts';
export type { Level, RuleResult, RunResult, RunSummary, Verdict, Violation } from '../core/types.ts';
