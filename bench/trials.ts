/**
 * `npm run trials`: the staging-safety promises (docs/staging-safety.md) tried many times with
 * different seeds (kills and restores, dropped restores, concurrent and
 * aliased runs, network faults, encodings of a key, hostile answers), one
 * trial at a time, everything on 127.0.0.1. Prints each trial, then a
 * Markdown table of tried, reached and held per family; `--write` puts the
 * table in docs/staging-safety.md between its trials markers. `--runs N` runs N trials of
 * each family, `--only <text>` the families whose name holds the text.
 * Exits 1 when a trial did not hold. A few minutes on 2 cores.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TRIAL_FAMILIES } from './trials/families.ts';
import type { TrialOutcome } from './trials/harness.ts';
import { trialsTable, withTrialsTable, type FamilyTally } from './trials/table.ts';

const { values } = parseArgs({
  options: { write: { type: 'boolean', default: false }, runs: { type: 'string' }, only: { type: 'string' } },
});
const runs = values.runs === undefined ? undefined : Number(values.runs);
if (runs !== undefined && !(Number.isSafeInteger(runs) && runs > 0)) {
  process.stderr.write(`--runs must be a whole number above 0, not ${values.runs}\n`);
  process.exit(2);
}
if (values.write && (values.only !== undefined || runs !== undefined)) {
  process.stderr.write('--write writes the whole table: it takes neither --only nor --runs\n');
  process.exit(2);
}
const families = TRIAL_FAMILIES.filter((f) => values.only === undefined || f.name.includes(values.only));

/** A trial that has not ended after this long did not hold. */
const TRIAL_LIMIT_MS = 120_000;

async function bounded(run: () => Promise<TrialOutcome>): Promise<TrialOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<TrialOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ held: false, reached: false, detail: `did not end within ${TRIAL_LIMIT_MS / 1000} s` }),
      TRIAL_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([
      run().catch((e: unknown) => ({
        held: false,
        reached: false,
        detail: `threw: ${e instanceof Error ? e.message : String(e)}`,
      })),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const scratch = await mkdtemp(join(tmpdir(), 'dc-trials-'));
const started = performance.now();
const tallies: FamilyTally[] = [];
try {
  for (const family of families) {
    const tally: FamilyTally = { family, tried: 0, reached: 0, held: 0 };
    for (let seed = 1; seed <= (runs ?? family.runs); seed++) {
      const t = performance.now();
      const outcome = await bounded(() => family.trial(seed, scratch));
      tally.tried += 1;
      if (outcome.reached) tally.reached += 1;
      if (outcome.held) tally.held += 1;
      const verdict = outcome.held ? 'held' : 'DID NOT HOLD';
      const seconds = ((performance.now() - t) / 1000).toFixed(1);
      process.stderr.write(`${family.name} #${seed}: ${verdict}, ${outcome.detail} (${seconds} s)\n`);
    }
    tallies.push(tally);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const table = trialsTable(tallies);
const minutes = ((performance.now() - started) / 60_000).toFixed(1);
process.stdout.write(`${table}\n\n${tallies.reduce((n, t) => n + t.tried, 0)} trials in ${minutes} min\n`);
if (values.write) {
  const path = new URL('../docs/staging-safety.md', import.meta.url);
  await writeFile(path, withTrialsTable(await readFile(path, 'utf8'), table));
  process.stdout.write('docs/staging-safety.md: trials table written\n');
}
process.exit(tallies.every((t) => t.held === t.tried) ? 0 : 1);
