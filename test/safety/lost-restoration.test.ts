/**
 * No restoration is lost: a proxy breaks every 15th request of what a
 * restoration sends and reads (in turn a redirect to itself, a cut JSON body,
 * a reset connection). A resource whose restoration did not verify is
 * quarantined for the rest of the run (no later rule snapshots the state it
 * was left in and writes it off as restored) and stays pending in the
 * journal; after the run and one `restore`, no resource differs from before
 * the run, over several seeds.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { pendingChanges, readJournal } from '../../src/runner/undo-journal.ts';
import { stateOfTarget } from '../helpers/target-state.ts';

let server: ReferenceServer;
let dir: string;
let profilePath: string;

beforeAll(async () => {
  server = await startReferenceServer({});
  dir = await mkdtemp(join(tmpdir(), 'dc-lost-restore-'));
  profilePath = join(dir, 'profile.json');
  const { restrictedApiKey: _omit, ...profile } = server.profile;
  await writeFile(profilePath, JSON.stringify(profile));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The rules that change resources and put them back. */
const REVERSIBLE = [
  'activity-rates.assign-no-content',
  'activity-rates.assigned-rate-shown',
  'activity-rates.no-overlap',
  'activity-rates.unassign-removes-coverage',
  'activity-rates.default-pattern-even',
  'assign-team.warning-changes-nothing',
  'assign-team.warning-aware-applies',
  'activity-rates.prop.assign-then-show',
];

const SEEDS = [1, 2, 3, 4];

test('after a run whose restorations break and one restore, no resource differs', { timeout: 120_000 }, async () => {
  const initial = await stateOfTarget(server);
  let quarantined = 0;
  const reached: number[] = [];
  for (const seed of SEEDS) {
    // The phase of the breaks moves with the seed, so each run breaks different requests.
    const proxy = await startHostileProxy({ mode: 'break-restores', upstream: server.url, every: 15, after: seed * 3 });
    const reports = join(dir, `reports-${seed}`);
    let out = '';
    const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
    try {
      await main(
        [
          'run',
          '--base-url',
          proxy.url,
          '--profile',
          profilePath,
          '--api-key',
          server.apiKey,
          '--allow-mutations',
          '--rate',
          '0',
          // One rule at a time: which requests the breaks hit depends on the seed alone, not on the load.
          '--concurrency',
          '1',
          '--seed',
          String(seed),
          '--num-runs',
          '4',
          '--reports',
          reports,
          ...REVERSIBLE.flatMap((r) => ['--rule', r]),
        ],
        io,
      );
    } finally {
      await proxy.close();
    }
    const journal = join(reports, 'journal.jsonl');
    const results = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8')) as {
      results: Array<{ ruleId: string; verdict: string; errorCode?: string; reason?: string }>;
    };
    const failedRestores = results.results.filter((r) => r.errorCode === 'DC_ERR_RESTORE');
    const pending = pendingChanges(await readJournal(journal)).map((c) => c.resourceId);
    if (failedRestores.length > 0) quarantined += 1;
    reached.push(failedRestores.length);
    // Every resource a restoration left changed is still pending: none was written off by a later rule.
    if ((await stateOfTarget(server)) !== initial) expect(pending.length, out).toBeGreaterThan(0);
    const code = await main(['restore', journal, '--base-url', server.url, '--api-key', server.apiKey], io);
    expect(code, out).toBe(0);
    expect(await stateOfTarget(server), `seed ${seed}:\n${out}`).toBe(initial);
  }
  // The breaks did reach restorations: the runs had something to lose.
  expect(quarantined, `restorations broken per seed: ${reached.join(', ')}`).toBeGreaterThan(0);
});
