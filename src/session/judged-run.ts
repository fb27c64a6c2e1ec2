/**
 * What `judge` found, as a run's results: the same RunResult `run` writes its
 * reports from (results.json checked against its schema, the HTML page,
 * JUnit, summary.md), so traffic recorded from any client is reported as a
 * run of the suite is. Each rule's exchanges are the HAR entries it judged,
 * their credentials replaced by placeholders: a HAR recorded by another
 * client holds the key itself, and no report may.
 */
import { headerPlaceholder, secretHeader } from '../core/connection.ts';
import type { AnsweredExchange } from '../core/exchange.ts';
import { summarise } from '../core/summarise.ts';
import type { RuleResult, RunResult, RunSelection } from '../core/types.ts';
import { Redactor } from '../client/redact.ts';
import type { Rejudged } from '../runner/rejudge.ts';
import { emptyResult } from '../runner/rule-result.ts';
import { TOOL } from '../runner/run-rules.ts';
import type { RuleGroup } from '../rules/types.ts';
import type { FileType } from '../schemas/files.ts';
import { RUN_CONFIG_DEFAULTS } from '../schemas/run-config.ts';
import { shellWord } from '../report/shell-quote.ts';

type HarEntry = FileType<'HarFile'>['log']['entries'][number];

/** Exchanges kept per rule in the reports: a walk of a big collection judges thousands, and the page must open. */
export const EXCHANGES_KEPT = 100;

const PATH = '/api/directory/';

/** The HAR's secrets: each credential-like request header's value, and an Authorization's credential apart. */
function redactorOf(entries: readonly HarEntry[]): Redactor {
  const redactor = new Redactor();
  for (const entry of entries) {
    for (const { name, value } of entry.request.headers) {
      // The suite's own HAR holds placeholders already.
      if (!secretHeader(name) || value.includes('$DIRECTORY_')) continue;
      if (name.toLowerCase() !== 'authorization') {
        redactor.add(value, headerPlaceholder(name));
        continue;
      }
      // The scheme stays readable ("Bearer $DIRECTORY_API_KEY"); the credential after it is the secret.
      redactor.add(value.replace(/^\S+\s+/, ''), '$DIRECTORY_API_KEY');
    }
  }
  return redactor;
}

/** A HAR entry as a report's exchange, every text of it redacted. */
function exchangeOf(entry: HarEntry, redactor: Redactor): AnsweredExchange {
  const url = redactor.redact(entry.request.url);
  const path = url.replace(/[?#].*$/, '');
  return {
    operation: path.slice(path.lastIndexOf('/') + 1),
    ...(entry.startedDateTime !== undefined ? { startedAt: entry.startedDateTime } : {}),
    request: {
      method: 'POST',
      url,
      headers: Object.fromEntries(entry.request.headers.map((h) => [h.name, redactor.redact(h.value)])),
      body: redactor.redact(entry.request.postData?.text ?? ''),
    },
    response: {
      status: entry.response.status,
      headers: {},
      body: redactor.redact(entry.response.content?.text ?? ''),
      truncated: entry._cut === true,
    },
    durationMs: entry.time ?? 0,
    attempts: 1 + (entry._earlierStatuses?.length ?? 0),
    ...(entry._rule !== undefined ? { rule: entry._rule } : {}),
    ...(entry._step !== undefined ? { step: entry._step } : {}),
  };
}

/** The target the traffic went to: its URLs up to the operations' path. */
function baseUrlOf(entries: readonly HarEntry[], redactor: Redactor): string {
  const url = entries[0]?.request.url;
  if (url === undefined) return '(no exchange recorded)';
  const at = url.indexOf(PATH);
  return redactor.redact(at >= 0 ? url.slice(0, at) : new URL(url).origin);
}

/** One rule's verdict as a report's result: NOT-APPLICABLE is a SKIP the data chose, NO-VERDICT an ERROR. */
function resultOf(
  judged: Rejudged,
  group: RuleGroup,
  entries: readonly HarEntry[],
  redactor: Redactor,
): RuleResult | undefined {
  const rule = group.rules.find((r) => r.id === judged.ruleId);
  if (!rule) return undefined;
  const exchanges = (judged.entries ?? []).slice(0, EXCHANGES_KEPT).flatMap((i) => {
    const entry = entries[i];
    return entry ? [exchangeOf(entry, redactor)] : [];
  });
  const extra: Partial<RuleResult> = {
    violations: judged.violations.map((v) => redactor.redactValue(v)),
    observations: [{ subject: 'exchanges of the recording judged', value: judged.exchanges }],
    exchanges,
    requestCount: judged.exchanges,
  };
  const reason = judged.reason === undefined ? {} : { reason: redactor.redact(judged.reason) };
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
  har: FileType<'HarFile'>,
  selection: RunSelection,
  times: { startedAt: string; finishedAt: string },
): RunResult {
  const entries = har.log.entries;
  const redactor = redactorOf(entries);
  const results = judged.flatMap((j) => {
    const group = groups.find((g) => g.rules.some((r) => r.id === j.ruleId));
    const result = group ? resultOf(j, group, entries, redactor) : undefined;
    return result ? [result] : [];
  });
  const baseUrl = baseUrlOf(entries, redactor);
  return {
    tool: TOOL,
    target: {
      baseUrl,
      serviceVersion: RUN_CONFIG_DEFAULTS.serviceVersion,
      replayArgs: `--base-url ${shellWord(baseUrl)}`,
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
