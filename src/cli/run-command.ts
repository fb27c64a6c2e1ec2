import { randomInt } from 'node:crypto';
import { loadCatalogue } from '../rules/catalogue.ts';
import { LEVELS, type Level, type RuleResult, type RunResult } from '../core/types.ts';
import type { RuleGroup } from '../rules/types.ts';
import { pendingChanges, readJournal } from '../runner/undo-journal.ts';
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions, type RunTarget } from '../runner/run-rules.ts';
import { renderGate } from '../gate/expectations.ts';
import { describeSelection } from '../report/selection.ts';
import {
  DEFAULT_SERVICE_VERSION,
  EXTERNAL_DEFAULT_RATE,
  artifactLinks,
  checkBaseUrl,
  conductRun,
  journalPathOf,
  openTarget,
  parseShard,
  resolveExpectations,
  selectForRun,
} from '../session/run-session.ts';
import { FAULT_NAMES } from '../reference-server/faults.ts';
import { VARIANT_NAMES } from '../reference-server/variants.ts';
import { faultNames, variantNames } from './embedded-names.ts';
import { EXIT, exitCodeOf } from './exit-codes.ts';
import { RUN_HELP, namesHelp } from './help.ts';
import { toneOf, type Tone } from './terminal.ts';
import { Progress } from './progress.ts';
import { intOption, parseOptions } from './options.ts';
import { UsageError } from '../core/errors.ts';

export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** A terminal's live status line; absent when output is not a terminal (or TERM is dumb). */
  live?(text: string): void;
  /** Colours a word on a terminal that takes colour (see terminal.ts); plain elsewhere. */
  paint?(text: string, tone: Tone): string;
}

/** A verdict or outcome word, coloured when the output takes colour. */
function word(io: Output, text: string): string {
  const tone = toneOf(text);
  return tone && io.paint ? io.paint(text, tone) : text;
}

const RUN_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'restricted-api-key': { type: 'string' },
  profile: { type: 'string' },
  'service-version': { type: 'string' },
  'allow-mutations': { type: 'boolean' },
  strict: { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  concurrency: { type: 'string' },
  rate: { type: 'string' },
  'max-requests': { type: 'string' },
  timeout: { type: 'string' },
  rule: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  level: { type: 'string', multiple: true },
  seed: { type: 'string' },
  'num-runs': { type: 'string' },
  'max-commands': { type: 'string' },
  path: { type: 'string' },
  'replay-path': { type: 'string' },
  resources: { type: 'string' },
  fault: { type: 'string', multiple: true },
  variant: { type: 'string', multiple: true },
  reports: { type: 'string' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  expectations: { type: 'string' },
  shard: { type: 'string' },
  'wait-lock': { type: 'boolean' },
  'min-coverage': { type: 'string' },
  'fail-on-skip': { type: 'boolean' },
} as const;

export async function runCommand(argv: string[], io: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseOptions(argv, RUN_OPTIONS);
  if (values.help) {
    io.out(RUN_HELP + namesHelp(FAULT_NAMES, VARIANT_NAMES));
    return 0;
  }
  for (const level of values.level ?? []) {
    if (!(LEVELS as readonly string[]).includes(level))
      throw new UsageError(`--level must be MUST, INFERRED or OBSERVED, got ${JSON.stringify(level)}`);
  }
  const catalogue = await loadCatalogue();
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const { groups, selection } = selectForRun(catalogue, {
    rules: values.rule ?? [],
    sections: values.section ?? [],
    levels: (values.level ?? []) as Level[],
    ...(shard ? { shard } : {}),
  });
  const minCoverage = coverageOption(values['min-coverage']);

  const baseUrl = values['base-url'] ?? env.DIRECTORY_BASE_URL;
  const external = baseUrl !== undefined;
  if (external) checkBaseUrl(baseUrl);
  if (external && (values.fault?.length || values.variant?.length))
    throw new UsageError('--fault and --variant apply to the embedded server only (omit --base-url)');
  const options: EngineOptions = {
    ...DEFAULT_ENGINE_OPTIONS,
    ...(values['num-runs'] !== undefined ? { numRuns: intOption(values['num-runs'], 'num-runs', 1, 1) } : {}),
    ...(values['max-commands'] !== undefined
      ? { maxCommands: intOption(values['max-commands'], 'max-commands', 1, 1) }
      : {}),
    seed: intOption(values.seed, 'seed', randomInt(0, 2 ** 31 - 1)),
    ...(values.path ? { path: values.path } : {}),
    ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}),
    allowMutations: external ? values['allow-mutations'] === true : true,
    strict: values.strict === true,
    readOnly: values['read-only'] === true,
    concurrency: intOption(values.concurrency, 'concurrency', DEFAULT_ENGINE_OPTIONS.concurrency, 1),
    // Polite by default against someone else's server (adaptive); the embedded one needs no cap.
    ...rateOption(values.rate ?? (external ? EXTERNAL_DEFAULT_RATE : undefined)),
    maxRequests: intOption(values['max-requests'], 'max-requests', 0),
    requestTimeoutMs: intOption(values.timeout, 'timeout', DEFAULT_ENGINE_OPTIONS.requestTimeoutMs, 1),
    ...(minCoverage !== undefined ? { minCoverage } : {}),
    ...(values['fail-on-skip'] ? { failOnSkip: true } : {}),
  };
  const expectations = values.expectations ? await resolveExpectations(values.expectations, catalogue) : undefined;

  const faults = faultNames(values.fault);
  const variants = variantNames(values.variant);
  const reportsDir = values.reports ?? 'reports';
  const profilePath = values.profile ?? env.DIRECTORY_PROFILE;
  if (external && !profilePath)
    throw new UsageError('--profile is required with --base-url (see fixtures/example-profile.json)');
  const restricted = values['restricted-api-key'] ?? env.DIRECTORY_RESTRICTED_API_KEY;
  const apiKey = values['api-key'] ?? env.DIRECTORY_API_KEY;
  const opened = await openTarget({
    ...(external ? { baseUrl, profile: profilePath!, allowMutations: options.allowMutations } : {}),
    ...(external && apiKey ? { apiKey } : {}),
    ...(external && restricted ? { restrictedApiKey: restricted } : {}),
    serviceVersion: values['service-version'] ?? DEFAULT_SERVICE_VERSION,
    ...(values.resources ? { resources: intOption(values.resources, 'resources', 200, 10) } : {}),
    ...(faults.length ? { faults } : {}),
    ...(variants.length ? { variants } : {}),
    ...(shard ? { shard } : {}),
  });
  const { target } = opened;

  // Against someone else's server the changes are journaled before they are made (restore command).
  const journalPath = journalPathOf(external, options, reportsDir);
  const interrupts = new Interrupts(io, journalPath);
  try {
    if (values['dry-run']) {
      printPlan(groups, target, options, io);
      return 0;
    }
    const total = groups.reduce((n, g) => n + g.rules.length, 0);
    let done = 0;
    const progress =
      values.quiet || values.verbose
        ? undefined
        : new Progress(total, groups, { line: io.out, ...(io.live ? { live: io.live } : {}) });
    const outcome = await conductRun(
      groups,
      target,
      {
        ...options,
        interrupt: interrupts.signal,
        onRuleStart(rule) {
          progress?.ruleStarted(rule);
        },
        onRuleEnd(result) {
          done += 1;
          progress?.ruleEnded(result);
          if (values.verbose) io.out(progressLine(result, done, total));
        },
      },
      {
        selection,
        reportsDir,
        ...(journalPath ? { journalPath } : {}),
        ...(expectations ? { expectations } : {}),
        waitLock: values['wait-lock'] === true,
        links: artifactLinks(env),
        onReady: () => {
          // Said once the reports folder and preflight passed, just before the first rule.
          if (opened.server) {
            io.out(
              `embedded reference server at ${target.baseUrl}${values.fault?.length ? ` with fault(s) ${values.fault.join(', ')}` : ''}`,
            );
          }
          interrupts.listen();
        },
      },
    ).finally(() => progress?.stop());
    if (!outcome.ok) {
      io.err(`cannot run: ${outcome.reason}`);
      return EXIT.usage;
    }
    const { run, gate, paths } = outcome;
    printSummary(run, io);
    for (const line of gate ? renderGate(gate) : []) io.out(line);
    io.out(`reports: ${paths!.html}  ${paths!.junit}  ${paths!.json}`);
    if (interrupts.received) {
      if (journalPath) io.out(await journalSummary(journalPath));
      io.err(`interrupted by ${interrupts.received}: the verdicts cover only the rules that ran`);
      return interrupts.received === 'SIGINT' ? 130 : 143;
    }
    if (run.results.some((r) => r.errorCode === 'DC_ERR_UNAUTHENTICATED')) {
      io.err('the target refused the credential during the run (401): the verdicts are incomplete');
      return EXIT.usage;
    }
    return exitCodeOf(run.summary);
  } finally {
    interrupts.stop();
    await opened.close();
  }
}

/**
 * First SIGINT/SIGTERM: no rule starts any more; the rules running finish and
 * put back what they changed; the reports are written, marked interrupted.
 * A second one exits at once and says how to put the target back.
 */
class Interrupts {
  private readonly controller = new AbortController();
  received: 'SIGINT' | 'SIGTERM' | undefined;
  private readonly handlers = {
    SIGINT: (): void => this.on('SIGINT'),
    SIGTERM: (): void => this.on('SIGTERM'),
  };

  constructor(
    private readonly io: Output,
    private readonly journalPath: string | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  listen(): void {
    process.on('SIGINT', this.handlers.SIGINT);
    process.on('SIGTERM', this.handlers.SIGTERM);
  }

  stop(): void {
    process.off('SIGINT', this.handlers.SIGINT);
    process.off('SIGTERM', this.handlers.SIGTERM);
  }

  private on(signal: 'SIGINT' | 'SIGTERM'): void {
    if (this.received) {
      this.io.err(`${signal} again: exiting now, without restoring`);
      if (this.journalPath) this.io.err(`put the target back with: directory-conformance restore ${this.journalPath}`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    this.received = signal;
    this.io.err(
      `${signal}: no new rule starts; the rules running finish and put back what they changed (again to exit now)`,
    );
    // The reason names the signal: the run's record says which one stopped it.
    this.controller.abort(signal);
  }
}

/** What the journal says was put back, naming the resources. */
async function journalSummary(path: string): Promise<string> {
  const lines = await readJournal(path);
  const restored = [...new Set(lines.flatMap((l) => (l.event === 'restored' ? [l.resourceId] : [])))];
  const pending = pendingChanges(lines).map((l) => l.resourceId);
  if (pending.length > 0)
    return `${pending.length} change(s) not put back (resource(s) ${pending.join(', ')}): run \`directory-conformance restore ${path}\``;
  return restored.length > 0
    ? `restored: every change the run made was put back (resource(s) ${restored.join(', ')}); journal ${path}`
    : `restored: the run changed no resource; journal ${path}`;
}

/** `--min-coverage P`: a percentage of the rules the target can serve, 0 to 100 (a trailing % is allowed). */
function coverageOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new UsageError(`--min-coverage must be a percentage from 0 to 100, got ${JSON.stringify(value)}`);
  return n / 100;
}

/** `--rate auto` adapts to the server; `--rate N` is a fixed rate; `--rate 0` no cap. */
function rateOption(value: string | undefined): Pick<EngineOptions, 'ratePerSecond' | 'adaptiveRate'> {
  if (value === 'auto') return { ratePerSecond: 0, adaptiveRate: true };
  if (value !== undefined && !/^\d+$/.test(value))
    throw new UsageError(`--rate must be auto or an integer >= 0, got ${JSON.stringify(value)}`);
  return { ratePerSecond: intOption(value, 'rate', 0), adaptiveRate: false };
}

function progressLine(r: RuleResult, done: number, total: number): string {
  const detail =
    r.verdict === 'FAIL'
      ? ` — ${r.violations[0]?.where}: ${r.violations[0]?.message}`
      : r.reason
        ? ` — ${r.reason}`
        : '';
  return `[${String(done).padStart(3)}/${total}] ${r.verdict.padEnd(10)} ${r.ruleId} (${r.clause}, ${r.requestCount} req, ${r.durationMs} ms)${detail}`;
}

function printSummary(run: RunResult, io: Output): void {
  const s = run.summary;
  const counts = Object.entries(s.byVerdict)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  io.out('');
  io.out(`${word(io, OUTCOME_WORDS[s.outcome])}: ${counts}; selection: ${describeSelection(run)}`);
  io.out(
    `score ${pct(s.score)} of the MUST rules that reached a verdict; coverage ${pct(s.coverage)} of the selection (${s.ran} of ${s.total} rules ran), ${pct(s.servableCoverage)} of the ${s.servable} this target can serve (required ${pct(s.requiredCoverage)}); seed ${run.options.seed}`,
  );
  for (const reason of s.inconclusive) io.out(`  inconclusive: ${reason}`);
  if (s.inferred.failed > 0) {
    io.out(
      `${s.inferred.failed} INFERRED departure(s), counted apart${run.options.strict ? ' (--strict: they fail the run)' : ': they fail the run only with --strict'}`,
    );
  }
  const failed = run.results.filter((r) => r.verdict === 'FAIL' || r.verdict === 'ERROR');
  for (const r of failed) {
    const level = r.level === 'INFERRED' ? ' [INFERRED]' : '';
    io.out(`  ${word(io, r.verdict)}${level} ${r.ruleId}: ${r.violations[0]?.message ?? r.reason ?? ''}`);
  }
}

const OUTCOME_WORDS = {
  conformant: 'CONFORMANT',
  'not-conformant': 'NOT CONFORMANT',
  inconclusive: 'INCONCLUSIVE',
} as const;

function printPlan(groups: RuleGroup[], target: RunTarget, options: EngineOptions, io: Output): void {
  io.out(`plan against ${target.baseUrl} (Service-Version ${target.serviceVersion}); nothing is sent`);
  for (const g of groups) {
    for (const r of g.rules) {
      const runs =
        options.readOnly && r.mutates !== 'none'
          ? 'skip (read-only)'
          : r.mutates !== 'none' && !options.allowMutations
            ? 'skip (mutations not allowed)'
            : 'run';
      io.out(`  ${runs.padEnd(28)} ${r.id} [${r.level}, ${r.mutates === 'none' ? 'read' : `mutates: ${r.mutates}`}]`);
    }
  }
  const mutating = groups.flatMap((g) => g.rules).filter((r) => r.mutates !== 'none');
  if (mutating.length > 0 && options.allowMutations && !options.readOnly) {
    io.out(
      `mutating rules may send resources.revoke-roles, resources.assign-team, resources.assign-activity-rate and resources.unassign-activity-rate`,
    );
    io.out(`to these resources only: ${target.profile.mutableResources.map((r) => r.id).join(', ') || '(none)'}`);
  }
}
