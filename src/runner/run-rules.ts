import type { Dispatcher } from 'undici';
import { dispatcherFor, redactConnection, type Connection } from '../client/connection.ts';
import { SharedReads } from '../client/shared-reads.ts';
import { DirectoryClient } from '../client/directory-client.ts';
import { ConformanceFailure, HarnessError, isHarnessError } from '../core/errors.ts';
import type { ApiResponse, Exchange } from '../core/exchange.ts';
import { Redactor } from '../client/redact.ts';
import { Pacer } from '../client/pacer.ts';
import type {
  InputCoverage,
  Observation,
  PropertyReplay,
  RuleResult,
  RunResult,
  TraceStep,
  Verdict,
  Violation,
} from '../core/types.ts';
import { inputCoverageOf } from './input-coverage.ts';
import { MAX_TIMER_MS, RUN_CONFIG_DEFAULTS, type RunConfig } from '../schemas/run-config.ts';
import type { BaseCheckContext, Need, Rule, RuleGroup } from '../rules/types.ts';
import type { TargetProfile } from '../target/profile.ts';
import { summarise } from '../core/summarise.ts';
import { SYSTEM_CLOCK, TARGET_TIMING, type Timing } from '../core/timing.ts';
import { durationMs } from '../core/duration.ts';
import { isConformanceFailure, isDepartureOfAnotherRule } from '../core/errors.ts';
import { allRules, loadCatalogue } from './catalogue.ts';
import { checkOwners, checksByRule } from './check-owners.ts';
import { chargeFindings, Findings, type FindingCheck, type RuleLookup } from './findings.ts';
import { confirmFindings, sendAgain } from './confirm-findings.ts';
import { driveAgain } from './drive-again.ts';
import { readsAgain, type Departure } from './reads-again.ts';
import { emptyResult } from './rule-result.ts';
import { provisions, unmetNeed, type NeedEnv, type Provisions } from '../rules/needs.ts';
import { ErrorAnswers } from './error-answers.ts';
import { FileJournal } from './undo-journal.ts';
import { ResourceClaims } from './resource-claims.ts';
import { PausableDeadline } from './deadline.ts';
import { MutationLog } from '../rules/own-mutations.ts';
import { enforce } from '../rules/assertions.ts';
import { ExchangeLog } from './rule-log.ts';
import type { Observed, SharedCheck } from '../rules/judges/observed.ts';
import type { RuleId } from '../rules/rule-ids.ts';
import { judgeLog } from '../rules/judges/fold.ts';
import { violationsOf, type Judgement } from '../rules/judges/judgement.ts';
import type { ExplainedStep } from '../rules/judges/trace.ts';
import { describeQuietDifference, QuietReads } from '../rules/quiet-reads.ts';
import { WIDE_RANGE } from '../rules/steps/assignations.ts';
import { leftOutAtDepth, runsAtDepth } from '../rules/depth.ts';
import { READ_OPERATIONS } from '../schemas/operations.ts';

export interface RunTarget {
  baseUrl: string;
  serviceVersion: string;
  apiKey?: string;
  profile: TargetProfile;
  /** Arguments of `run` that reach this target again, for replay commands in the reports. */
  replayArgs?: string;
  /** Extra headers, a proxy, extra CAs: how every request reaches the target. */
  connection?: Connection;
  /**
   * The windows this target keeps, on the clock it shares with the suite: a
   * server the suite started passes the timing it was started with
   * (embeddedTiming()); any other target gets TARGET_TIMING.
   */
  timing?: Timing;
}

/**
 * What the engine reads of the run configuration (src/schemas/run-config.ts),
 * taken as it is, and the hooks of whoever runs it.
 */
export type EngineOptions = Pick<
  RunConfig,
  | 'seed'
  | 'allowMutations'
  | 'readOnly'
  | 'strict'
  | 'failOnSkip'
  | 'numRuns'
  | 'depth'
  | 'maxCommands'
  | 'path'
  | 'replayPath'
  | 'concurrency'
  | 'rate'
  | 'maxRequests'
  | 'maxTime'
  | 'maxFailures'
  | 'requestTimeoutMs'
  | 'ruleTimeoutMs'
> & {
  /** Share (0..1) of the servable rules that must reach a verdict, as results.json records it. */
  minCoverage?: number;
  /** Aborted by an interrupt: no rule starts any more; properties stop drawing new runs. */
  interrupt?: AbortSignal;
  /** Requests in flight at most; 0 = no cap (default: 8 with the rate 'auto', no cap otherwise). */
  maxInFlight?: number;
  /** Where the write-ahead undo journal goes (external targets with mutations); none when absent. */
  journalPath?: string;
  /**
   * The properties' fixed examples left out: their runs are all drawn (the
   * mutation run's measure of what drawn runs alone find; never a user's run).
   */
  drawnOnly?: boolean;

  onRuleStart?: (rule: Rule, group: RuleGroup) => void;
  onRuleEnd?: (result: RuleResult) => void;
  /**
   * Every exchange of the run, as it happens (for the HAR export): a read one
   * rule shared from another's request comes again, marked `shared`, for the
   * rule that used it (its judge read it).
   */
  onExchange?: (ruleId: string, exchange: Exchange) => void;
  /**
   * Every judgement of a rule's log, with the evidence it read: an example
   * rule's whole log, each run of a property (shared reads included): what a
   * verdict can be judged again from.
   */
  onJudged?: (ruleId: string, evidence: readonly Observed[], judgement: Judgement) => void;
  dispatcher?: Dispatcher;
};

/** The clock and windows the run's waits read: the target's own, or a real target's. */
export function timingOf(target: Pick<RunTarget, 'timing'>): Timing {
  return target.timing ?? TARGET_TIMING;
}

/** Runs of a property that does not say how many it makes. */
export const DEFAULT_PROPERTY_RUNS = 25;

/** The configuration's defaults, with a fixed seed and no rate cap (the embedded server's). */
export const DEFAULT_ENGINE_OPTIONS: EngineOptions = { ...RUN_CONFIG_DEFAULTS, seed: 42, rate: 0 };

export const TOOL = { name: 'directory-conformance', version: '0.1.0' };

/** Needs implied by what a rule mutates, on top of what it declares. */
function needsOf(rule: Rule): Need[] {
  const needs = [...rule.needs];
  if (rule.mutates !== 'none') needs.push('mutableResource');
  if (rule.mutates === 'irreversible') needs.push('roleRevocation');
  return [...new Set(needs)];
}

/**
 * Runs the rules of `groups` against the target and decides every verdict.
 * `catalogue` is where a rule the run did not select is found when a selected
 * rule's requests show a departure from its clause (default: the catalogue
 * the loader finds, read only then).
 */
export async function runRules(
  groups: RuleGroup[],
  target: RunTarget,
  options: EngineOptions,
  catalogue?: readonly RuleGroup[],
): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const redactor = new Redactor();
  redactor.add(target.apiKey, '$DIRECTORY_API_KEY');
  redactor.add(target.profile.restrictedApiKey, '$DIRECTORY_RESTRICTED_API_KEY');
  redactConnection(redactor, target.connection);
  const dispatcher =
    options.dispatcher ??
    dispatcherFor(target.connection, { connections: Math.max(8, options.concurrency * 2), keepAliveTimeout: 10_000 });
  // A time budget is of real time (a CI job's limit), whatever the run's clock skips.
  const said = options.maxTime;
  const maxTimeMs = said === undefined ? undefined : durationMs(said);
  const budget = new Pacer({
    rate: options.rate,
    maxRequests: options.maxRequests,
    maxInFlight: options.maxInFlight,
    ...(said !== undefined && maxTimeMs !== undefined
      ? { timeBudget: { endsAt: SYSTEM_CLOCK.now() + maxTimeMs, now: SYSTEM_CLOCK.now, said } }
      : {}),
  });
  const sharedReads = new SharedReads();
  const base = new DirectoryClient({
    sharedReads,
    baseUrl: target.baseUrl,
    serviceVersion: target.serviceVersion,
    dispatcher,
    redactor,
    timeoutMs: options.requestTimeoutMs,
    budget,
    clock: timingOf(target).clock,
    ...(target.connection?.headers ? { extraHeaders: target.connection.headers } : {}),
    ...(target.apiKey ? { credential: { apiKey: target.apiKey, placeholder: '$DIRECTORY_API_KEY' } } : {}),
  });
  const errorAnswers = new ErrorAnswers();
  const journal = options.journalPath
    ? await FileJournal.create(options.journalPath, redactor, {
        baseUrl: target.baseUrl,
        serviceVersion: target.serviceVersion,
      })
    : undefined;
  const queue = groups.flatMap((group) => group.rules.map((rule) => ({ rule, group })));
  // A claim waits at most as long as every mutating rule could hold a resource in turn: a run always ends.
  const mutating = queue.filter((q) => q.rule.mutates !== 'none').length;
  const claims = new ResourceClaims(target.profile.mutableResources, {
    maxWaitMs: Math.min(MAX_TIMER_MS, options.ruleTimeoutMs * Math.max(1, mutating)),
  });
  const ruleResults: RuleResult[] = new Array<RuleResult>(queue.length);
  const findings = new Findings();
  // Whose a shared check is, in the whole catalogue (and the run's own groups): the selection may leave its owner out.
  const everyRule = [...allRules(catalogue ?? (await loadCatalogue())), ...allRules(groups)];
  const ownerOf = checkOwners(everyRule);
  const shared = {
    target,
    options,
    base,
    claims,
    redactor,
    errorAnswers,
    findings,
    ownerOf,
    ...(journal ? { journal } : {}),
  };

  // Fail fast (--max-failures): once that many rules FAILed, no rule starts any more.
  let failures = 0;
  const failedEnough = (): boolean => options.maxFailures !== undefined && failures >= options.maxFailures;
  const sideBySide = async (indices: number[], concurrency: number): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < indices.length) {
        const index = indices[next++]!;
        const { rule, group } = queue[index]!;
        if (options.interrupt?.aborted || failedEnough()) {
          ruleResults[index] = options.interrupt?.aborted
            ? notStarted(rule, group)
            : stoppedEarly(rule, group, failures);
          continue;
        }
        options.onRuleStart?.(rule, group);
        const result = await runOne(rule, group, { ...shared, holder: String(index) });
        ruleResults[index] = result;
        if (result.verdict === 'FAIL') failures += 1;
        options.onRuleEnd?.(result);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  };
  // Rules that cannot be undone run after the others, one at a time, in catalogue order: they never
  // starve the rules that hand resources back, and the state each finds does not depend on the
  // concurrency. Rules that judge what the whole run received start once every other rule has ended.
  const indices = queue.map((_, i) => i);
  const judges = (i: number): boolean => queue[i]!.rule.judges !== undefined;
  let checks: Map<string, FindingCheck> | undefined;
  const irreversible = (i: number): boolean => queue[i]!.rule.mutates === 'irreversible';
  try {
    await sideBySide(
      indices.filter((i) => !judges(i) && !irreversible(i)),
      options.concurrency,
    );
    // Alone, they may move a clock shared with the server on instead of sleeping (core/timing.ts).
    await timingOf(target).clock.alone(() =>
      sideBySide(
        indices.filter((i) => !judges(i) && irreversible(i)),
        1,
      ),
    );
    await sideBySide(indices.filter(judges), options.concurrency);
    // Every departure a rule's requests showed from another rule's clause makes that rule FAIL, once the
    // request that showed it, sent again, shows it again (confirm-findings.ts); FLAKY when it does not. Sent
    // again or driven again, its reads stand once the server answered them the same way twice (agreed-reads.ts):
    // an answer spoiled on its way, a status changed within its class above all, could pass for the repeat.
    if (findings.size > 0 && !options.interrupt?.aborted) {
      checks = await confirmFindings(
        findings,
        (owner) =>
          base.derive({
            sharedReads: undefined,
            agreedReads: true,
            onExchange: (e) => {
              e.rule = owner;
              options.onExchange?.(owner, e);
            },
          }),
        async (finder) => {
          // Driven again for what it finds, once every rule has ended (the resources are free): a
          // revocation cannot be, its first attempt's resource unknown here.
          const entry = queue.find((q) => q.rule.id === finder);
          if (!entry || entry.rule.mutates === 'irreversible') return undefined;
          const found = new Findings();
          await runAttempt(entry.rule, entry.group, {
            ...shared,
            findings: found,
            confirming: true,
            agreedReads: entry.rule.repeats === undefined,
            holder: `confirming ${finder}`,
          });
          return found;
        },
        checksByRule(everyRule),
      );
    }
  } finally {
    if (!options.dispatcher) await dispatcher.close();
    await journal?.close();
  }
  const results = chargeFindings(ruleResults, findings, await lookupIn(catalogue, findings, ruleResults), checks);
  return {
    tool: TOOL,
    target: {
      baseUrl: redactor.redact(target.baseUrl),
      serviceVersion: target.serviceVersion,
      ...(target.profile.name ? { profileName: target.profile.name } : {}),
      ...(target.replayArgs ? { replayArgs: redactor.redact(target.replayArgs) } : {}),
    },
    options: {
      ...(options.strict ? { strict: true } : {}),
      ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
      ...(options.depth !== 'default' ? { depth: options.depth } : {}),
      ...(options.maxCommands !== undefined ? { maxCommands: options.maxCommands } : {}),
      seed: options.seed,
      allowMutations: options.allowMutations,
      ...(options.path ? { path: options.path } : {}),
      ...(options.replayPath ? { replayPath: options.replayPath } : {}),
      ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
      ...(options.failOnSkip ? { failOnSkip: true } : {}),
    },
    startedAt,
    finishedAt: new Date().toISOString(),
    results,
    summary: summarise(results, options),
    requests: {
      total: results.reduce((sum, r) => sum + r.requestCount, 0),
      budget: options.maxRequests > 0 ? options.maxRequests : null,
      ...(sharedReads.hits > 0 ? { shared: sharedReads.hits } : {}),
    },
    ...withInputCoverage(results),
  };
}

function withInputCoverage(results: readonly RuleResult[]): { inputCoverage?: InputCoverage[] } {
  const coverage = inputCoverageOf(results);
  return coverage.length > 0 ? { inputCoverage: coverage } : {};
}

/** Where the owners of findings are found: only a finding for a rule outside the selection needs the catalogue. */
async function lookupIn(
  catalogue: readonly RuleGroup[] | undefined,
  findings: Findings,
  selected: readonly RuleResult[],
): Promise<RuleLookup> {
  const present = new Set(selected.map((r) => r.ruleId));
  const outside = findings.owners().some((owner) => !present.has(owner));
  const groups = outside ? (catalogue ?? (await loadCatalogue())) : [];
  return (ruleId) => {
    for (const group of groups) {
      const rule = group.rules.find((r) => r.id === ruleId);
      if (rule) return { rule, group };
    }
    return undefined;
  };
}

interface RunEnv {
  /** The rule whose record names a shared check (check-owners.ts). */
  ownerOf: (check: SharedCheck) => RuleId;
  target: RunTarget;
  options: EngineOptions;
  base: DirectoryClient;
  claims: ResourceClaims;
  redactor: Redactor;
  errorAnswers: ErrorAnswers;
  /** Departures from other rules' clauses the rules' shared steps reported. */
  findings: Findings;
  /** This attempt confirms a FAIL: it reads nothing another request answered before. */
  confirming?: boolean;
  /** Its reads stand only once the server answered them the same way twice (agreed-reads.ts). */
  agreedReads?: boolean;
  journal?: FileJournal;
  /** This attempt's reads of the resources it holds, to tell another party's changes (quiet-reads.ts). */
  quietReads?: QuietReads;
  /** Keep the departure a FAIL of this attempt rests on, with the evidence its judgement read (Attempt). */
  keepsDeparture?: boolean;
  /** Names this rule's claims. */
  holder: string;
}

/** A rule fail-fast kept from starting: `--max-failures` FAILs were reached. */
function stoppedEarly(rule: Rule, group: RuleGroup, failures: number): RuleResult {
  return emptyResult(rule, group, 'NOT-TESTED', {
    reason: `not started: the run stopped after ${failures} FAIL${failures === 1 ? '' : 's'} (--max-failures)`,
  });
}

/** A rule an interrupt kept from starting. */
function notStarted(rule: Rule, group: RuleGroup): RuleResult {
  return emptyResult(rule, group, 'NOT-TESTED', { reason: 'the run was interrupted before this rule started' });
}

/**
 * A FAIL is confirmed before it is reported: the rule is driven again
 * (drive-again.ts) and a departure that does not repeat is FLAKY, reported
 * with every attempt's exchanges; a confirming attempt that ends in a
 * harness fault (another party's change, a spent budget) gives its own
 * verdict, never an unconfirmed FAIL. A rule whose changes cannot be undone
 * (a revocation) is driven again on another resource, as the claims give one
 * (a fresh one first; else one an earlier revocation left, the same one
 * included, where the rule finds another role that suits it): the state that
 * showed the departure is gone. Before that, the reads of its evidence that
 * still say what the state is are sent again (reads-again.ts): a departure
 * they no longer show is FLAKY at once. With no resource left that suits the
 * rule, it is FLAKY: it could not be driven again. A rule that changed state
 * whose reads show that another party changed its resource meanwhile
 * (quiet-reads.ts) is not failed: ERROR, DC_ERR_FOREIGN_CHANGE.
 */
async function runOne(rule: Rule, group: RuleGroup, env: RunEnv): Promise<RuleResult> {
  const { readLagMs } = timingOf(env.target);
  const reads = [new QuietReads(readLagMs), new QuietReads(readLagMs)] as const;
  const irreversible = rule.mutates === 'irreversible';
  const { result: first, departure } = await runAttempt(rule, group, {
    ...env,
    quietReads: reads[0],
    keepsDeparture: irreversible,
  });
  if (first.verdict !== 'FAIL' || env.options.interrupt?.aborted) return first;
  const sentAgain: Exchange[] = [];
  const client = resender(env, rule.id, sentAgain);
  if (irreversible && departure && rule.judge) {
    const again = await readsAgain(departure, rule.judge, env.target.profile, client, timingOf(env.target).momentMs);
    if (again?.outcome === 'not repeated') {
      return {
        ...first,
        verdict: 'FLAKY',
        reason:
          `the departure did not repeat: the ${again.reads === 1 ? 'read' : `${again.reads} reads`} of the ` +
          `state it showed, sent again, no longer show it (the answers sent again are shown)`,
        exchanges: [...first.exchanges, ...sentAgain],
      };
    }
  }
  // A rule that judges the run's error answers judges them again as the server answers them now.
  const errorAnswers = rule.judges ? await env.errorAnswers.sentAgain((e) => sendAgain(client, e)) : env.errorAnswers;
  const replay = first.replay;
  const confirmation = await driveAgain({
    rule,
    first,
    interrupted: () => env.options.interrupt?.aborted === true,
    attempt: (drive) =>
      runAttempt(rule, group, {
        ...env,
        errorAnswers,
        quietReads: reads[1],
        // Driven again for real: an answer shared from the first attempt would only repeat what it saw.
        confirming: true,
        // One repeat confirms a departure: a read spoiled on its way must not be that repeat (a revocation's, driven
        // on other data, is held to a looser idea of the same departure, drive-again.ts). A rule that repeats its
        // judged request is confirmed by how often the departure comes instead, which agreeing reads would hide.
        agreedReads: rule.repeats === undefined,
        options:
          drive === 'counterexample' && replay
            ? {
                ...env.options,
                seed: replay.seed,
                ...(replay.path !== undefined ? { path: replay.path } : {}),
                ...(replay.replayPath !== undefined ? { replayPath: replay.replayPath } : {}),
              }
            : env.options,
      }),
  });
  const { tried } = confirmation;
  const both = {
    requestCount: first.requestCount + tried.reduce((n, r) => n + r.requestCount, 0),
    durationMs: first.durationMs + tried.reduce((n, r) => n + r.durationMs, 0),
  };
  const exchanges = [...first.exchanges, ...sentAgain, ...tried.flatMap((r) => r.exchanges)];
  if (confirmation.outcome === 'confirmed') {
    return unlessForeign(rule, { ...first, ...both, confirmed: true }, reads, env.redactor);
  }
  if (confirmation.outcome === 'not repeated') {
    // Not repeated where the reads showed another party at work: that party is why (a revocation above all,
    // whose confirmation runs on another resource, where the other party may not be).
    return unlessForeign(
      rule,
      { ...first, ...both, verdict: 'FLAKY', reason: confirmation.reason, exchanges },
      reads,
      env.redactor,
    );
  }
  const { last } = confirmation;
  // A revocation with no resource left to drive it on again: its departure is neither confirmed nor refuted.
  if (irreversible && last.verdict === 'SKIP') {
    return {
      ...first,
      ...both,
      verdict: 'FLAKY',
      reason:
        tried.length === 1
          ? `the departure could not be confirmed: the rule could not be driven again on another resource or role ` +
            `(${last.reason ?? 'SKIP'})`
          : `the departure did not repeat when the rule was driven again ${tried.length - 1} time(s), and it ` +
            `could not be driven again after that (${last.reason ?? 'SKIP'})`,
      exchanges,
    };
  }
  return {
    ...last,
    ...both,
    reason: `a FAIL could not be confirmed: ${last.reason ?? last.verdict}`,
    violations: first.violations,
    exchanges: [...first.exchanges, ...last.exchanges],
  };
}

/** A property's own number of runs at the run's depth, unless the run sets one for every property. */
function propertyRuns(rule: Rule, options: EngineOptions): number {
  return options.numRuns ?? runsAtDepth(rule.runs ?? DEFAULT_PROPERTY_RUNS, options.depth, rule);
}

/**
 * A client that shares no answer, whose exchanges are the rule's and kept in
 * `into`, for the reads a confirmation sends again: each stands once the
 * server answered it the same way twice (agreed-reads.ts), so an answer
 * spoiled on its way (an error's message dropped) does not pass for a repeat.
 */
function resender(env: RunEnv, ruleId: string, into: Exchange[]): DirectoryClient {
  return env.base.derive({
    sharedReads: undefined,
    agreedReads: true,
    onExchange: (e) => {
      e.rule = ruleId;
      into.push(e);
      env.options.onExchange?.(ruleId, e);
    },
  });
}

/**
 * A FAIL (or a departure that did not repeat) of a rule that changed state,
 * unless its reads show another party's change of a resource it held: then
 * what it saw may be theirs, and the verdict is ERROR
 * (DC_ERR_FOREIGN_CHANGE) with the violations kept as seen.
 */
function unlessForeign(rule: Rule, result: RuleResult, reads: readonly QuietReads[], redactor: Redactor): RuleResult {
  if ((result.verdict !== 'FAIL' && result.verdict !== 'FLAKY') || rule.mutates === 'none') return result;
  const foreign = reads.flatMap((r) => r.foreign());
  const [one] = foreign;
  if (!one) return result;
  const { confirmed: _confirmed, ...rest } = result;
  const more = foreign.length > 1 ? ` (and ${foreign.length - 1} more such difference(s))` : '';
  return {
    ...rest,
    verdict: 'ERROR',
    errorCode: 'DC_ERR_FOREIGN_CHANGE',
    reason: redactor.redact(
      `a departure was seen, but another party changed a resource this rule held while it ran: ` +
        `${describeQuietDifference(one)}${more}; no verdict on the server`,
    ),
  };
}

/** One attempt of a rule: its result, and what a confirmation weighs besides. */
interface Attempt {
  result: RuleResult;
  /** Judged requests it sent through `ctx.repeat` (a rule that repeats its judged request). */
  judgedRequests: number;
  /** The departure its FAIL rests on, with the evidence its judgement read, when asked to keep it. */
  departure?: Departure;
}

async function runAttempt(rule: Rule, group: RuleGroup, env: RunEnv): Promise<Attempt> {
  const learned: Omit<Attempt, 'result'> = { judgedRequests: 0 };
  const result = await attemptRule(rule, group, env, learned);
  return { result, ...learned };
}

async function attemptRule(
  rule: Rule,
  group: RuleGroup,
  env: RunEnv,
  learned: Omit<Attempt, 'result'>,
): Promise<RuleResult> {
  const { options, target } = env;
  const started = performance.now();
  const exchanges: Exchange[] = [];
  /** Each exchange's place in the attempt, so evidence kept apart is put back where it came (withEvidence). */
  const sequence = new WeakMap<Exchange, number>();
  let sequenced = 0;
  const observations: Observation[] = [];
  let requestCount = 0;
  let replay: PropertyReplay | undefined;
  const result = (verdict: Verdict, extra: Partial<RuleResult> = {}): RuleResult =>
    emptyResult(rule, group, verdict, {
      // Copies: a check stopped at its deadline may still be running and must not change a result already given.
      observations: [...observations],
      exchanges: [...exchanges],
      ...(replay ? { replay } : {}),
      requestCount,
      durationMs: Math.round(performance.now() - started),
      ...extra,
    });

  if (options.readOnly && rule.mutates !== 'none')
    return result('SKIP', { reason: 'read-only run: this rule changes state', skipCause: 'options' });
  const notAtDepth = leftOutAtDepth(rule, options.depth);
  if (notAtDepth) return result('SKIP', { reason: notAtDepth, skipCause: 'options' });
  const controller = new AbortController();
  const ownMutations = new MutationLog();
  /** The last judgement that found a departure, with its evidence: a property's shrunk counterexample. */
  let departed: { evidence: readonly Observed[]; violations: readonly Violation[] } | undefined;
  // A property's departing run is kept (its runs are short, each forgotten once judged): its FAIL's transcript holds it
  // whole, for the reproducer; an example's whole log may be a walk of a million resources, kept only when asked.
  const keepsDeparture = rule.explain !== undefined || env.keepsDeparture === true || rule.kind === 'property';
  /** When the answer to the latest request of this attempt that may change state came. */
  let lastChangeAt: number | undefined;
  // An example rule's judge folds its whole log as it comes; a property's each run; a rule that judges the run's
  // error answers reads those at the end. The exchanges judged are kept only for whoever hears them: the
  // recorder of judge logs, and the trace of a rule that explains its FAIL.
  const log = new ExchangeLog(
    !rule.judges ? { judge: rule.judge, judges: rule.kind === 'example' ? 'whole log' : 'each run' } : undefined,
    target.profile,
    options.onJudged || keepsDeparture
      ? (evidence, judgement) => {
          const violations = violationsOf(judgement);
          if (keepsDeparture && violations.length > 0) departed = { evidence, violations };
          options.onJudged?.(rule.id, evidence, judgement);
        }
      : undefined,
  );
  const { clock } = timingOf(target);
  const record = (e: Exchange, answer?: ApiResponse): void => {
    // Every exchange names the rule that sent or read it: traffic can be judged again from its tags.
    e.rule = rule.id;
    sequence.set(e, sequenced++);
    keepForReport(exchanges, e);
    log.add(e, answer);
    if (e.shared) {
      // Another rule's request: counted and judged once, there; exported marked shared, as this rule's evidence.
      options.onExchange?.(rule.id, e);
      return;
    }
    requestCount += e.attempts;
    // A request that got no answer may still have changed the state: its time is when the rule heard so.
    if (!READ_OPERATIONS.has(e.operation)) lastChangeAt = answer?.at?.answered ?? clock.now();
    ownMutations.add(e);
    env.quietReads?.add(e, clock.now());
    env.errorAnswers.add(rule.id, e);
    options.onExchange?.(rule.id, e);
  };
  const client = env.base.derive({
    onExchange: record,
    signal: controller.signal,
    ...(env.confirming ? { sharedReads: undefined } : {}),
    ...(env.agreedReads ? { agreedReads: true } : {}),
  });
  const restrictedKey = target.profile.restrictedApiKey;
  const restricted = restrictedKey
    ? client.derive({ credential: { apiKey: restrictedKey, placeholder: '$DIRECTORY_RESTRICTED_API_KEY' } })
    : undefined;
  const needEnv: NeedEnv = { profile: target.profile, allowMutations: options.allowMutations, restricted };
  for (const need of needsOf(rule)) {
    const reason = unmetNeed(need, needEnv);
    // A mutating rule without --allow-mutations is the user's choice; any other unmet need is the profile's.
    const turnedOff = (need === 'mutableResource' || need === 'roleRevocation') && !options.allowMutations;
    if (reason) return result('SKIP', { reason, skipCause: turnedOff ? 'options' : 'profile' });
  }
  let claimGaveUp = false;
  /** Resources the rule could have had but for a restoration that did not finish. */
  let leftOut: string[] = [];
  let deadline: PausableDeadline | undefined;
  // Everything the met needs provide; the rule's check sees only what its own needs provide (define.ts).
  const ctx: BaseCheckContext & Provisions = {
    ...provisions(needEnv),
    ruleId: rule.id,
    ownerOf: env.ownerOf,
    found(owner, violations) {
      log.found();
      env.findings.add(
        owner,
        rule.id,
        violations.map((v) => redactDeep(v, env.redactor)),
        exchanges,
      );
    },
    client,
    anonymous: client.derive({ credential: undefined }),
    restricted,
    profile: target.profile,
    // A property's own number of runs at the run's depth, unless the run sets one for every property.
    options: { ...options, numRuns: propertyRuns(rule, options) },
    signal: controller.signal,
    timing: timingOf(target),
    observe(subject, value) {
      observations.push({ subject, value: redactDeep(value, env.redactor) });
    },
    setReplay(r) {
      replay = r;
    },
    errorAnswers: () => env.errorAnswers.seen(),
    ...(env.journal ? { journal: env.journal } : {}),
    ownMutations,
    quarantine: env.claims,
    log,
    async claimResource(predicate) {
      let waited = false;
      const id = await env.claims.claim(predicate, {
        holder: env.holder,
        irreversible: rule.mutates === 'irreversible',
        signal: controller.signal,
        onWait(waiting) {
          waited = true;
          if (waiting) deadline?.pause();
          else deadline?.resume();
        },
      });
      if (id !== undefined) env.quietReads?.hold(id);
      if (id === undefined && waited && !controller.signal.aborted) claimGaveUp = true;
      if (id === undefined) leftOut = env.claims.quarantinedMatching(predicate);
      // A revocation has no documented undo: the journal says which resource it may change, for good.
      if (id !== undefined && rule.mutates === 'irreversible') {
        await env.journal?.irreversible({ ruleId: rule.id, resourceId: id, state: null });
      }
      return id;
    },
  };

  // The engine keeps the deadline itself: a check that ignores ctx.signal is still stopped.
  // Time spent waiting for a mutable resource does not count against it.
  const expired = new Promise<never>((_, reject) => {
    deadline = new PausableDeadline(
      options.ruleTimeoutMs,
      () => {
        controller.abort();
        reject(new HarnessError('DC_ERR_TIMEOUT', `rule did not finish within ${options.ruleTimeoutMs} ms`));
      },
      timingOf(target).clock,
    );
  });
  try {
    const running = rule.check(ctx, needEnv);
    // Past the deadline the check's own outcome no longer counts; it must not surface as unhandled.
    running.catch(() => undefined);
    await Promise.race([running, expired]);
    // An example rule's judge reads what its driver sent, once it is done; a property judges each run itself.
    // A rule that judges the run's error answers reads those (its driver's own among them), kept as recorded.
    if (rule.judges === 'error answers of the run') {
      const evidence = env.errorAnswers.observed();
      const judgement = judgeLog(rule.judge, evidence, target.profile);
      options.onJudged?.(rule.id, evidence, judgement);
      enforce(judgement);
    }
    const judgement = log.end();
    if (judgement) enforce(judgement);
    return result(rule.level === 'OBSERVED' ? 'OBSERVED' : 'PASS');
  } catch (caught) {
    let error = caught;
    // A driver stopped by another rule's departure may already have sent what shows its own:
    // its judge reads what it sent, and a departure of its own clause is its FAIL, not "blocked".
    // The exchange that showed the other rule's departure is that rule's evidence, not this one's: what
    // came after a departure of another clause (a filter ignored, a page repeated) says nothing of this one.
    const before = isDepartureOfAnotherRule(error) ? log.before() : undefined;
    if (before) {
      const own = violationsOf(before.judgement);
      if (own.length > 0) {
        before.report();
        error = new ConformanceFailure([...own]);
      }
    }
    if (isDepartureOfAnotherRule(error)) {
      // Reported to its owner already (ctx.found): the owner FAILs on it once the run ends.
      const first = error.violations[0];
      return result('SKIP', {
        reason: env.redactor.redact(
          `blocked by ${error.owner}: ${first ? `${first.where}: ${first.message}` : 'a shared step does not conform'}`,
        ),
        blockedBy: error.owner,
        skipCause: 'blocked',
      });
    }
    if (isConformanceFailure(error)) {
      const violations = error.violations.map((v) => redactDeep(v, env.redactor));
      if (rule.level === 'OBSERVED') {
        for (const v of violations) observations.push({ subject: v.where, value: v });
        return result('OBSERVED');
      }
      // Before a FAIL is reported, each resource the rule held is read a few times more while it still holds
      // it: a state that changes then, with nothing of the suite's in flight, is another party's (unlessForeign).
      if (rule.mutates === 'reversible' && env.quietReads) await watch(client, env.quietReads);
      if (departed && env.keepsDeparture) {
        learned.departure = { ...departed, exchangeOf: (o) => log.exchangeOf(o), lastChangeAt };
      }
      const evidence = departed?.evidence;
      const trace = rule.explain && evidence ? traceOf(rule.explain(evidence, target.profile), evidence, log) : [];
      // The run that departed, kept whole beside the transcript's first and last exchanges: a FAIL's reproducer sends
      // its steps again from the reads before them, and a change that cannot be undone leaves no other evidence.
      const kept = evidence
        ? withEvidence(
            exchanges,
            evidence.map((o) => log.exchangeOf(o)),
            sequence,
          )
        : undefined;
      return result('FAIL', {
        violations,
        ...(trace.length > 0 ? { trace } : {}),
        ...(kept ? { exchanges: kept } : {}),
      });
    }
    const harness = toHarness(error, controller.signal.aborted, options.ruleTimeoutMs);
    const verdict = verdictOfHarnessFault(harness.code);
    const reason = env.redactor.redact(harness.message);
    if (verdict === 'SKIP') {
      if (leftOut.length > 0) {
        return result('SKIP', {
          reason: `${reason} (left out: resource(s) ${leftOut.join(', ')}, whose restoration did not finish)`,
          errorCode: harness.code,
          skipCause: 'resource',
        });
      }
      return claimGaveUp
        ? result('SKIP', {
            reason: `${reason} (no mutable resource became free in time)`,
            errorCode: harness.code,
            skipCause: 'resource',
          })
        : result('SKIP', { reason, errorCode: harness.code, skipCause: 'precondition' });
    }
    return result(verdict, { reason, errorCode: harness.code });
  } finally {
    learned.judgedRequests = log.judgedRequests;
    deadline?.clear();
    controller.abort();
    // Restored resources serve the next rule; a revoked one only another irreversible rule (see ResourceClaims).
    env.claims.release(env.holder);
  }
}

/**
 * A FAIL's trace: the explainer's steps with the recorded exchanges they
 * name, as the report shows them (redacted like the rest of the transcript).
 */
function traceOf(steps: readonly ExplainedStep[], evidence: readonly Observed[], log: ExchangeLog): TraceStep[] {
  return steps.map(({ evidence: at, ...step }) => ({
    ...step,
    exchanges: at.flatMap((i) => {
      const observed = evidence[i];
      const exchange = observed && log.exchangeOf(observed);
      return exchange ? [exchange] : [];
    }),
  }));
}

/** Reads of each held resource's rates and teams after a confirming attempt FAILed (see quiet-reads.ts). */
const WATCH_ROUNDS = 10;

async function watch(client: DirectoryClient, reads: QuietReads): Promise<void> {
  try {
    for (let round = 0; round < WATCH_ROUNDS; round++) {
      for (const resource_id of reads.heldResources()) {
        const step = 'read again before a FAIL is reported';
        await client.post('resources.show-activity-rates', { resource_id, date_range: WIDE_RANGE }, { step });
        await client.post('resources.show-teams', { resource_id, date_range: WIDE_RANGE }, { step });
      }
    }
  } catch {
    // A read that fails tells nothing of another party: the FAIL stands as confirmed.
  }
}

/**
 * A rule's transcript keeps its first exchanges and its most recent ones: the
 * evidence of a failure is at the end, and a paging rule over a million
 * resources must not hold every page in memory. Exchanges whose earlier
 * attempt met a server error the client repeated are kept too, after the
 * first ones (up to KEEP_NOTED of them): the report notes each such error.
 */
const KEEP_FIRST = 10;
const KEEP_LAST = 40;
const KEEP_NOTED = 10;

export function keepForReport(exchanges: Exchange[], e: Exchange): void {
  exchanges.push(e);
  let drop = KEEP_FIRST;
  while (drop < KEEP_FIRST + KEEP_NOTED && drop < exchanges.length - KEEP_LAST && metServerError(exchanges[drop]))
    drop += 1;
  if (drop < exchanges.length - KEEP_LAST) exchanges.splice(drop, 1);
}

/** At most this many exchanges of a departing run are kept beside the transcript's first and last ones. */
const KEEP_EVIDENCE = 200;

/**
 * The transcript with the exchanges of the run that departed put back (the
 * last KEEP_EVIDENCE of them), each where it came: a departure in the middle
 * of a long run is otherwise cut from the report.
 */
function withEvidence(
  transcript: readonly Exchange[],
  evidence: ReadonlyArray<Exchange | undefined>,
  sequence: WeakMap<Exchange, number>,
): Exchange[] {
  const all = new Set(transcript);
  for (const e of evidence.slice(-KEEP_EVIDENCE)) if (e && sequence.has(e)) all.add(e);
  return [...all].sort((a, b) => (sequence.get(a) ?? 0) - (sequence.get(b) ?? 0));
}

function metServerError(e: Exchange | undefined): boolean {
  return e?.earlierAttempts?.some((a) => a.status !== undefined && a.status >= 500) === true;
}

/**
 * A target that lacks what the rule needs is a SKIP; a spent request budget
 * leaves the rule NOT-TESTED; anything else (network, timeouts, 5xx, 429 after
 * the retries) is an ERROR: never a verdict on the server.
 */
function verdictOfHarnessFault(code: HarnessError['code']): Verdict {
  if (code === 'DC_ERR_PRECONDITION') return 'SKIP';
  if (code === 'DC_ERR_BUDGET' || code === 'DC_ERR_INTERRUPTED') return 'NOT-TESTED';
  return 'ERROR';
}

function toHarness(error: unknown, timedOut: boolean, ruleTimeoutMs: number): HarnessError {
  if (isHarnessError(error)) {
    if (error.code === 'DC_ERR_ABORTED' && timedOut) {
      return new HarnessError('DC_ERR_TIMEOUT', `rule did not finish within ${ruleTimeoutMs} ms`);
    }
    return error;
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new HarnessError('DC_ERR_HARNESS', `the check itself failed: ${message}`);
}

function redactDeep<T>(value: T, redactor: Redactor): T {
  return redactor.redactValue(value);
}
