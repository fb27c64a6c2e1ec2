import { runMutation } from './src/mutation/run-mutations.ts';
import { EMBEDDED_TIMING, TARGET_TIMING } from './src/core/timing.ts';
const fault = process.argv[2] as any;
const t = process.argv[3] === 'target' ? TARGET_TIMING : EMBEDDED_TIMING;
const o = await runMutation(fault, undefined, process.argv[4] ? Number(process.argv[4]) : undefined, t);
console.log(JSON.stringify({ caught: o.caught, unexpected: o.unexpected, alsoPassed: o.alsoPassed, skips: o.undeclaredSkips, errors: o.errors, re: o.rejudgedOtherwise, ms: o.durationMs, owner: o.verdicts[o.expected.rule] }, null, 1));
