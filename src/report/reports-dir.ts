import { mkdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { errnoCode } from '../core/errno.ts';

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
    await makeFolder(dir);
    const probe = join(dir, `.directory-conformance-probe-${process.pid}`);
    await writeFile(probe, '');
    await unlink(probe);
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^[A-Z]+: /, '') : String(e);
    throw new UsageError(`cannot write reports to ${JSON.stringify(dir)}: ${reason}`, { seeHelp: false });
  }
  await Promise.all([
    ...REPORT_FILES.map((name) => rm(join(dir, name), { force: true })),
    // The reproducers of an earlier run's FAILs (write-reproducers.ts).
    rm(join(dir, 'reproduce'), { recursive: true, force: true }),
  ]);
}

/**
 * mkdir -p, one level at a time from the nearest folder that exists. Node's
 * own recursive mkdir never returns for a path under /proc (it keeps retrying
 * an ENOENT whose parent exists), which would hang the run before it starts.
 */
export async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ;) {
    try {
      if (!(await stat(at)).isDirectory()) throw new Error(`${at} is not a folder`);
      break;
    } catch (e) {
      const parent = dirname(at);
      if (errnoCode(e) !== 'ENOENT' || parent === at) throw e;
      missing.unshift(at);
      at = parent;
    }
  }
  for (const folder of missing) {
    await mkdir(folder).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  }
}
