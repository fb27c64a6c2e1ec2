/**
 * Kills and restores: a run changing resources (model sequences of activity
 * rates, behind 10 ms of latency, in a child process) is sent SIGKILL,
 * SIGINT or SIGTERM (by the seed) while it is changing them. After SIGINT or
 * SIGTERM the run itself puts back what it changed and exits 130 or 143;
 * after SIGKILL one `restore` of its journal does, and a second `restore` has
 * nothing left to do, and the next run takes over the locks the killed one
 * left. Either way no resource differs from before the run and no lock file
 * is left.
 */
import { join } from 'node:path';
import {
  between,
  cli,
  cliProcess,
  exited,
  journalSaysChanging,
  latencyProxy,
  lockFilesLeft,
  mutatingRunArgs,
  random,
  sleep,
  startTarget,
  stateOfTarget,
  type TrialOutcome,
} from './harness.ts';

const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM'] as const;
const EXIT_CODE = { SIGINT: 130, SIGTERM: 143 } as const;

export async function killTrial(seed: number, scratch: string): Promise<TrialOutcome> {
  const target = await startTarget(scratch, { seed });
  const { server } = target;
  const proxy = await latencyProxy(server.url, 10);
  try {
    const signal = SIGNALS[seed % SIGNALS.length] ?? 'SIGKILL';
    const next = random(seed);
    const initial = await stateOfTarget(server);
    const reports = join(target.dir, 'reports');
    const journal = join(reports, 'journal.jsonl');
    const { child, output } = cliProcess(
      [
        'run',
        '--base-url',
        proxy.url,
        '--profile',
        target.profilePath,
        '--allow-mutations',
        '--rate',
        '0',
        '--seed',
        String(seed),
        '--rule',
        'activity-rates.prop.model-sequences',
        '--rule',
        'activity-rates.prop.assign-then-show',
        '--num-runs',
        '40',
        '--reports',
        reports,
      ],
      { DIRECTORY_API_KEY: server.apiKey },
    );
    const ended = exited(child, 60_000);
    await journalSaysChanging(journal);
    // A moment into the change, chosen by the seed; then the signal as soon as the target shows a change.
    await sleep(between(next, 0, 200));
    let changed = false;
    for (let i = 0; i < 300 && !changed; i++) {
      changed = (await stateOfTarget(server)) !== initial;
      if (!changed) await sleep(5);
    }
    child.kill(signal);
    const code = await ended;
    const problems: string[] = [];
    if (signal === 'SIGKILL') {
      const restored = await cli(['restore', journal, '--api-key', server.apiKey]);
      if (restored.code !== 0) problems.push(`restore exited ${restored.code}: ${restored.out.trim()}`);
      if (restored.out.includes(server.apiKey)) problems.push('restore printed the key');
      const again = await cli(['restore', journal, '--api-key', server.apiKey]);
      if (again.code !== 0 || !again.out.includes('nothing to restore'))
        problems.push(`a second restore did not find everything put back: ${again.out.trim()}`);
      // The killed run's locks are left behind, held by no one: the next run takes them over at once.
      const after = await cli([
        'run',
        '--base-url',
        proxy.url,
        ...mutatingRunArgs(target),
        '--rule',
        'activity-rates.assign-no-content',
        '--reports',
        join(target.dir, 'next'),
      ]);
      if (after.code !== 0) problems.push(`the next run exited ${after.code}: ${after.out.trim().slice(-300)}`);
    } else if (code !== EXIT_CODE[signal]) {
      problems.push(`exited ${code} after ${signal}, not ${EXIT_CODE[signal]}: ${output().trim().slice(-300)}`);
    }
    if ((await stateOfTarget(server)) !== initial) problems.push('the target differs from before the run');
    const locks = await lockFilesLeft(proxy.url, server);
    if (locks.length > 0) problems.push(`lock files left: ${locks.join(', ')}`);
    return {
      held: problems.length === 0,
      reached: changed,
      detail: `${signal}${changed ? ' while the target was changed' : ' before any change showed'}${
        problems.length > 0 ? `: ${problems.join('; ')}` : ''
      }`,
    };
  } finally {
    await proxy.close();
    await target.close();
  }
}
