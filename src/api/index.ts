/**
 * The programmatic entry: `runConformance` does what `directory-conformance
 * run` does, in-process, with the same options as typed fields (checked
 * against the one schema of run options, fixtures/run-config.schema.json: an
 * unknown option or a value out of range throws a UsageError), and returns
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
import { UsageError } from '../core/errors.ts';
import type { RunResult } from '../core/types.ts';
import type { ExpectationsFile } from '../gate/expectations.ts';
import type { FaultName } from '../reference-server/faults.ts';
import type { VariantName } from '../reference-server/variants.ts';
import { loadCatalogue } from '../runner/catalogue.ts';
import type { RunConfig, RunConfigInput } from '../schemas/run-config.ts';
import { resolveRunConfig } from '../session/run-config.ts';
import {
  artifactLinks,
  conductRun,
  engineOptionsOf,
  journalPathOf,
  openTarget,
  resolveExpectations,
  selectForRun,
} from '../session/run-session.ts';
import type { TargetProfile } from '../target/profile.ts';

/**
 * The run options of fixtures/run-config.schema.json (the type is derived
 * from that schema), with the typed forms of what is checked against another
 * schema or list: the profile, the expectations, fault and variant names.
 * `interrupt` stops the run as a signal stops the CLI: no rule starts any
 * more; the result is marked interrupted. Options of the CLI's output
 * (`quiet`, `verbose`) change nothing here; `dryRun` is refused.
 */
export type ConformanceOptions = Omit<
  RunConfigInput,
  '$schema' | 'profile' | 'expectations' | 'faults' | 'variants'
> & {
  /** The target profile, or the path of its JSON file; required with `baseUrl`. */
  profile?: TargetProfile | string;
  /** Known failures of the target (gate mode): the path of an expectations file, or its parsed content. */
  expectations?: string | ExpectationsFile;
  /** Embedded server only. */
  faults?: FaultName[];
  variants?: VariantName[];
  interrupt?: AbortSignal;
};

export type { RunConfig };

/**
 * Checks `runConformance`'s options against the run configuration's schema and completes them with
 * the defaults; an unknown option or a value out of range throws a UsageError of one line.
 */
export async function resolveConformanceOptions(options: ConformanceOptions = {}): Promise<RunConfig> {
  const { interrupt: _signal, ...given } = options;
  const config = await resolveRunConfig({ api: given });
  if (config.dryRun) throw new UsageError("runConformance: dryRun is the CLI's (run --dry-run): nothing would run");
  return config;
}

export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const config = await resolveConformanceOptions(options);
  const catalogue = await loadCatalogue();
  const { groups, selection } = selectForRun(catalogue, config);
  const expectations =
    config.expectations !== undefined ? await resolveExpectations(config.expectations, catalogue) : undefined;
  const opened = await openTarget(config);
  try {
    const journalPath = journalPathOf(config);
    const outcome = await conductRun(
      groups,
      opened.target,
      { ...engineOptionsOf(config), interrupt: options.interrupt },
      {
        selection,
        reportsDir: config.reports,
        journalPath,
        expectations,
        waitLock: config.waitLock,
        links: artifactLinks(process.env),
        ...(config.history !== undefined ? { historyDir: config.history } : {}),
      },
    );
    if (!outcome.ok) throw new UsageError(`cannot run: ${outcome.reason}`);
    for (const warning of outcome.history?.warnings ?? []) process.emitWarning(warning);
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
