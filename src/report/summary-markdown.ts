/**
 * The run in a few lines of Markdown (reports/summary.md): verdict, score,
 * coverage, and each failure with its rule, clause and a one-line reason. The
 * GitHub Action writes the same text to the job summary; GitLab and Jenkins
 * job pages can show the file as it is.
 */
import type { RuleResult, RunResult } from '../core/types.ts';
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
  const lines = [
    `## Directory conformance: ${verdict}`,
    '',
    `Target \`${run.target.baseUrl}\`, Service-Version \`${run.target.serviceVersion}\`, seed ${run.options.seed}.`,
    '',
    '| score | coverage | rules |',
    '|---|---|---|',
    `| ${(s.score * 100).toFixed(1)}% of MUST rules that ran | ${(s.coverage * 100).toFixed(1)}% | ${counts} of ${s.total} |`,
  ];
  if (s.inconclusive.length > 0) lines.push('', ...s.inconclusive.map((why) => `- inconclusive: ${cell(why)}`));
  if (run.gate) lines.push('', `Gate (${cell(run.gate.file)}): ${run.gate.passed ? 'passed' : 'failed'}.`);
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
