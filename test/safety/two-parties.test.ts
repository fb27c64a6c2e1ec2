/**
 * Two runs that change one target from two machines: no lock can keep them
 * apart. Here two runs of the CLI, each a child process with its own
 * temporary folder (where target-lock.ts keeps its locks: the system's
 * temporary folder, TMPDIR), change the activity rates and teams of one
 * conformant reference server at the same time, over several seeds. Each
 * sees the other's changes; confirmation before a FAIL (run-rules.ts,
 * quiet-reads.ts) makes them ERROR (DC_ERR_FOREIGN_CHANGE) or FLAKY, never
 * a FAIL.
 *
 * A third party changes the same resources too, once both runs are under
 * way, on dates neither run touches (2150): restoration leaves its change in
 * place, and it is still there when both runs have ended. What the test
 * cannot state: that the two runs leave each other's changes alone. Each run
 * counts a difference on dates it changed itself as its own when it shows a
 * value the run set there (own-mutations.ts), so two suites setting the same
 * values on the same days can put back each other's half-done changes; the
 * state the two leave is not checked here.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { readResults } from '../../src/gate/results-file.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { startForwardingProxy } from '../helpers/forwarding-proxy.ts';

// Four seeds in the full proof (`npm run proof` runs this file too), two in `npm test`.
const SEEDS = inject('proof') === true ? [1, 2, 3, 4] : [1, 2];
/**
 * The third party's change: a rate on dates no rule of the selection touches (a short period, so no rule
 * picks it as the longest to work inside).
 */
const THIRD_PARTY_RANGE = '2150-01-01/2150-01-05';
/** Requests the two runs send through the proxy before the third party changes the resources. */
const THIRD_PARTY_AFTER = 150;

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'dc-two-parties-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

function cli(args: string[], lockFolder: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/from-source.ts', ...args], {
      env: { ...process.env, TMPDIR: lockFolder },
      stdio: 'ignore',
    });
    child.on('close', (code) => resolve(code));
  });
}

async function post(
  server: ReferenceServer,
  operation: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await request(`${server.url}/api/directory/${operation}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.apiKey}`,
      'content-type': 'application/json',
      'service-version': '26.06.25',
    },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The resources the activity-rates rules change: the mutable ones of a kind with roles. */
function rateResources(server: ReferenceServer): string[] {
  const roleKinds = new Set(server.profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
  return server.profile.mutableResources
    .filter((r) => roleKinds.has(r.kindId))
    .map((r) => r.id)
    .slice(0, 8);
}

for (const seed of SEEDS) {
  test(`seed ${seed}: two runs from two lock folders, one target: no FAIL, a third party's change left in place`, async () => {
    const server = await startReferenceServer({});
    const dir = await mkdtemp(join(scratch, `seed-${seed}-`));
    const resources = rateResources(server);
    let requests = 0;
    let thirdParty: Promise<number[]> | undefined;
    // Counted, not timed: once the runs have sent that many requests, the third party makes its change.
    const proxy = await startForwardingProxy(server.url, async () => {
      requests += 1;
      if (requests === THIRD_PARTY_AFTER) {
        thirdParty = Promise.all(
          resources.map(async (resource_id) => {
            const res = await post(server, 'resources.assign-activity-rate', {
              resource_id,
              date_range: THIRD_PARTY_RANGE,
              average_rate: 42,
              work_regime_id: server.profile.workRegimeIds?.[0],
              trainee: false,
              apprentice: false,
              paid_hourly: false,
            });
            return res.status;
          }),
        );
        await thirdParty;
      }
      return false;
    });
    try {
      const { restrictedApiKey: _omit, ...profile } = server.profile;
      const profilePath = join(dir, 'profile.json');
      await writeFile(profilePath, JSON.stringify(profile));
      const runs = await Promise.all(
        [1, 2].map(async (n) => {
          const locks = join(dir, `locks-${n}`);
          await mkdir(locks);
          const reports = join(dir, `reports-${n}`);
          const code = await cli(
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
              '--num-runs',
              '3',
              '--seed',
              String(seed * 10 + n),
              '--rule',
              'activity-rates.*',
              '--reports',
              reports,
            ],
            locks,
          );
          return { code, results: await readResults(join(reports, 'results.json')) };
        }),
      );
      // Neither refused: the lock folders kept them from seeing each other's locks.
      expect(runs.map((r) => r.code)).not.toContain(2);
      const failed = runs.flatMap((r) =>
        r.results.results.filter((x) => x.verdict === 'FAIL').map((x) => `${x.ruleId}: ${x.violations[0]?.where}`),
      );
      expect(failed).toEqual([]);
      // The third party's change was made while both ran, and both runs' restorations left it in place.
      expect(await thirdParty).toEqual(resources.map(() => 204));
      for (const resource_id of resources) {
        const shown = await post(server, 'resources.show-activity-rates', {
          resource_id,
          date_range: THIRD_PARTY_RANGE,
        });
        expect(shown.json, `resource ${resource_id}`).toEqual([
          expect.objectContaining({ date_range: THIRD_PARTY_RANGE, average_rate: 42 }),
        ]);
      }
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 120_000);
}
