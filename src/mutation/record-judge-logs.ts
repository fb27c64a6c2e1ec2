/** `npm run judge-logs`: records the logs the judges' tests read (see judge-logs.ts). */
import { loadCatalogue } from '../runner/catalogue.ts';
import { recordJudgeLogs, writeJudgeLogs } from './judge-logs.ts';

const logs = await recordJudgeLogs(await loadCatalogue());
await writeJudgeLogs(logs);
const faults = logs.reduce((n, l) => n + Object.keys(l.faults).length, 0);
console.log(`recorded the logs of ${logs.length} rules and ${faults} faults`);
