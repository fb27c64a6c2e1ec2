import { loadCatalogue } from '../runner/catalogue.ts';
import { describeCounts, honestCounts } from '../core/summarise.ts';
import type { RuleResult, RunResult } from '../core/types.ts';
import type { RuleGroup } from '../rules/types.ts';
import { pendingChanges, readJournal } from '../runner/undo-journal.ts';
import type { EngineOptions, RunTarget } from '../runner/run-rules.ts';
import { renderGate } from '../gate/expectations.ts';
import { describeSelection } from '../report/selection.ts';
import { loadSigningKey } from '../session/bundle.ts';
import { RUN_OPTION_SCHEMAS, annotation } from '../schemas/run-config.ts';
import { CONFIG_FILE_NAME, resolveRunConfig } from '../session/run-config.ts';
import {
  artifactLinks,
  conductRun,
  engineOptionsOf,
  journalPathOf,
  openTarget,
  resolveExpectations,
  selectForRun,
} from '../session/run-session.ts';
import { EXIT, exitCodeOf } from './exit-codes.ts';
import { RUN_HELP } from './help.ts';
import { toneOf, type Tone } from './terminal.ts';
import { Progress } from './progress.ts';
import { printHistory } from './history-lines.ts';
import { parseOptions } from './options.ts';

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

/** `run`'s flags: one per option of the run configuration's schema, and `--config`. */
const RUN_FLAGS: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { config: { type: 'string' } };
for (const [option, schema] of RUN_OPTION_SCHEMAS) {
  const flag = annotation(option, 'flag');
  if (flag !== undefined)
    RUN_FLAGS[flag] =
      schema.type === 'boolean' ? { type: 'boolean' } : { type: 'string', multiple: schema.type === 'array' };
}

export async function runCommand(argv: string[], io: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseOptions(argv, RUN_FLAGS);
  if (values.help) {
    io.out(RUN_HELP);
    return 0;
  }
  const configPath = values.config;
  const config = await resolveRunConfig({
    flags: values,
    env,
    configFile:
      typeof configPath === 'string'
        ? { path: configPath, required: true }
        : { path: CONFIG_FILE_NAME, required: false },
    defaults: { reports: 'reports' },
  });
  const catalogue = await loadCatalogue();
  const { groups, selection } = selectForRun(catalogue, config);
  const options = engineOptionsOf(config);
  const expectations = config.expectations ? await resolveExpectations(config.expectations, catalogue) : undefined;
  const reportsDir = config.reports ?? 'reports';
  // A key that cannot sign is refused before the target is opened, as every bad option is.
  const signingKey = config.sign !== undefined ? await loadSigningKey(config.sign) : undefined;
  const opened = await openTarget(config);
  const { target } = opened;

  // Against someone else's server the changes are journaled before they are made (restore command).
  const journalPath = journalPathOf(config);
  const interrupts = new Interrupts(io, journalPath);
  try {
    if (config.dryRun) {
      printPlan(groups, target, options, io);
      return 0;
    }
    const total = groups.reduce((n, g) => n + g.rules.length, 0);
    // The verdict each rule ended with, as its line said it: the engine may change one at the end.
    const ended = new Map<string, RuleResult['verdict']>();
    // A line per rule, in order; in a terminal a live line instead, unless --verbose.
    const progress = config.quiet
      ? undefined
      : new Progress(total, { line: io.out, ...(io.live && !config.verbose ? { live: io.live } : {}) });
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
          ended.set(result.ruleId, result.verdict);
          progress?.ruleEnded(result);
        },
      },
      {
        selection,
        reportsDir,
        journalPath,
        expectations,
        waitLock: config.waitLock,
        links: artifactLinks(env),
        ...(config.history !== undefined ? { historyDir: config.history } : {}),
        ...(signingKey ? { signingKey } : {}),
        onReady: () => {
          // Said once the reports folder and preflight passed, just before the first rule.
          if (opened.server) {
            io.out(
              `embedded reference server at ${target.baseUrl}${config.faults.length ? ` with fault(s) ${config.faults.join(', ')}` : ''}`,
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
    const { run, gate, paths, history, bundle } = outcome;
    for (const line of chargedAtTheEnd(run, ended)) io.out(line);
    printSummary(run, io);
    if (history) printHistory(history, io);
    for (const line of gate ? renderGate(gate) : []) io.out(line);
    // The CLI always names a reports folder, so a run that got this far wrote its reports.
    if (paths) io.out(`reports: ${paths.html}  ${paths.junit}  ${paths.json}`);
    if (bundle) io.out(`signed: ${bundle} (check it with \`directory-conformance verify ${bundle} --public-key PEM\`)`);
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
 * Rules whose verdict changed after their group's line was printed: a
 * departure from their clause showed in another rule's requests (or the run
 * did not select them and they FAIL on it).
 */
function chargedAtTheEnd(run: RunResult, ended: ReadonlyMap<string, RuleResult['verdict']>): string[] {
  return run.results
    .filter((r) => r.verdict === 'FAIL' && ended.get(r.ruleId) !== 'FAIL')
    .map((r) => `${r.ruleId}: ${r.verdict}${r.reason ? ` — ${r.reason}` : ''}`);
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

function printSummary(run: RunResult, io: Output): void {
  const s = run.summary;
  const counts = Object.entries(s.byVerdict)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  io.out('');
  const honest = honestCounts(run.results);
  // A run that skipped more than a quarter of its rules says so first: its outcome covers only the rest.
  const skippedFirst = honest.mostlySkipped
    ? ` (${honest.skipped} of ${honest.total} rules skipped: the outcome covers only the rest)`
    : '';
  io.out(`${word(io, OUTCOME_WORDS[s.outcome])}${skippedFirst}: ${counts}; selection: ${describeSelection(run)}`);
  io.out(
    `${describeCounts(honest)}; score ${pct(s.score)} of the MUST rules that reached a verdict; coverage ${pct(s.coverage)} of the selection (${s.ran} of ${s.total} rules ran), ${pct(s.servableCoverage)} of the ${s.servable} this target can serve (required ${pct(s.requiredCoverage)}); seed ${run.options.seed}`,
  );
  for (const reason of s.inconclusive) io.out(`  inconclusive: ${reason}`);
  if (s.inferred.failed > 0) {
    io.out(
      `${s.inferred.failed} INFERRED departure(s), counted apart${run.options.strict ? ' (--strict: they fail the run)' : ': they fail the run only with --strict'}`,
    );
  }
  const failed = run.results.filter((r) => r.verdict === 'FAIL' || r.verdict === 'FLAKY' || r.verdict === 'ERROR');
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
