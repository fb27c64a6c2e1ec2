/**
 * Concurrent and aliased runs. By the seed, either two spellings of one
 * server (`http://127.0.0.1:P` and `http://localhost:P/`) changing its
 * resources, the second started 50 to 500 ms after the first; or two shards
 * started together on one reports folder. One run refuses in one line (the
 * other run's target, or the folder and `--reports`, never a `restore` of the
 * live run's journal); the other runs whole; no resource differs afterwards.
 */
import { join } from 'node:path';
import { pendingChanges, readJournal } from '../../src/runner/undo-journal.ts';
import {
  between,
  cli,
  latencyProxy,
  mutatingRunArgs,
  random,
  sleep,
  startTarget,
  stateOfTarget,
  type TrialOutcome,
} from './harness.ts';

export async function concurrentTrial(seed: number, scratch: string): Promise<TrialOutcome> {
  const target = await startTarget(scratch, { seed });
  const { server } = target;
  // Latency keeps the first run changing resources when the second starts.
  const proxy = await latencyProxy(server.url, 15);
  const next = random(seed);
  const aliased = seed % 2 === 1;
  try {
    const initial = await stateOfTarget(server);
    const common = [...mutatingRunArgs(target), '--seed', String(seed)];
    const port = new URL(proxy.url).port;
    const reports = join(target.dir, 'reports');
    let runs: Array<{ code: number; out: string }>;
    let spelling: string;
    if (aliased) {
      const args = [...common, '--num-runs', '3', '--rule', 'activity-rates.*'];
      const delay = between(next, 50, 500);
      spelling = `127.0.0.1 and localhost ${delay} ms apart`;
      const first = cli(['run', '--base-url', `http://127.0.0.1:${port}`, ...args, '--reports', join(reports, '1')]);
      await sleep(delay);
      const second = cli(['run', '--base-url', `http://localhost:${port}/`, ...args, '--reports', join(reports, '2')]);
      runs = [await first, await second];
    } else {
      const args = ['--base-url', proxy.url, ...common, '--section', '4.2', '--reports', reports];
      const delay = between(next, 0, 20);
      spelling = `two shards on one reports folder ${delay} ms apart`;
      const first = cli(['run', ...args, '--shard', '1/2']);
      await sleep(delay);
      const second = cli(['run', ...args, '--shard', '2/2']);
      runs = [await first, await second];
    }
    const problems: string[] = [];
    const refused = runs.filter((r) => r.code === 2);
    const ran = runs.filter((r) => r.code !== 2);
    if (refused.length !== 1)
      problems.push(`${refused.length} runs refused: ${runs.map((r) => r.out.trim()).join(' | ')}`);
    for (const r of refused) {
      const lines = r.out.trim().split('\n');
      if (lines.length !== 1) problems.push(`the refusal took ${lines.length} lines`);
      const expected = aliased
        ? /another run \(process \d+, since .*\) is changing resource/
        : /the reports folder .* is in use by another run .*--reports/;
      if (!expected.test(r.out)) problems.push(`the refusal does not say why: ${r.out.trim()}`);
      if (!aliased && r.out.includes('restore')) problems.push('the refusal tells the user to restore a live run');
    }
    if (!aliased && ran.length === 1 && pendingChanges(await readJournal(join(reports, 'journal.jsonl'))).length > 0)
      problems.push('the run that ran left changes pending in its journal');
    if ((await stateOfTarget(server)) !== initial) problems.push('the target differs from before the runs');
    return {
      held: problems.length === 0,
      // The second run met the first one's lock: the runs overlapped.
      reached: refused.length > 0,
      detail: `${spelling}: exits ${runs.map((r) => r.code).join(' and ')}${problems.length > 0 ? `: ${problems.join('; ')}` : ''}`,
    };
  } finally {
    await proxy.close();
    await target.close();
  }
}
