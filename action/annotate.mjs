// GitHub annotations from a run's results.json (workflow commands, escaped as GitHub documents), matching
// what the run's verdict counts (src/core/summarise.ts, src/gate): `::error` only for a FAIL that fails the
// run (a MUST rule, or an INFERRED one in a --strict run) and is not a known failure the expectations file
// excuses; `::warning` for a harness ERROR and an INFERRED departure that does not count; `::notice` for a
// known failure, with its reason.
import { readFileSync } from 'node:fs';
import { failsTheRun } from '../dist/src/core/summarise.js';

const escapeData = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const run = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const known = new Map((run.gate?.knownFailures ?? []).map((k) => [k.rule, k]));
for (const r of run.results) {
  if (r.verdict !== 'FAIL' && r.verdict !== 'ERROR') continue;
  const v = r.violations?.[0];
  const why = v ? `${v.where}: ${v.message}` : (r.reason ?? '');
  const excuse = known.get(r.ruleId);
  let kind;
  let title = `${r.verdict} ${r.ruleId}`;
  if (excuse) {
    kind = 'notice';
    title = `known failure ${r.ruleId}`;
  } else if (r.verdict === 'ERROR') kind = 'warning';
  else if (failsTheRun(r, run.options)) kind = 'error';
  else {
    kind = 'warning';
    title = `${title} (${r.level}: counts only with --strict)`;
  }
  const because = excuse ? ` (known: ${excuse.reason}${excuse.expires ? `, expires ${excuse.expires}` : ''})` : '';
  console.log(`::${kind} title=${escapeProperty(title)}::${escapeData(`${r.clause}: ${why}${because}`)}`);
}
