/**
 * The mutation run: the suite against the reference server with one named
 * fault at a time. A fault is caught when the rule that owns it FAILs with a
 * violation at the declared place; it is caught cleanly when nothing else
 * FAILs but the rules named beside it and no rule ends in ERROR.
 */
import type { RunResult, Verdict } from '../core/types.ts';
import { FAULTS, FAULT_NAMES, type FaultName } from '../reference-server/faults.ts';
import { startReferenceServer } from '../reference-server/index.ts';
import { loadCatalogue } from '../runner/catalogue.ts';
import type { RuleGroup } from '../rules/types.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules, type EngineOptions } from '../runner/run-rules.ts';
import { CATCHES, type Catch } from './fault-catches.ts';

export { FAULT_NAMES };

export interface MutationOutcome {
  fault: FaultName;
  expected: Catch;
  /** The owning rule FAILed with a violation at the declared place. */
  caught: boolean;
  /** The `where` of every violation of the owning rule. */
  reportedAt: string[];
  /** Rules that FAILed beside the owner without being named in `alsoFails`. */
  unexpected: string[];
  /** Rules that ended in ERROR (with their reason): a mutation run must be clean. */
  errors: string[];
  durationMs: number;
  verdicts: Record<string, Verdict>;
}

export const MUTATION_OPTIONS: EngineOptions = {
  ...DEFAULT_ENGINE_OPTIONS,
  // Each property makes its own number of runs, as in a user's run: the proof is of what users run.
  allowMutations: true,
  seed: 20261122,
  concurrency: 4,
};

/** Size of the faulty servers' directory unless a fault needs a larger one. */
export const MUTATION_RESOURCES = 120;

export async function runAgainstReference(
  faults: FaultName[],
  groups?: readonly RuleGroup[],
  options = MUTATION_OPTIONS,
  resources = MUTATION_RESOURCES,
): Promise<RunResult> {
  const server = await startReferenceServer({ seed: 7, resources, faults });
  try {
    return await runRules(
      [...(groups ?? (await loadCatalogue()))],
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
      options,
    );
  } finally {
    await server.close();
  }
}

export async function runMutation(fault: FaultName, groups?: readonly RuleGroup[]): Promise<MutationOutcome> {
  const started = performance.now();
  const expected = CATCHES[fault];
  const run = await runAgainstReference([fault], groups, MUTATION_OPTIONS, expected.resources);
  return { fault, expected, ...judgeCatch(run, expected), durationMs: Math.round(performance.now() - started) };
}

/** A catch as fault-catches.ts writes one, for any rule (a rule not yet in the catalogue too). */
export interface CatchOf {
  rule: string;
  where: string;
  alsoFails?: readonly string[];
}

/** What a run against a faulty server shows of a catch: did its rule FAIL at its place, and nothing else fail? */
export function judgeCatch(
  run: RunResult,
  expected: CatchOf,
): Pick<MutationOutcome, 'caught' | 'reportedAt' | 'unexpected' | 'errors' | 'verdicts'> {
  const owner = run.results.find((r) => r.ruleId === expected.rule);
  const reportedAt = owner?.violations.map((v) => v.where) ?? [];
  const allowed = new Set<string>([expected.rule, ...(expected.alsoFails ?? [])]);
  return {
    caught: owner?.verdict === 'FAIL' && reportedAt.some((where) => where.includes(expected.where)),
    reportedAt,
    unexpected: run.results.filter((r) => r.verdict === 'FAIL' && !allowed.has(r.ruleId)).map((r) => r.ruleId),
    errors: run.results.filter((r) => r.verdict === 'ERROR').map((r) => `${r.ruleId}: ${r.reason ?? ''}`),
    verdicts: Object.fromEntries(run.results.map((r) => [r.ruleId, r.verdict])),
  };
}

/** fault × rule matrix as Markdown. */
export function renderMatrixMarkdown(outcomes: MutationOutcome[]): string {
  const caught = outcomes.filter((o) => o.caught).length;
  const clean = outcomes.filter((o) => o.caught && o.unexpected.length === 0 && o.errors.length === 0).length;
  const lines = [
    `# Mutation score: ${caught}/${outcomes.length} faults caught (${clean} cleanly: by their rule at the declared place, nothing unexpected)`,
    '',
    '| fault | breaks | must be caught by | at | caught | also failing (named) | unexpected |',
    '|---|---|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| \`${o.fault}\` | ${FAULTS[o.fault].clause} | \`${o.expected.rule}\` | \`${o.expected.where}\` | ${o.caught ? 'caught' : '**missed**'} | ${(o.expected.alsoFails ?? []).map((c) => `\`${c}\``).join(', ') || '—'} | ${[...o.unexpected, ...o.errors].map((c) => `\`${c}\``).join(', ') || '—'} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

export function renderMatrixJson(outcomes: MutationOutcome[]): string {
  const rules = [...new Set(outcomes.flatMap((o) => Object.keys(o.verdicts)))].sort();
  return `${JSON.stringify(
    {
      faults: outcomes.map((o) => ({
        name: o.fault,
        clause: FAULTS[o.fault].clause,
        rule: o.expected.rule,
        where: o.expected.where,
        caught: o.caught,
        unexpected: o.unexpected,
        errors: o.errors,
        durationMs: o.durationMs,
        failing: rules.filter((r) => o.verdicts[r] === 'FAIL'),
      })),
    },
    null,
    2,
  )}\n`;
}
