import { appendFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { restoreState } from '../rules/state-guard.ts';
import { allRules, loadCatalogue } from '../runner/catalogue.ts';
import { checkOwners } from '../runner/check-owners.ts';
import { pendingChanges, readJournal } from '../runner/undo-journal.ts';
import { RESTORE_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import { targetClient } from './target-client.ts';
import type { Output } from './run-command.ts';
import { checkBaseUrl } from '../session/run-session.ts';
import { lockTarget, type TargetLock } from '../session/target-lock.ts';
import { TARGET_TIMING } from '../core/timing.ts';

const RESTORE_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  // The target as the run reached it: its extra headers, proxy and CAs.
  header: { type: 'string', multiple: true },
  proxy: { type: 'string' },
  'ca-cert': { type: 'string' },
} as const;

/**
 * `directory-conformance restore JOURNAL`: puts back what an interrupted or
 * crashed run changed, from its write-ahead journal. Each resource is read
 * first and left alone when it already is as it was, so running it twice is
 * safe; each one put back is written to the journal as restored. It takes
 * the lock a run takes on those resources of the target: it never restores
 * under a run that is still changing them.
 * Exit 0 when everything restorable is back, 1 when something is not.
 */
export async function restoreCommand(
  argv: string[],
  io: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseOptions(argv, RESTORE_OPTIONS, true);
  if (values.help) {
    io.out(RESTORE_HELP);
    return 0;
  }
  const path = positionals[0];
  if (!path || positionals.length > 1) throw new UsageError('restore takes one journal file (reports/journal.jsonl)');
  // Looked at before it is opened: a FIFO named here would keep restore waiting for ever.
  await refuseIfNotRegularFile(path, 'the journal');
  const lines = await readJournal(path).catch((e: unknown) => {
    // A journal that reads but is not one is named line by line by readJournal; this is a file that cannot be read.
    if (e instanceof UsageError) throw e;
    throw new UsageError(
      `cannot read the journal ${JSON.stringify(path)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  });
  const run = lines.find((l) => l.event === 'run');
  if (!run) throw new UsageError(`${path} is not a journal of a run (no run line)`);
  const baseUrl = values['base-url'] ?? run.baseUrl;
  checkBaseUrl(baseUrl);
  const apiKey = values['api-key'] ?? env.DIRECTORY_API_KEY;
  if (!apiKey) throw new UsageError('restore needs the API key of the run: DIRECTORY_API_KEY or --api-key');
  const { client, redactor, dispatcher } = await targetClient(
    {
      baseUrl,
      serviceVersion: run.serviceVersion,
      apiKey,
      header: values.header,
      proxy: values.proxy,
      caCert: values['ca-cert'],
    },
    env,
  );
  const pending = pendingChanges(lines);
  let failed = 0;
  let lock: TargetLock | undefined;
  try {
    if (pending.length > 0) {
      lock = await lockTarget(
        baseUrl,
        pending.map((c) => c.resourceId),
        { wait: false, advice: 'let it end (it puts back what it changes), then restore what is still pending' },
      );
    }
    if (pending.length === 0) io.out(`${path}: nothing to restore, every change of the run was put back`);
    // A departure a read shows is named by the rule whose clause it breaks, as in a run.
    const ownerOf = checkOwners(allRules(await loadCatalogue()));
    for (const change of pending) {
      try {
        // Outside a run no verdict is kept: a read that breaks its rule stops the restoration with its error.
        await restoreState(
          { ruleId: 'restore', client, found: () => undefined, ownerOf, timing: TARGET_TIMING },
          change.state,
        );
        const line = {
          event: 'restored',
          at: new Date().toISOString(),
          ruleId: change.ruleId,
          resourceId: change.resourceId,
        };
        await appendFile(path, `${JSON.stringify(line)}\n`);
        io.out(`restored resource ${change.resourceId} (rates and teams as before ${change.ruleId})`);
      } catch (e) {
        failed += 1;
        io.err(
          `could not restore resource ${change.resourceId}: ${redactor.redact((e as Error).message ?? String(e))}`,
        );
      }
    }
  } finally {
    await lock?.release();
    await dispatcher.close();
  }
  const revoked = [...new Set(lines.filter((l) => l.event === 'irreversible').map((l) => l.resourceId))];
  if (revoked.length > 0) {
    io.out(
      `cannot be put back (no documented operation gives a role back): roles of ${revoked.length} resource(s) ` +
        `the run may have revoked: ${revoked.join(', ')}`,
    );
  }
  if (pending.length > 0) {
    io.out(
      'not restored by design: the external_id of activity-rate contracts, which show-activity-rates does not show',
    );
  }
  return failed > 0 ? 1 : 0;
}
