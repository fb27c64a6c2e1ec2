import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { readJsonFile } from '../gate/read-json-file.ts';
import { embeddedProfile } from '../reference-server/index.ts';
import { allRules, loadCatalogue, selectRules } from '../runner/catalogue.ts';
import { recordedExchanges } from '../runner/recorded-traffic.ts';
import { rejudge, type Rejudged, type RejudgedVerdict } from '../runner/rejudge.ts';
import { checkedFile } from '../schemas/files.ts';
import { RUN_CONFIG_DEFAULTS } from '../schemas/run-config.ts';
import { checkSelection } from '../session/check-selection.ts';
import { loadProfile } from '../target/load-profile.ts';
import { JUDGE_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import type { Output } from './run-command.ts';

const JUDGE_OPTIONS = {
  profile: { type: 'string' },
  resources: { type: 'string' },
  rule: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

const ORDER: readonly RejudgedVerdict[] = ['FAIL', 'NO-VERDICT', 'PASS', 'OBSERVED', 'NOT-APPLICABLE'];

/**
 * `directory-conformance judge FILE.har`: a run's recorded traffic judged
 * again, sending nothing. Each rule written as a driver and a judge gets the
 * exchanges the recording tags with it (`_rule`, `_run`) and its judge says
 * what they show: so anyone holding a run's HAR can check that its verdicts
 * follow from its evidence, and yesterday's evidence can be judged by
 * today's rules. The profile is the target's (`--profile`); without one, the
 * embedded reference server's, which the default run targets.
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
  // Looked at before it is opened: a FIFO named here would keep judge waiting for ever.
  await refuseIfNotRegularFile(path, 'the HAR file');
  const har = checkedFile('HarFile', await readJsonFile(path, 'HAR file'), path);
  const profile = values.profile ? await loadProfile(values.profile) : embeddedProfile(resourcesOf(values.resources));
  const catalogue = await loadCatalogue();
  const selection = { rules: values.rule ?? [], sections: values.section ?? [] };
  checkSelection(catalogue, selection);
  const traffic = recordedExchanges(har);
  const judged = rejudge(allRules(selectRules(catalogue, selection)), traffic, profile);
  if (values.json) io.out(JSON.stringify(judged, null, 2));
  else {
    for (const r of [...judged].sort((a, b) => ORDER.indexOf(a.verdict) - ORDER.indexOf(b.verdict))) io.out(line(r));
    const untagged = traffic.filter((t) => t.rule === undefined).length;
    if (untagged > 0) io.out(`${untagged} exchanges carry no rule: no rule judged them`);
    io.out(summary(judged, traffic.length, path));
  }
  if (judged.some((r) => r.verdict === 'FAIL')) return 1;
  return judged.some((r) => r.verdict !== 'NOT-APPLICABLE') ? 0 : 3;
}

function resourcesOf(text: string | undefined): number {
  if (text === undefined) return RUN_CONFIG_DEFAULTS.resources;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--resources must be a whole number above 0, not ${text}`);
  return n;
}

function line(r: Rejudged): string {
  const what = r.exchanges === 1 ? '1 exchange' : `${r.exchanges} exchanges`;
  const first = r.violations[0];
  const why = first ? `: ${first.where}: ${first.message}` : r.reason ? `: ${r.reason}` : '';
  return `${r.verdict.padEnd(14)} ${r.ruleId} (${what})${why}`;
}

function summary(judged: readonly Rejudged[], exchanges: number, path: string): string {
  const counts = ORDER.map((v) => [v, judged.filter((r) => r.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`);
  return `${path}: ${exchanges} answered exchanges, ${judged.length} rules judged again: ${counts.join(', ')}`;
}
