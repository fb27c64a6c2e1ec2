/**
 * What `judge` found, as a run's results: the same RunResult `run` writes its
 * reports from (results.json checked against its schema, the HTML page,
 * JUnit, summary.md), so traffic recorded from any client is reported as a
 * run of the suite is. Each rule's exchanges are the HAR entries it judged,
 * their credentials replaced by placeholders (redacted-har.ts).
 */
import { basename } from 'node:path';
import { summarise } from '../core/summarise.ts';
import type { RuleResult, RunResult, RunSelection } from '../core/types.ts';
import { redactedHar, type RedactedHar } from '../runner/redacted-har.ts';
import type { Rejudged } from '../runner/rejudge.ts';
import { emptyResult } from '../runner/rule-result.ts';
import { TOOL } from '../runner/run-rules.ts';
import type { RuleGroup } from '../rules/types.ts';
import type { FileType } from '../schemas/files.ts';
import { RUN_CONFIG_DEFAULTS } from '../schemas/run-config.ts';
import type { TargetProfile } from '../target/profile.ts';
import { shellWord } from '../report/shell-quote.ts';

/** Exchanges kept per rule in the reports: a walk of a big collection judges thousands, and the page must open. */
export const EXCHANGES_KEPT = 100;

/** One rule's verdict as a report's result: NOT-APPLICABLE is a SKIP the data chose, NO-VERDICT an ERROR. */
function resultOf(judged: Rejudged, group: RuleGroup, recorded: RedactedHar): RuleResult | undefined {
  const rule = group.rules.find((r) => r.id === judged.ruleId);
  if (!rule) return undefined;
  const exchanges = (judged.entries ?? []).slice(0, EXCHANGES_KEPT).flatMap((i) => recorded.exchange(i) ?? []);
  const extra: Partial<RuleResult> = {
    violations: judged.violations.map((v) => recorded.redactValue(v)),
    observations: [{ subject: 'exchanges of the recording judged', value: judged.exchanges }],
    exchanges,
    requestCount: judged.exchanges,
  };
  const reason = judged.reason === undefined ? {} : { reason: recorded.redact(judged.reason) };
  switch (judged.verdict) {
    case 'NOT-APPLICABLE':
      return emptyResult(rule, group, 'SKIP', { ...extra, ...reason, skipCause: 'precondition' });
    case 'NO-VERDICT':
      return emptyResult(rule, group, 'ERROR', {
        ...extra,
        ...reason,
        ...(judged.code !== undefined ? { errorCode: judged.code } : {}),
      });
    default:
      return emptyResult(rule, group, judged.verdict, { ...extra, ...reason });
  }
}

/** The judgement of a recording as a run's results, for `writeReports`. */
export function judgedRun(
  judged: readonly Rejudged[],
  groups: readonly RuleGroup[],
  har: { file: string; recording: FileType<'HarFile'>; from?: string },
  selection: RunSelection,
  times: { startedAt: string; finishedAt: string },
  profile: Pick<TargetProfile, 'name'>,
): RunResult {
  const recorded = redactedHar(har.recording);
  const results = judged.flatMap((j) => {
    const group = groups.find((g) => g.rules.some((r) => r.id === j.ruleId));
    const result = group ? resultOf(j, group, recorded) : undefined;
    return result ? [result] : [];
  });
  const baseUrl = recorded.baseUrl;
  return {
    tool: TOOL,
    target: {
      baseUrl,
      serviceVersion: RUN_CONFIG_DEFAULTS.serviceVersion,
      replayArgs: `--base-url ${shellWord(baseUrl)}`,
      // Every report names where its verdicts come from: a recording, not requests of this tool.
      profileName: `${profile.name ?? 'the profile given'}; judged from ${har.from ?? basename(har.file)}`,
    },
    // Nothing was drawn: a recording judged has no seed of its own.
    options: { seed: 0, allowMutations: false },
    ...times,
    results,
    summary: summarise(results),
    selection,
    requests: { total: 0, budget: null },
  };
}
