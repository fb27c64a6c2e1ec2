import { randomInt } from 'node:crypto';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { allRules, loadCatalogue, selectRules, shardRules } from '../rules/catalogue.ts';
import { LEVELS, type Level, type RuleResult, type RunResult, type RunSelection } from '../core/types.ts';
import type { RuleGroup } from '../rules/types.ts';
import { writeReports } from '../report/write-reports.ts';
import { prepareReportsDir } from '../report/reports-dir.ts';
import { HarRecorder } from '../report/har.ts';
import type { SummaryLinks } from '../report/summary-markdown.ts';
import { pendingChanges, readJournal } from '../runner/undo-journal.ts';
import { lockTarget, type TargetLock } from './target-lock.ts';
import { join } from 'node:path';
import { FAULTS, isFaultName } from '../reference-server/faults.ts';
import { VARIANTS, isVariantName } from '../reference-server/variants.ts';
import { preflight } from '../runner/preflight.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules, type EngineOptions, type RunTarget } from '../runner/run-rules.ts';
import { loadProfile } from '../target/load-profile.ts';
import { applyExpectations, gateRecord, loadExpectations, renderGate } from '../gate/expectations.ts';
import { summarise } from '../core/summarise.ts';
import { describeSelection } from '../report/selection.ts';
import { EXIT, exitCodeOf } from './exit-codes.ts';
import { RUN_HELP, namesHelp } from './help.ts';
import { toneOf, type Tone } from './terminal.ts';
import { shellWord } from '../report/shell-quote.ts';
import { Progress } from './progress.ts';
import { intOption, parseOptions } from './options.ts';
import { UsageError } from '../core/errors.ts';

export const DEFAULT_SERVICE_VERSION = '26.06.25';
/** Pacing against an external target unless --rate says otherwise: adapt to what the server says. */
export const EXTERNAL_DEFAULT_RATE = 'auto';

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
    io.out(RUN_HELP + namesHelp(Object.keys(FAULTS), Object.keys(VARIANTS)));
    return 0;
  }
  for (const level of values.level ?? []) {
    if (!(LEVELS as readonly string[]).includes(level))
      throw new UsageError(`--level must be MUST, INFERRED or OBSERVED, got ${JSON.stringify(level)}`);
  }
  const catalogue = await loadCatalogue();
  const selected = selectRules(catalogue, {
    rules: values.rule ?? [],
    sections: values.section ?? [],
    levels: (values.level ?? []) as Level[],
  });
  const shard = values.shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(values.shard);
  if (values.shard !== undefined && (!shard || Number(shard[1]) < 1 || Number(shard[1]) > Number(shard[2]))) {
    throw new UsageError(`--shard must be i/n with 1 <= i <= n, got ${JSON.stringify(values.shard)}`);
  }
  const groups = shard ? shardRules(selected, Number(shard[1]), Number(shard[2])) : selected;
  if (groups.length === 0) throw new UsageError('the selection matches no rule (see `directory-conformance rules`)');
  const selection: RunSelection = {
    ...(values.rule?.length ? { rules: values.rule } : {}),
    ...(values.section?.length ? { sections: values.section } : {}),
    ...(values.level?.length ? { levels: values.level as Level[] } : {}),
    ...(shard ? { shard: { index: Number(shard[1]), count: Number(shard[2]) } } : {}),
    catalogueSize: allRules(catalogue).length,
  };
  const minCoverage = coverageOption(values['min-coverage']);

  const baseUrl = values['base-url'] ?? env.DIRECTORY_BASE_URL;
  const external = baseUrl !== undefined;
  if (external) checkBaseUrl(baseUrl);
  if (external && (values.fault?.length || values.variant?.length))
    throw new UsageError('--fault and --variant apply to the embedded server only (omit --base-url)');
  const options: EngineOptions = {
    ...DEFAULT_ENGINE_OPTIONS,
    numRuns: intOption(values['num-runs'], 'num-runs', DEFAULT_ENGINE_OPTIONS.numRuns, 1),
    maxCommands: intOption(values['max-commands'], 'max-commands', 6, 1),
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
  const serviceVersion = values['service-version'] ?? DEFAULT_SERVICE_VERSION;
  const known = new Set(allRules(catalogue).map((r) => r.id));
  const expectations = values.expectations ? await loadExpectations(values.expectations, known) : undefined;

  if (!external) {
    for (const f of values.fault ?? [])
      if (!isFaultName(f)) throw new UsageError(`unknown fault ${JSON.stringify(f)}${nearest(f, Object.keys(FAULTS))}`);
    for (const v of values.variant ?? [])
      if (!isVariantName(v))
        throw new UsageError(`unknown variant ${JSON.stringify(v)}; the variants: ${Object.keys(VARIANTS).join(', ')}`);
  }
  const reportsDir = values.reports ?? 'reports';
  const shareOfShard = (profile: RunTarget['profile']): RunTarget['profile'] =>
    // Shards change disjoint shares of the mutable resources, so sharded runs never share one.
    shard
      ? { ...profile, mutableResources: shareOf(profile.mutableResources, Number(shard[1]), Number(shard[2])) }
      : profile;

  let target: RunTarget | undefined;
  if (external) {
    const profilePath = values.profile ?? env.DIRECTORY_PROFILE;
    if (!profilePath) throw new UsageError('--profile is required with --base-url (see fixtures/example-profile.json)');
    const profile = await loadProfile(profilePath);
    const restricted = values['restricted-api-key'] ?? env.DIRECTORY_RESTRICTED_API_KEY;
    if (restricted) profile.restrictedApiKey = restricted;
    const apiKey = values['api-key'] ?? env.DIRECTORY_API_KEY;
    const replayArgs = [
      `--base-url ${shellWord(baseUrl)}`,
      `--profile ${shellWord(profilePath)}`,
      ...(options.allowMutations ? ['--allow-mutations'] : []),
      ...(serviceVersion !== DEFAULT_SERVICE_VERSION ? [`--service-version ${serviceVersion}`] : []),
    ].join(' ');
    target = { baseUrl, serviceVersion, profile: shareOfShard(profile), replayArgs, ...(apiKey ? { apiKey } : {}) };
  }
  // Against someone else's server the changes are journaled before they are made (restore command).
  const journalPath =
    external && options.allowMutations && !options.readOnly ? join(reportsDir, 'journal.jsonl') : undefined;
  const interrupts = new Interrupts(io, journalPath);
  let lock: TargetLock | undefined;
  let server: ReferenceServer | undefined;
  try {
    if (journalPath && target && !values['dry-run']) {
      // Before the reports folder is touched: a run refused here leaves an earlier run's reports and journal as they are.
      lock = await lockTarget(
        target.baseUrl,
        target.profile.mutableResources.map((r) => r.id),
        { wait: values['wait-lock'] === true },
      );
      await refusePendingJournal(journalPath);
    }
    if (!values['dry-run']) await prepareReportsDir(reportsDir);
    if (!target) {
      server = await startReferenceServer({
        ...(values.resources ? { resources: intOption(values.resources, 'resources', 200, 10) } : {}),
        ...(values.fault?.length ? { faults: values.fault } : {}),
        ...(values.variant?.length ? { variants: values.variant } : {}),
      });
      const replayArgs = [
        ...(values.resources ? [`--resources ${values.resources}`] : []),
        ...(values.fault ?? []).map((f) => `--fault ${shellWord(f)}`),
        ...(values.variant ?? []).map((v) => `--variant ${shellWord(v)}`),
      ].join(' ');
      target = {
        baseUrl: server.url,
        serviceVersion,
        apiKey: server.apiKey,
        profile: shareOfShard(server.profile),
        ...(replayArgs ? { replayArgs } : {}),
      };
      io.out(
        `embedded reference server at ${server.url}${values.fault?.length ? ` with fault(s) ${values.fault.join(', ')}` : ''}`,
      );
    }
    if (values['dry-run']) {
      printPlan(groups, target, options, io);
      return 0;
    }
    const reachable = await preflight(target, options.requestTimeoutMs);
    if (!reachable.ok) {
      io.err(`cannot run: ${reachable.reason}`);
      return EXIT.usage;
    }
    const total = groups.reduce((n, g) => n + g.rules.length, 0);
    let done = 0;
    const progress =
      values.quiet || values.verbose
        ? undefined
        : new Progress(total, groups, { line: io.out, ...(io.live ? { live: io.live } : {}) });
    interrupts.listen();
    const har = new HarRecorder(new Date().toISOString());
    const run = await runRules(groups, target, {
      ...options,
      onExchange: (ruleId, e) => har.add(ruleId, e),
      ...(journalPath ? { journalPath } : {}),
      interrupt: interrupts.signal,
      onRuleStart(rule) {
        progress?.ruleStarted(rule);
      },
      onRuleEnd(result) {
        done += 1;
        progress?.ruleEnded(result);
        if (values.verbose) io.out(progressLine(result, done, total));
      },
    }).finally(() => progress?.stop());
    if (interrupts.received) run.interrupted = { signal: interrupts.received };
    run.selection = selection;
    let gateLines: string[] = [];
    if (expectations && values.expectations) {
      const gate = applyExpectations(run.results, expectations, new Date().toISOString().slice(0, 10));
      run.gate = gateRecord(values.expectations, gate);
      // Known failures neither fail the run nor make it inconclusive; everything else counts as usual.
      const excused = new Set(gate.knownFailures.map((k) => k.result.ruleId));
      run.summary = summarise(run.results, { ...run.options, excused });
      gateLines = renderGate(gate);
    }
    const paths = await writeReports(run, reportsDir, { har, links: artifactLinks(env) });
    printSummary(run, io);
    for (const line of gateLines) io.out(line);
    io.out(`reports: ${paths.html}  ${paths.junit}  ${paths.json}`);
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
    await lock?.release();
    await server?.close();
  }
}

/** The `i`-th of `n` shares of the resources (1-based), taken in turn so each share mixes kinds. */
export function shareOf<T>(resources: readonly T[], i: number, n: number): T[] {
  return resources.filter((_, index) => index % n === i - 1);
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
    this.controller.abort();
  }
}

/** A journal an earlier run left with changes not put back: restore first, or the original state is lost. */
async function refusePendingJournal(path: string): Promise<void> {
  let pending: number;
  try {
    pending = pendingChanges(await readJournal(path)).length;
  } catch {
    return;
  }
  if (pending > 0) {
    throw new UsageError(
      `an earlier run left ${pending} change(s) not put back in ${path}: run \`directory-conformance restore ${path}\` first`,
      { seeHelp: false },
    );
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

/** On GitHub Actions, the run's page (where its artifacts are) for the Markdown summary. */
function artifactLinks(env: NodeJS.ProcessEnv): SummaryLinks {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  return server && repo && id ? { reports: `${server}/${repo}/actions/runs/${id}#artifacts` } : {};
}

/** A few known names that share the unknown one's first word, to point at a typo. */
function nearest(name: string, known: readonly string[]): string {
  const head = name.split('-')[0] ?? name;
  const near = known.filter((k) => k.startsWith(`${head}-`)).slice(0, 6);
  return near.length > 0
    ? `; faults starting with "${head}-": ${near.join(', ')}${near.length === 6 ? ', …' : ''}`
    : '';
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
