/**
 * `npm run passive-power`: what the validating proxy catches passively.
 * For each built-in faulty server (and the conformant one first), the proxy
 * in front of it judges (a) the suite's own traffic, the whole catalogue run
 * through it as the mutation run runs it, and (b) an ordinary client's
 * (`ordinary-client.ts`). A fault is caught passively when the proxy FAILs a
 * rule; by its own rule, when that rule is the one its catch names (or one
 * named beside it). The conformant server must have no FAIL from either,
 * or a catch would say nothing. The table is written to
 * reports/passive-power.{md,json}; docs/coverage-and-proof.md states its figures beside the
 * mutation run's (the active figure).
 *
 * `npm run passive-power -- --only <text>` measures the faults whose name
 * holds the text.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../src/core/types.ts';
import { CATCHES } from '../src/mutation/fault-catches.ts';
import {
  FAULT_NAMES,
  MUTATION_OPTIONS,
  MUTATION_RESOURCES,
  MUTATION_SERVER_SEED,
} from '../src/mutation/run-mutations.ts';
import type { FaultName } from '../src/reference-server/faults.ts';
import { startReferenceServer } from '../src/reference-server/index.ts';
import { allRules, loadCatalogue, selectRules } from '../src/runner/catalogue.ts';
import { runRules } from '../src/runner/run-rules.ts';
import { startProxy } from '../src/session/proxy-session.ts';
import { ordinaryClient } from './ordinary-client.ts';

const catalogue = await loadCatalogue();
const groups = selectRules(catalogue, {});
const dir = await mkdtemp(join(tmpdir(), 'dc-passive-'));

type Traffic = 'suite' | 'client';

interface Row {
  fault: FaultName | 'none';
  /** Rules the proxy FAILed, for each traffic. */
  suite: string[];
  client: string[];
}

const failed = (run: RunResult): string[] => run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.ruleId);

let cases = 0;

/** The proxy in front of a server with `fault`, judging one traffic: the rules it FAILed. */
async function measure(fault: FaultName | 'none', traffic: Traffic): Promise<string[]> {
  const resources = fault === 'none' ? MUTATION_RESOURCES : (CATCHES[fault].resources ?? MUTATION_RESOURCES);
  const server = await startReferenceServer({
    seed: MUTATION_SERVER_SEED,
    resources,
    faults: fault === 'none' ? [] : [fault],
  });
  cases += 1;
  const proxy = await startProxy({
    upstream: new URL(server.url),
    port: 0,
    annotate: false,
    reports: join(dir, `${cases}`),
    profile: server.profile,
    groups,
    selection: { catalogueSize: allRules(catalogue).length },
    onViolation: () => undefined,
  });
  try {
    if (traffic === 'suite') {
      await runRules(
        [...catalogue],
        { baseUrl: proxy.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
        MUTATION_OPTIONS,
      );
    } else {
      await ordinaryClient(proxy.url, { main: server.apiKey, restricted: server.restrictedApiKey }, server.profile);
    }
    return failed(await proxy.close());
  } finally {
    await proxy.close();
    await server.close();
  }
}

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const faults = FAULT_NAMES.filter((f) => only === undefined || f.includes(only));

/** Cases at once: each waits mostly on its own server. */
const AT_ONCE = 3;

async function row(fault: FaultName | 'none'): Promise<Row> {
  const [suite, client] = [await measure(fault, 'suite'), await measure(fault, 'client')];
  process.stderr.write(`${fault}: suite ${suite.join(', ') || '-'}; client ${client.join(', ') || '-'}\n`);
  return { fault, suite, client };
}

const rows: Row[] = [await row('none')];
for (let i = 0; i < faults.length; i += AT_ONCE) {
  rows.push(...(await Promise.all(faults.slice(i, i + AT_ONCE).map(row))));
}
await rm(dir, { recursive: true, force: true });

const conformant = rows[0];
const measured = rows.slice(1);
const owners = (fault: FaultName | 'none'): Set<string> =>
  fault === 'none' ? new Set() : new Set([CATCHES[fault].rule, ...(CATCHES[fault].alsoFails ?? [])]);
const caught = (traffic: Traffic) => measured.filter((r) => r[traffic].length > 0).length;
const byOwn = (traffic: Traffic) => measured.filter((r) => r[traffic].some((id) => owners(r.fault).has(id))).length;
const figures = {
  faults: measured.length,
  conformantFails: { suite: conformant?.suite ?? [], client: conformant?.client ?? [] },
  suite: { caught: caught('suite'), byOwnRule: byOwn('suite') },
  client: { caught: caught('client'), byOwnRule: byOwn('client') },
};

const markdown = [
  '# What the validating proxy catches passively',
  '',
  `The conformant server: the suite's traffic FAILs ${figures.conformantFails.suite.join(', ') || 'no rule'}; ` +
    `the ordinary client's FAILs ${figures.conformantFails.client.join(', ') || 'no rule'}.`,
  '',
  `- the suite's own traffic: ${figures.suite.caught} of ${figures.faults} faults caught, ` +
    `${figures.suite.byOwnRule} by their own rule`,
  `- an ordinary client's (bench/ordinary-client.ts): ${figures.client.caught} of ${figures.faults} faults caught, ` +
    `${figures.client.byOwnRule} by their own rule`,
  '',
  "| fault | its rule | the suite's traffic: rules FAILed | an ordinary client's: rules FAILed |",
  '|---|---|---|---|',
  ...measured.map(
    (r) =>
      `| ${r.fault} | ${r.fault === 'none' ? '' : CATCHES[r.fault].rule} | ${r.suite.join(', ') || '—'} | ${r.client.join(', ') || '—'} |`,
  ),
  '',
].join('\n');

await mkdir('reports', { recursive: true });
await writeFile('reports/passive-power.md', markdown);
await writeFile(
  'reports/passive-power.json',
  `${JSON.stringify({ measuredAt: new Date().toISOString(), figures, rows }, null, 2)}\n`,
);
process.stdout.write(`${markdown.split('\n').slice(0, 7).join('\n')}\n`);
