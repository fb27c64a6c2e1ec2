/**
 * Two machines revoking on one target: two runs of the revocation rules, each
 * a child process with a lock folder of its own (TMPDIR), against one
 * conformant server at the same time, as two CI jobs sharing a staging
 * target would (no lock joins them). Revocations cannot be undone, so each
 * run meets the other's on the resources both take in the profile's order.
 * Holds when neither run reports a FAIL: another party's revocation is told
 * apart (ERROR DC_ERR_FOREIGN_CHANGE) or not repeated (FLAKY).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readResults } from '../../src/gate/results-file.ts';
import { cliProcess, exited, mutatingRunArgs, startTarget, type TrialOutcome } from './harness.ts';

/** Longest a run may take before the trial kills it. */
const RUN_LIMIT_MS = 90_000;

export async function twoPartiesRevokingTrial(seed: number, scratch: string): Promise<TrialOutcome> {
  const target = await startTarget(scratch, { seed: 100 + seed });
  const { server } = target;
  try {
    const runs = await Promise.all(
      [1, 2].map(async (n) => {
        const locks = join(target.dir, `locks-${n}`);
        await mkdir(locks);
        const reports = join(target.dir, `reports-${n}`);
        const { child, output } = cliProcess(
          [
            'run',
            '--base-url',
            server.url,
            ...mutatingRunArgs(target),
            '--seed',
            String(seed * 10 + n),
            '--rule',
            'revoke-roles.*',
            '--reports',
            reports,
          ],
          { TMPDIR: locks },
        );
        const code = await exited(child, RUN_LIMIT_MS);
        return { code, output: output(), results: await readResults(join(reports, 'results.json')) };
      }),
    );
    const failed = runs.flatMap((r, i) =>
      r.results.results.filter((x) => x.verdict === 'FAIL').map((x) => `run ${i + 1}: ${x.ruleId}`),
    );
    const told = runs.flatMap((r) =>
      r.results.results.filter((x) => x.errorCode === 'DC_ERR_FOREIGN_CHANGE' || x.verdict === 'FLAKY'),
    ).length;
    const refused = runs.filter((r) => r.code === 2);
    return {
      held: failed.length === 0 && refused.length === 0,
      // The two runs met: at least one departure the other party caused was seen (and told apart, or not).
      reached: told > 0 || failed.length > 0,
      detail:
        refused.length > 0
          ? `a run refused: ${refused.map((r) => r.output.trim().split('\n')[0]).join(' | ')}`
          : `exits ${runs.map((r) => String(r.code)).join(' and ')}; ${told} verdict(s) told apart or not repeated` +
            (failed.length > 0 ? `; FAIL: ${failed.join(', ')}` : ''),
    };
  } finally {
    await target.close();
  }
}
