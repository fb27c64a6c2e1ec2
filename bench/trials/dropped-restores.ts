/**
 * Dropped restores: a proxy breaks every n-th request of what a restoration
 * sends and reads (in turn a redirect to itself, a cut JSON body, a reset
 * connection; n and the phase by the seed) during a run of the rules that
 * change resources and put them back. A resource whose restoration did not
 * verify stays pending in the journal (no later rule writes it off as put
 * back); after the run and one `restore`, no resource differs from before.
 */
import { join } from 'node:path';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { readResults } from '../../src/gate/results-file.ts';
import { pendingChanges, readJournal } from '../../src/runner/undo-journal.ts';
import { between, cli, mutatingRunArgs, random, startTarget, stateOfTarget, type TrialOutcome } from './harness.ts';

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

export async function droppedRestoreTrial(seed: number, scratch: string): Promise<TrialOutcome> {
  const target = await startTarget(scratch, { seed });
  const { server } = target;
  const next = random(seed);
  const every = between(next, 8, 16);
  const proxy = await startHostileProxy({
    mode: 'break-restores',
    upstream: server.url,
    every,
    after: between(next, 1, 30),
  });
  try {
    const initial = await stateOfTarget(server);
    const reports = join(target.dir, 'reports');
    const journal = join(reports, 'journal.jsonl');
    const run = await cli([
      'run',
      '--base-url',
      proxy.url,
      ...mutatingRunArgs(target),
      '--seed',
      String(seed),
      '--num-runs',
      '4',
      '--reports',
      reports,
      ...REVERSIBLE.flatMap((r) => ['--rule', r]),
    ]);
    const problems: string[] = [];
    const results = await readResults(join(reports, 'results.json'));
    const failedRestores = results.results.filter((r) => r.errorCode === 'DC_ERR_RESTORE').length;
    const pending = pendingChanges(await readJournal(journal)).length;
    const changedAfterRun = (await stateOfTarget(server)) !== initial;
    if (changedAfterRun && pending === 0) problems.push('the run left resources changed with nothing pending');
    const restored = await cli(['restore', journal, '--base-url', server.url, '--api-key', server.apiKey]);
    if (restored.code !== 0) problems.push(`restore exited ${restored.code}: ${restored.out.trim()}`);
    if ((await stateOfTarget(server)) !== initial) problems.push('the target differs after restore');
    return {
      held: problems.length === 0,
      reached: failedRestores > 0,
      detail: `every ${every}th restoring request broken: exit ${run.code}, ${failedRestores} restoration(s) not verified, ${pending} resource(s) pending${
        problems.length > 0 ? `: ${problems.join('; ')}` : ''
      }`,
    };
  } finally {
    await proxy.close();
    await target.close();
  }
}
