/**
 * The run in a few lines of Markdown (reports/summary.md): verdict, score,
 * coverage, and each failure with its rule, clause and a one-line reason. The
 * GitHub Action writes the same text to the job summary; GitLab and Jenkins
 * job pages can show the file as it is.
 */
import { describeCounts, honestCounts } from '../core/summarise.ts';
import type { GateRecord, RuleResult, RunResult, SkipCause } from '../core/types.ts';
import type { RunHistory } from '../gate/history.ts';

export interface SummaryLinks {
  /** Where the full reports can be downloaded (the CI artifact). */
  reports?: string;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function reason(r: RuleResult): string {
  const v = r.violations[0];
  const text = v ? `${v.where}: ${v.message}` : (r.reason ?? '');
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

export function renderSummaryMarkdown(run: RunResult, links: SummaryLinks = {}, history?: RunHistory): string {
  const s = run.summary;
  const verdict = run.interrupted
    ? `⚠️ interrupted (${run.interrupted.signal})`
    : { conformant: '✅ conformant', 'not-conformant': '❌ not conformant', inconclusive: '⚠️ inconclusive' }[
        s.outcome
      ];
  const counts = Object.entries(s.byVerdict)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
  const honest = honestCounts(run.results);
  const lines = [
    `## Directory conformance: ${verdict}${honest.mostlySkipped ? ` (${honest.skipped} of ${honest.total} rules skipped)` : ''}`,
    '',
    `${describeCounts(honest)}.`,
    '',
    `Target \`${run.target.baseUrl}\`, Service-Version \`${run.target.serviceVersion}\`, seed ${run.options.seed}.`,
    '',
    '| score | coverage | rules |',
    '|---|---|---|',
    `| ${percent(s.score)} of MUST rules that ran | ${coverageCell(run)} | ${counts} of ${s.total} |`,
  ];
  lines.push(...notServedLines(run));
  if (s.inconclusive.length > 0) lines.push('', ...s.inconclusive.map((why) => `- inconclusive: ${cell(why)}`));
  if (run.gate) lines.push('', ...gateLines(run.gate));
  const failing = run.results.filter((r) => r.verdict === 'FAIL' || r.verdict === 'FLAKY' || r.verdict === 'ERROR');
  if (failing.length > 0) {
    lines.push('', '| verdict | rule | clause | why |', '|---|---|---|---|');
    for (const r of failing) {
      const level = r.level === 'INFERRED' ? ' (INFERRED)' : '';
      lines.push(`| ${r.verdict}${level} | \`${r.ruleId}\` | ${cell(r.clause)} | ${cell(reason(r))} |`);
    }
    if (failing.some((r) => r.verdict === 'FAIL'))
      lines.push(
        '',
        'Each FAIL has a standalone reproducer beside these reports, `reproduce/<rule-id>.sh` (bash and curl; the base URL and keys from `DIRECTORY_BASE_URL`, `DIRECTORY_API_KEY`): exit 1 while the server departs, 0 once it is fixed.',
      );
  }
  if (history) lines.push('', ...historyLines(history));
  if (links.reports) lines.push('', `Full reports (HTML, JUnit, JSON, HAR): ${links.reports}`);
  return `${lines.join('\n')}\n`;
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/**
 * Coverage over the selection, and, when the target or the options rule some
 * rules out (a read-only run, a profile without role revocation), over what
 * this target can serve: the figure the gate holds to its threshold.
 */
function coverageCell(run: RunResult): string {
  const s = run.summary;
  if (s.servable === s.total) return percent(s.coverage);
  return `${percent(s.coverage)} of the selection; ${percent(s.servableCoverage)} of the ${s.servable} rules this target can serve`;
}

const NOT_SERVED: ReadonlyArray<[SkipCause, string]> = [
  ['options', 'turned off by the options (--read-only, or no --allow-mutations against an external target)'],
  ['profile', 'the target profile lacks what they need'],
  ['precondition', "the target's data lacks what they need"],
];

/** Why rules were not served, by cause, so a coverage below 100% on a read-only run reads as what it is. */
function notServedLines(run: RunResult): string[] {
  const s = run.summary;
  if (s.servable === s.total) return [];
  const skipped = run.results.filter((r) => r.verdict === 'SKIP');
  const causes = NOT_SERVED.flatMap(([cause, why]) => {
    const n = skipped.filter((r) => r.skipCause === cause).length;
    return n > 0 ? [`${n} ${why}`] : [];
  });
  const notServed = s.total - s.servable;
  return [
    '',
    `Not served by design: ${notServed} of the ${s.total} selected rules${causes.length > 0 ? ` — ${causes.join('; ')}` : ''}. ` +
      `Coverage is required of the ${s.servable} others: ${percent(s.servableCoverage)} of them ran (required ${percent(s.requiredCoverage)}).`,
  ];
}

/** The gate's outcome with its warnings: new failures, unexpected passes, expired expectations. */
function gateLines(gate: GateRecord): string[] {
  const lines = [
    `Gate (${cell(gate.file)}): ${gate.passed ? 'passed' : 'failed'}; ${gate.unexpectedFailures.length} new failure(s), ${gate.knownFailures.length} known.`,
  ];
  const warnings = [
    ...gate.unexpectedFailures.map((rule) => `- ❌ new failure: \`${rule}\``),
    ...gate.unexpectedPasses.map(
      (rule) => `- ⚠️ unexpected pass: \`${rule}\` passes but is a known failure: remove it from the expectations file`,
    ),
    ...gate.expired.map(
      (e) =>
        `- ⚠️ expired expectation: \`${e.rule}\` (expired ${cell(e.expires ?? '')}: ${cell(e.reason)}): fix the server or renew it`,
    ),
  ];
  return warnings.length > 0 ? [...lines, '', ...warnings] : lines;
}

/** The rules whose verdict changed since the last run kept in the history folder, unstable ones marked. */
function historyLines(history: RunHistory): string[] {
  if (history.earlierRuns === 0) return ['History: the first run kept.'];
  if (history.changed.length === 0) return [`History: no rule changed its verdict since the last run.`];
  return [
    `History: ${history.changed.length} rule${history.changed.length === 1 ? '' : 's'} changed since the last run.`,
    '',
    '| rule | last run | this run | flips (last runs) |',
    '|---|---|---|---|',
    ...history.changed.map((c) => {
      const h = history.rules.get(c.ruleId);
      const flips = h ? `${h.flips} in ${h.verdicts.length}${h.unstable ? ', unstable' : ''}` : '';
      return `| \`${c.ruleId}\` | ${c.from} | ${c.to} | ${flips} |`;
    }),
  ];
}
