import { mkdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';

/** The files a run writes; an earlier run's copies are removed before a new run starts. */
export const REPORT_FILES = ['index.html', 'junit.xml', 'results.json', 'summary.md', 'exchanges.har'] as const;

/**
 * Checked before the first request: the reports folder exists (or is made)
 * and takes a file, so a bad `--reports` is a usage error at once, not a
 * stack trace after a run that changed the target. Reports an earlier run
 * left there are removed, so CI never uploads them as this run's.
 */
export async function prepareReportsDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
    const probe = join(dir, `.directory-conformance-probe-${process.pid}`);
    await writeFile(probe, '');
    await unlink(probe);
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^[A-Z]+: /, '') : String(e);
    throw new UsageError(`cannot write reports to ${JSON.stringify(dir)}: ${reason}`);
  }
  await Promise.all(REPORT_FILES.map((name) => rm(join(dir, name), { force: true })));
}
