/**
 * The mutation run: the suite against the reference server with one named
 * fault at a time. A fault is caught when the rule it targets FAILs; it is
 * caught cleanly when no other MUST rule FAILs (a fault that trips many rules
 * means a check is too broad).
 */
import { startReferenceServer } from '../reference-server/index.ts';
import { loadCatalogue } from '../rules/catalogue.ts';
import { citedClauses } from '../rules/clauses.ts';
import type { RunResult } from '../core/types.ts';
import type { RuleGroup } from '../rules/types.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules, type EngineOptions } from '../runner/run-rules.ts';

export interface FaultUnderTest {
  name: string;
  /** The rule that must catch it. */
  rule: string;
  clause: string;
  description: string;
}

export interface MutationOutcome {
  fault: FaultUnderTest;
  caught: boolean;
  /** MUST rules other than the target that failed. */
  collateral: string[];
  /** Rules that ended in ERROR (harness faults). */
  errors: string[];
  durationMs: number;
  verdicts: Record<string, string>;
}

export const MUTATION_OPTIONS: EngineOptions = {
  ...DEFAULT_ENGINE_OPTIONS,
  allowMutations: true,
  numRuns: 8,
  seed: 20261122,
  concurrency: 4,
};

export async function runAgainstReference(
  faults: string[],
  groups?: readonly RuleGroup[],
  options = MUTATION_OPTIONS,
): Promise<RunResult> {
  const server = await startReferenceServer({ seed: 7, resources: 120, faults });
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

/**
 * Rules are related when they cite a common clause (a property and the
 * example rule of the same clause both catch its fault); any other MUST rule
 * that fails is collateral: its check is too broad.
 */
function relatedTo(target: string, groups: readonly RuleGroup[]): (clause: string) => boolean {
  const rule = groups.flatMap((g) => g.rules).find((r) => r.id === target);
  const cited = new Set(
    rule ? citedClauses(rule.clause).filter((c) => c.includes(' rule ') || !rule.clause.includes(' rule ')) : [],
  );
  return (clause) => citedClauses(clause).some((c) => cited.has(c));
}

export async function runMutation(fault: FaultUnderTest, groups?: readonly RuleGroup[]): Promise<MutationOutcome> {
  const started = performance.now();
  const catalogue = groups ?? (await loadCatalogue());
  const run = await runAgainstReference([fault.name], catalogue);
  const verdicts = Object.fromEntries(run.results.map((r) => [r.ruleId, r.verdict]));
  const related = relatedTo(fault.rule, catalogue);
  return {
    fault,
    caught: verdicts[fault.rule] === 'FAIL',
    collateral: run.results
      .filter((r) => r.level === 'MUST' && r.verdict === 'FAIL' && r.ruleId !== fault.rule && !related(r.clause))
      .map((r) => r.ruleId),
    errors: run.results.filter((r) => r.verdict === 'ERROR').map((r) => `${r.ruleId}: ${r.reason ?? ''}`),
    durationMs: Math.round(performance.now() - started),
    verdicts,
  };
}

/** fault × rule matrix as Markdown: C = the target rule caught it, x = another rule failed too. */
export function renderMatrixMarkdown(outcomes: MutationOutcome[]): string {
  const caught = outcomes.filter((o) => o.caught).length;
  const clean = outcomes.filter((o) => o.caught && o.collateral.length === 0).length;
  const lines = [
    `# Mutation score: ${caught}/${outcomes.length} faults caught (${clean} by their rule alone)`,
    '',
    '| fault | breaks | must be caught by | caught | other MUST rules failing |',
    '|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| \`${o.fault.name}\` | ${o.fault.clause} | \`${o.fault.rule}\` | ${o.caught ? 'caught' : '**missed**'} | ${o.collateral.map((c) => `\`${c}\``).join(', ') || '—'} |`,
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
        name: o.fault.name,
        clause: o.fault.clause,
        rule: o.fault.rule,
        caught: o.caught,
        collateral: o.collateral,
        durationMs: o.durationMs,
        failing: rules.filter((r) => o.verdicts[r] === 'FAIL'),
      })),
    },
    null,
    2,
  )}\n`;
}
