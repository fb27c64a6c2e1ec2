/**
 * `npx tsx bench/reproducer-tally.ts [--only <text>]`: for every built-in
 * fault's catch, the catching rule (and its finder, when another rule's
 * requests show the fault) runs against the faulty reference server, the
 * reports are written, and the catching rule's reproduce/<rule-id>.sh runs
 * against a fresh faulty server and against the conformant one. Prints one
 * line per catch and a tally of the exit-code pairs, with the rules of the
 * scripts that cannot tell (exit 3). A measure, not a test: several minutes
 * on 2 cores. Needs curl and node on the PATH. `--keep` keeps the scripts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CATCHES, type Catch } from '../src/mutation/fault-catches.ts';
import {
  FAULT_NAMES,
  MUTATION_OPTIONS,
  MUTATION_RESOURCES,
  MUTATION_SERVER_SEED,
} from '../src/mutation/run-mutations.ts';
import { startReferenceServer, type FaultName, type ReferenceServer } from '../src/reference-server/index.ts';
import { writeReproducers } from '../src/report/write-reproducers.ts';
import { reachOfEveryFault } from '../src/mutation/fault-reach.ts';
import { loadCatalogue, selectRules } from '../src/runner/catalogue.ts';
import { runRules } from '../src/runner/run-rules.ts';

const { values } = parseArgs({ options: { only: { type: 'string' }, keep: { type: 'boolean', default: false } } });

/** The script's exit code against a server, the keys in its environment only; the line that says why. */
function reproduce(script: string, server: ReferenceServer): Promise<{ code: number; last: string }> {
  return new Promise((done) => {
    execFile(
      'bash',
      [script],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          DIRECTORY_BASE_URL: server.url,
          DIRECTORY_API_KEY: server.apiKey,
          DIRECTORY_RESTRICTED_API_KEY: server.restrictedApiKey,
        },
        timeout: 300_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        // The line that says why: a CANNOT TELL first, else a DEPARTS, else the last.
        const lines = `${stdout}${stderr}`.trim().split('\n');
        const why = lines.find((l) => l.startsWith('CANNOT TELL')) ?? lines.find((l) => l.startsWith('DEPARTS'));
        done({ code, last: why ?? lines.at(-1) ?? '' });
      },
    );
  });
}

function start(fault: FaultName | undefined, resources: number): Promise<ReferenceServer> {
  return startReferenceServer({ seed: MUTATION_SERVER_SEED, resources, faults: fault ? [fault] : [] });
}

const catalogue = await loadCatalogue();
const reach = await reachOfEveryFault(catalogue);

/**
 * The catching rule with the rules whose requests may show its fault: its
 * finder, the rules that FAIL beside it and those whose traffic reaches it
 * (a fault that only ordered walks show is found in other rules' walks).
 */
function rulesOf(fault: FaultName, c: Catch): string[] {
  return [c.rule, ...(c.finder ? [c.finder] : []), ...(c.alsoFails ?? []), ...(reach.get(fault) ?? [])];
}

const dir = await mkdtemp(join(tmpdir(), 'dc-reproducer-tally-'));
const pairs = new Map<string, number>();
const untold = new Map<string, FaultName[]>();
try {
  for (const fault of FAULT_NAMES.filter((f) => values.only === undefined || f.includes(values.only))) {
    const c = CATCHES[fault];
    const resources = c.resources ?? MUTATION_RESOURCES;
    const used = await start(fault, resources);
    let line: string;
    try {
      const run = await runRules(
        selectRules(catalogue, { rules: rulesOf(fault, c) }),
        { baseUrl: used.url, serviceVersion: '26.06.25', apiKey: used.apiKey, profile: used.profile },
        MUTATION_OPTIONS,
      );
      const verdict = run.results.find((r) => r.ruleId === c.rule)?.verdict ?? 'not run';
      if (verdict !== 'FAIL') line = `not FAIL (${verdict})`;
      else {
        const scripts = await writeReproducers(run, join(dir, fault));
        const script = scripts.find((s) => s.endsWith(`/${c.rule}.sh`)) ?? '';
        const fresh = await start(fault, resources);
        const reference = await start(undefined, resources);
        try {
          const faulty = await reproduce(script, fresh);
          const fixed = await reproduce(script, reference);
          line = `${faulty.code}/${fixed.code}`;
          if (faulty.code === 3) untold.set(c.rule, [...(untold.get(c.rule) ?? []), fault]);
          if (faulty.code !== 1 || fixed.code !== 0) line += ` (faulty: ${faulty.last}; reference: ${fixed.last})`;
        } finally {
          await Promise.all([fresh.close(), reference.close()]);
        }
      }
    } finally {
      await used.close();
    }
    const pair = line.split(' ')[0] ?? line;
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    process.stdout.write(`${fault} (${c.rule}): ${line}\n`);
  }
} finally {
  // --keep leaves the scripts for reading (their folder is printed); they hold no key.
  if (values.keep) process.stdout.write(`scripts kept in ${dir}\n`);
  else await rm(dir, { recursive: true, force: true });
}
process.stdout.write('\nexit codes (faulty/reference): catches\n');
for (const [pair, n] of [...pairs].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${pair}: ${n}\n`);
process.stdout.write('\nscripts that cannot tell on the faulty server (exit 3), by rule:\n');
for (const [rule, faults] of [...untold].sort((a, b) => b[1].length - a[1].length))
  process.stdout.write(`  ${rule} (${faults.length}): ${faults.join(', ')}\n`);
