import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { readJsonFile } from '../gate/read-json-file.ts';
import { embeddedProfile } from '../reference-server/index.ts';
import { allRules, loadCatalogue, selectRules } from '../runner/catalogue.ts';
import { judgeUntagged } from '../runner/judge-untagged.ts';
import { recordedExchanges } from '../runner/recorded-traffic.ts';
import { rejudge, type Rejudged, type RejudgedVerdict } from '../runner/rejudge.ts';
import { writeReports } from '../report/write-reports.ts';
import { checkedFile } from '../schemas/files.ts';
import { checkSelection } from '../session/check-selection.ts';
import { judgedRun } from '../session/judged-run.ts';
import { lockReportsDir } from '../session/reports-lock.ts';
import { loadProfile } from '../target/load-profile.ts';
import { JUDGE_HELP } from './help.ts';
import { parseOptions, resourcesOf } from './options.ts';
import type { Output } from './run-command.ts';

const JUDGE_OPTIONS = {
  profile: { type: 'string' },
  resources: { type: 'string' },
  rule: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  reports: { type: 'string' },
  'restricted-key-placeholder': { type: 'string' },
} as const;

/** Where the reports go without --reports, as for run. */
const DEFAULT_REPORTS = 'reports';

const ORDER: readonly RejudgedVerdict[] = ['FAIL', 'NO-VERDICT', 'PASS', 'OBSERVED', 'NOT-APPLICABLE'];

/**
 * `directory-conformance judge FILE.har`: recorded traffic judged, sending
 * nothing. A run's own HAR: each rule written as a driver and a judge gets
 * the exchanges the recording tags with it (`_rule`, `_run`) and its judge
 * says what they show, so anyone holding a run's HAR can check that its
 * verdicts follow from its evidence, and yesterday's evidence can be judged
 * by today's rules. Traffic of any other client, untagged: the rules that
 * traffic alone can judge (judge-untagged.ts) read it, each under its
 * catalogue id. The profile is the target's (`--profile`); without one, the
 * embedded reference server's, which the default run targets. The reports
 * are run's (results.json, HTML, JUnit, summary.md), in `--reports DIR`.
 * Exit 1 when a rule FAILs, 3 when no rule found evidence, 0 otherwise.
 */
export async function judgeCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, JUDGE_OPTIONS, true);
  if (values.help) {
    io.out(JUDGE_HELP);
    return 0;
  }
  const path = positionals[0];
  if (!path || positionals.length > 1) throw new UsageError('judge takes one HAR file (reports/exchanges.har)');
  // The run that recorded the HAR wrote its own reports beside it: judging it must not put others in their
  // place. Asked for, that folder is refused; by default, the reports go into a folder of their own in it.
  const beside = (dir: string): boolean => resolve(dir) === resolve(dirname(path));
  if (values.reports !== undefined && beside(values.reports))
    throw new UsageError(
      `judge would write its reports over those beside ${path}: give it another folder with --reports`,
    );
  const reports = values.reports ?? (beside(DEFAULT_REPORTS) ? join(DEFAULT_REPORTS, 'judged') : DEFAULT_REPORTS);
  const startedAt = new Date().toISOString();
  // Looked at before it is opened: a FIFO named here would keep judge waiting for ever.
  await refuseIfNotRegularFile(path, 'the HAR file');
  const har = checkedFile('HarFile', await readJsonFile(path, 'HAR file'), path);
  const profile = values.profile ? await loadProfile(values.profile) : embeddedProfile(resourcesOf(values.resources));
  const catalogue = await loadCatalogue();
  const selection = { rules: values.rule ?? [], sections: values.section ?? [] };
  checkSelection(catalogue, selection);
  const groups = selectRules(catalogue, selection);
  const rules = allRules(groups);
  // Which requests carried the restricted key, in a recording of another client: what their header holds, as
  // the user names it, or the profile's restricted key itself (a recording that kept the keys).
  const traffic = recordedExchanges(har, values['restricted-key-placeholder'] ?? profile.restrictedApiKey);
  const untagged = traffic.filter((t) => t.rule === undefined).length;
  const tagged = traffic.length - untagged;
  const judged = together(
    tagged > 0 || untagged === 0 ? rejudge(rules, traffic, profile) : [],
    untagged > 0 ? judgeUntagged(rules, traffic, profile) : [],
  );
  const lock = await lockReportsDir(reports);
  try {
    const run = judgedRun(
      judged,
      groups,
      { file: path, recording: har },
      { ...selection, catalogueSize: allRules(catalogue).length },
      { startedAt, finishedAt: new Date().toISOString() },
      profile,
    );
    await writeReports(run, reports);
  } finally {
    await lock.release();
  }
  if (values.json) io.out(JSON.stringify(judged, null, 2));
  else {
    for (const r of [...judged].sort((a, b) => ORDER.indexOf(a.verdict) - ORDER.indexOf(b.verdict))) io.out(line(r));
    if (untagged > 0 && tagged > 0)
      io.out(`${untagged} exchanges carry no rule: judged by the rules that traffic alone can judge`);
    if (judged.length === 0)
      io.out('no rule of the selection can be judged from this traffic (judge --help names those that can)');
    io.out(summary(judged, traffic.length, path, tagged > 0 ? 'judged again' : 'judged'));
    io.out(`reports in ${reports}`);
  }
  if (judged.some((r) => r.verdict === 'FAIL')) return 1;
  return judged.some((r) => r.verdict !== 'NOT-APPLICABLE') ? 0 : 3;
}

/**
 * Each rule's verdict from the tagged exchanges and from the untagged ones
 * (a HAR that holds both): the one that says the most, a FAIL first, no
 * evidence last, as the lines are ordered.
 */
function together(fromTags: readonly Rejudged[], fromTraffic: readonly Rejudged[]): Rejudged[] {
  const byId = new Map(fromTags.map((r) => [r.ruleId, r]));
  for (const r of fromTraffic) {
    const other = byId.get(r.ruleId);
    if (other === undefined) {
      byId.set(r.ruleId, r);
      continue;
    }
    const first = ORDER.indexOf(r.verdict) < ORDER.indexOf(other.verdict) ? r : other;
    // Every exchange either judging read: the reports show them all.
    const entries = [...new Set([...(other.entries ?? []), ...(r.entries ?? [])])].sort((a, b) => a - b);
    byId.set(r.ruleId, { ...first, exchanges: r.exchanges + other.exchanges, entries });
  }
  return [...byId.values()];
}

function line(r: Rejudged): string {
  const what = r.exchanges === 1 ? '1 exchange' : `${r.exchanges} exchanges`;
  const first = r.violations[0];
  const why = first ? `: ${first.where}: ${first.message}` : r.reason ? `: ${r.reason}` : '';
  return `${r.verdict.padEnd(14)} ${r.ruleId} (${what})${why}`;
}

function summary(judged: readonly Rejudged[], exchanges: number, path: string, how: string): string {
  const counts = ORDER.map((v) => [v, judged.filter((r) => r.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`);
  return `${path}: ${exchanges} answered exchanges, ${judged.length} rules ${how}: ${counts.join(', ')}`;
}
