/**
 * The mutation run: the suite against the reference server with one named
 * fault at a time. A fault is caught when the rule that owns it FAILs with a
 * violation at the declared place; it is caught cleanly when the rules named
 * beside it FAIL and nothing else does, the rules it declares SKIP for the
 * reason it gives and nothing else does, and no rule ends in ERROR.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { embeddedTiming, type Timing } from '../core/timing.ts';
import { join } from 'node:path';
import type { RunResult, Verdict } from '../core/types.ts';
import { FAULTS, FAULT_NAMES, type FaultName } from '../reference-server/faults.ts';
import { startReferenceServer } from '../reference-server/index.ts';
import { loadCatalogue } from '../runner/catalogue.ts';
import type { RuleGroup } from '../rules/types.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules, type EngineOptions } from '../runner/run-rules.ts';
import { CATCHES, type Catch } from './fault-catches.ts';
import type { Place } from './place.ts';
import { parseJsonText } from '../core/json-text.ts';
import { HarRecorder } from '../report/har.ts';
import { allRules } from '../runner/catalogue.ts';
import { recordedExchanges } from '../runner/recorded-traffic.ts';
import { verdictsNotFollowing } from '../runner/rejudge.ts';
import { checkedFile } from '../schemas/files.ts';
import type { Rule } from '../rules/types.ts';
import type { TargetProfile } from '../target/profile.ts';

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
  /** Rules named in `alsoFails` that did not FAIL (with their verdict). */
  alsoPassed: string[];
  /** SKIPs the catch does not declare (with their reason), and declared ones that did not happen. */
  undeclaredSkips: string[];
  /** Rules that ended in ERROR (with their reason): a mutation run must be clean. */
  errors: string[];
  /** Rules the run's own HAR, judged again, gives another verdict (see rejudgedOtherwise). */
  rejudgedOtherwise: string[];
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

/** The faulty servers' seed (their directory, and where their now-and-then departures fall) unless a run gives one. */
export const MUTATION_SERVER_SEED = 7;

export async function runAgainstReference(
  faults: FaultName[],
  groups?: readonly RuleGroup[],
  options = MUTATION_OPTIONS,
  resources = MUTATION_RESOURCES,
): Promise<RunResult> {
  return (await runWithProfile(faults, groups, options, resources)).run;
}

/** The run, and the profile the server described itself with (what its judges read). */
async function runWithProfile(
  faults: FaultName[],
  groups: readonly RuleGroup[] | undefined,
  options: EngineOptions,
  resources: number,
  serverSeed = MUTATION_SERVER_SEED,
  timing: Timing = embeddedTiming(),
): Promise<{ run: RunResult; profile: TargetProfile }> {
  const server = await startReferenceServer({ seed: serverSeed, resources, faults, timing });
  try {
    const run = await runRules(
      [...(groups ?? (await loadCatalogue()))],
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile, timing },
      options,
    );
    return { run, profile: server.profile };
  } finally {
    await server.close();
  }
}

/**
 * One fault's run. With a `seed`, the suite draws from it and the faulty
 * server is generated from it (its directory, and where a departure one time
 * in N falls in its count): another seed, another run, caught the same. The
 * suite and the faulty server share `timing` (the embedded server's short
 * windows unless a caller proves the catch under a real target's). With
 * `only`, just those rules of the catalogue run (runMutationWithin).
 */
export async function runMutation(
  fault: FaultName,
  groups?: readonly RuleGroup[],
  seed?: number,
  timing: Timing = embeddedTiming(),
  only?: ReadonlySet<string>,
): Promise<MutationOutcome> {
  const started = performance.now();
  const expected = CATCHES[fault];
  const har = new HarRecorder(new Date().toISOString());
  const catalogue = groups ?? (await loadCatalogue());
  const selected = only
    ? catalogue.map((g) => ({ ...g, rules: g.rules.filter((r) => only.has(r.id)) })).filter((g) => g.rules.length > 0)
    : catalogue;
  const { run, profile } = await runWithProfile(
    [fault],
    selected,
    { ...MUTATION_OPTIONS, ...(seed !== undefined ? { seed } : {}), onExchange: (ruleId, e) => har.add(ruleId, e) },
    expected.resources ?? MUTATION_RESOURCES,
    seed,
    timing,
  );
  return {
    fault,
    expected,
    ...judgeCatch(run, expected),
    rejudgedOtherwise: rejudgedOtherwise(run, har, allRules(catalogue), profile),
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * The quick proof's run of one fault: only the rules whose traffic reaches it
 * (fault-reach.ts). What it shows of the owner is what the whole catalogue's
 * run shows; the verdicts beside it may differ (which resources the claims
 * give each rule depends on what else runs), which the full run holds.
 */
export function runMutationWithin(
  fault: FaultName,
  catalogue: readonly RuleGroup[],
  rules: ReadonlySet<string>,
): Promise<MutationOutcome> {
  return runMutation(fault, catalogue, undefined, embeddedTiming(), rules);
}

/**
 * The run judged again from its own HAR, as anyone holding it could: the
 * rules whose verdict the recording does not give (verdictsNotFollowing).
 */
export function rejudgedOtherwise(
  run: RunResult,
  har: HarRecorder,
  rules: readonly Rule[],
  profile: TargetProfile,
): string[] {
  const recorded = recordedExchanges(
    checkedFile('HarFile', parseJsonText(har.render({ name: 'directory-conformance', version: '0' })), 'exchanges.har'),
  );
  return verdictsNotFollowing(run.results, recorded, rules, profile).otherwise;
}

/** A catch as fault-catches.ts writes one, for any rule (a rule not yet in the catalogue too). */
export interface CatchOf {
  rule: string;
  where: Place;
  alsoFails?: readonly string[];
  skips?: Readonly<Record<string, string | undefined>>;
  /** The rule whose requests must show it, when the owner's own cannot. */
  finder?: string;
}

/**
 * What a run against a faulty server shows of a catch: did its rule FAIL at
 * its place, every rule named beside it FAIL, every SKIP come as declared or
 * blocked by a rule the catch lets fail,
 * and nothing else fail?
 */
export function judgeCatch(
  run: RunResult,
  expected: CatchOf,
): Pick<
  MutationOutcome,
  'caught' | 'reportedAt' | 'unexpected' | 'alsoPassed' | 'undeclaredSkips' | 'errors' | 'verdicts'
> {
  const owner = run.results.find((r) => r.ruleId === expected.rule);
  const reportedAt = owner?.violations.map((v) => v.where) ?? [];
  const allowed = new Set<string>([expected.rule, ...(expected.alsoFails ?? [])]);
  const verdictOf = (id: string): string => run.results.find((r) => r.ruleId === id)?.verdict ?? 'not run';
  const declared = expected.skips ?? {};
  const skipped = run.results.filter((r) => r.verdict === 'SKIP');
  // A catch that names its finder is made by that rule's requests: the owner's judge is proven on its log.
  const atPlace = (owner?.violations ?? []).filter(
    (v) => expected.where.shownBy(v.where) && (expected.finder === undefined || v.foundBy === expected.finder),
  );
  return {
    caught: owner?.verdict === 'FAIL' && atPlace.length > 0,
    reportedAt,
    // Each with its first violation: a FAIL that comes only now and then is told apart by what it says.
    unexpected: run.results
      .filter((r) => r.verdict === 'FAIL' && !allowed.has(r.ruleId))
      .map((r) => {
        const v = r.violations[0];
        return v ? `${r.ruleId} (${v.where}: ${v.message})` : r.ruleId;
      }),
    alsoPassed: (expected.alsoFails ?? [])
      .filter((id) => verdictOf(id) !== 'FAIL')
      .map((id) => `${id}: ${verdictOf(id)}`),
    undeclaredSkips: [
      ...skipped
        .filter((r) => {
          // Stopped by a shared step at the departure of a rule the catch lets fail: what the fault does, derived.
          if (r.blockedBy !== undefined && allowed.has(r.blockedBy) && declared[r.ruleId] === undefined) return false;
          const why = declared[r.ruleId];
          return why === undefined || !(r.reason ?? '').includes(why);
        })
        .map((r) => `${r.ruleId}: SKIP undeclared (${r.reason ?? 'no reason'})`),
      ...Object.keys(declared)
        .filter((id) => verdictOf(id) !== 'SKIP')
        .map((id) => `${id}: declared SKIP, ${verdictOf(id)}`),
    ],
    errors: run.results.filter((r) => r.verdict === 'ERROR').map((r) => `${r.ruleId}: ${r.reason ?? ''}`),
    verdicts: Object.fromEntries(run.results.map((r) => [r.ruleId, r.verdict])),
  };
}

/** Nothing but what the catch declares: the named FAILs, the declared SKIPs, no ERROR. */
function cleanly(o: MutationOutcome): boolean {
  return o.unexpected.length + o.alsoPassed.length + o.undeclaredSkips.length + o.errors.length === 0;
}

/** fault × rule matrix as Markdown. */
export function renderMatrixMarkdown(outcomes: MutationOutcome[]): string {
  const caught = outcomes.filter((o) => o.caught).length;
  const clean = outcomes.filter((o) => o.caught && cleanly(o)).length;
  const lines = [
    `# Mutation score: ${caught}/${outcomes.length} faults caught (${clean} cleanly: by their rule at the declared place, every FAIL and SKIP as declared)`,
    '',
    '| fault | breaks | must be caught by | at | caught | also failing (named) | unexpected |',
    '|---|---|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| \`${o.fault}\` | ${FAULTS[o.fault].clause} | \`${o.expected.rule}\` | \`${String(o.expected.where)}\` | ${o.caught ? 'caught' : '**missed**'} | ${(o.expected.alsoFails ?? []).map((c) => `\`${c}\``).join(', ') || '—'} | ${[...o.unexpected, ...o.alsoPassed, ...o.undeclaredSkips, ...o.errors].map((c) => `\`${c}\``).join(', ') || '—'} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

/**
 * The figures the docs state of the mutation run, computed from its own
 * outcomes (never typed by hand): faults caught by their own rule, those
 * caught by that rule alone (no other rule FAILed), and the revocation
 * faults (revoke-*) the model-based sequences FAILed on.
 */
export interface MutationFigures {
  faults: number;
  caught: number;
  alone: number;
  revocationFaults: number;
  revocationByModel: number;
}

export function mutationFigures(outcomes: readonly MutationOutcome[]): MutationFigures {
  const failing = (o: MutationOutcome): string[] =>
    Object.entries(o.verdicts)
      .filter(([, v]) => v === 'FAIL')
      .map(([id]) => id);
  const revocation = outcomes.filter((o) => o.fault.startsWith('revoke-'));
  return {
    faults: outcomes.length,
    caught: outcomes.filter((o) => o.caught).length,
    alone: outcomes.filter((o) => o.caught && failing(o).every((id) => id === o.expected.rule)).length,
    revocationFaults: revocation.length,
    revocationByModel: revocation.filter((o) => failing(o).some((id) => id.endsWith('.model-sequences'))).length,
  };
}

/** Writes the fault × rule matrix, `<dir>/mutation-matrix.md` and `<dir>/mutation-matrix.json` (with its figures). */
export async function writeMatrix(outcomes: MutationOutcome[], dir = 'reports'): Promise<{ md: string; json: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { md: join(dir, 'mutation-matrix.md'), json: join(dir, 'mutation-matrix.json') };
  await writeFile(paths.md, renderMatrixMarkdown(outcomes));
  await writeFile(paths.json, renderMatrixJson(outcomes));
  return paths;
}

export function renderMatrixJson(outcomes: MutationOutcome[]): string {
  const rules = [...new Set(outcomes.flatMap((o) => Object.keys(o.verdicts)))].sort();
  return `${JSON.stringify(
    {
      figures: mutationFigures(outcomes),
      faults: outcomes.map((o) => ({
        name: o.fault,
        clause: FAULTS[o.fault].clause,
        rule: o.expected.rule,
        where: String(o.expected.where),
        caught: o.caught,
        unexpected: o.unexpected,
        alsoPassed: o.alsoPassed,
        undeclaredSkips: o.undeclaredSkips,
        errors: o.errors,
        durationMs: o.durationMs,
        failing: rules.filter((r) => o.verdicts[r] === 'FAIL'),
      })),
    },
    null,
    2,
  )}\n`;
}
