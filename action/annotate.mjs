// One GitHub annotation per rule that failed or errored, from a run's results.json:
// `::error title=<rule id>::<clause>: <where>: <message>` (workflow commands, escaped as GitHub documents).
import { readFileSync } from 'node:fs';

const escapeData = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const run = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const r of run.results) {
  if (r.verdict !== 'FAIL' && r.verdict !== 'ERROR') continue;
  const v = r.violations?.[0];
  const why = v ? `${v.where}: ${v.message}` : (r.reason ?? '');
  const kind = r.verdict === 'FAIL' ? 'error' : 'warning';
  console.log(`::${kind} title=${escapeProperty(`${r.verdict} ${r.ruleId}`)}::${escapeData(`${r.clause}: ${why}`)}`);
}
