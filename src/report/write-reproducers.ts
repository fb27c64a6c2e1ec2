/**
 * Writes reproduce/<rule-id>.sh beside the reports for every FAIL (see
 * reproducer-script.ts); an earlier run's scripts are removed first, so the
 * folder holds this run's FAILs and nothing else.
 */
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../core/types.ts';
import { makeFolder } from './reports-dir.ts';
import { reproducerScript } from './reproducer-script.ts';

export const REPRODUCE_FOLDER = 'reproduce';

/** The paths written, one per FAIL. */
export async function writeReproducers(run: RunResult, dir: string): Promise<string[]> {
  const folder = join(dir, REPRODUCE_FOLDER);
  await rm(folder, { recursive: true, force: true });
  const failed = run.results.filter((r) => r.verdict === 'FAIL');
  if (failed.length === 0) return [];
  await makeFolder(folder);
  return Promise.all(
    failed.map(async (r) => {
      const path = join(folder, `${r.ruleId}.sh`);
      await writeFile(path, reproducerScript(r, run));
      await chmod(path, 0o755);
      return path;
    }),
  );
}
