/**
 * `npm run drawn-runs`: for every fault a property owns, the property alone
 * against the faulty server with every fixed example left out, at seeds 1 to
 * 20: how many seeds its drawn runs find the fault at. Prints one line per
 * seed and the table; `--write` puts the table in docs/coverage-and-proof.md between its
 * drawn-runs markers; `--only <text>` measures the faults whose name holds
 * the text, `--seeds N` N seeds. Exits 1 when a fault is found at fewer than
 * 19 of 20 seeds. A measure, not a timed test: a few minutes on 2 cores.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DRAWN_FOUND_AT_LEAST,
  DRAWN_SEEDS,
  drawnRun,
  drawnRunsTable,
  propertyFaults,
  type DrawnTally,
} from '../src/mutation/drawn-runs.ts';
import { CATCHES } from '../src/mutation/fault-catches.ts';
import { loadCatalogue } from '../src/runner/catalogue.ts';

const { values } = parseArgs({
  options: { write: { type: 'boolean', default: false }, seeds: { type: 'string' }, only: { type: 'string' } },
});
const seeds = values.seeds === undefined ? DRAWN_SEEDS : Number(values.seeds);
if (!(Number.isSafeInteger(seeds) && seeds > 0)) {
  process.stderr.write(`--seeds must be a whole number above 0, not ${values.seeds}\n`);
  process.exit(2);
}
if (values.write && (values.only !== undefined || seeds !== DRAWN_SEEDS)) {
  process.stderr.write('--write writes the whole table: it takes neither --only nor --seeds\n');
  process.exit(2);
}

const START = '<!-- drawn-runs:start -->';
const END = '<!-- drawn-runs:end -->';

const catalogue = await loadCatalogue();
const tallies: DrawnTally[] = [];
for (const fault of propertyFaults(catalogue).filter((f) => values.only === undefined || f.includes(values.only))) {
  const tally: DrawnTally = { fault, rule: CATCHES[fault].rule, seeds: 0, found: 0 };
  for (let seed = 1; seed <= seeds; seed++) {
    const { found, verdict } = await drawnRun(fault, seed, catalogue);
    tally.seeds += 1;
    if (found) tally.found += 1;
    process.stderr.write(`${fault} seed ${seed}: ${found ? 'found' : `not found (${verdict})`}\n`);
  }
  tallies.push(tally);
}

const table = drawnRunsTable(tallies);
process.stdout.write(`${table}\n`);
if (values.write) {
  const path = join(import.meta.dirname, '..', 'docs', 'coverage-and-proof.md');
  const readme = await readFile(path, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/coverage-and-proof.md has no ${START} … ${END} markers`);
  await writeFile(path, `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`);
}
const short = tallies.filter((t) => t.found * DRAWN_SEEDS < DRAWN_FOUND_AT_LEAST * t.seeds);
if (short.length > 0) {
  process.stderr.write(
    `found at too few seeds: ${short.map((t) => `${t.fault} (${t.found}/${t.seeds})`).join(', ')}\n`,
  );
  process.exit(1);
}
