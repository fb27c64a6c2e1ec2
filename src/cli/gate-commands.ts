import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { allRules, loadCatalogue } from '../rules/catalogue.ts';
import { join } from 'node:path';
import { compareRuns, renderComparisonText } from '../gate/compare-runs.ts';
import { loadExpectations, updateExpectations } from '../gate/expectations.ts';
import { readResults } from '../gate/results-file.ts';
import { renderComparisonHtml, renderComparisonJUnit } from '../report/compare-report.ts';
import { mergeRuns } from '../report/merge-runs.ts';
import { writeReports } from '../report/write-reports.ts';
import type { RunResult } from '../core/types.ts';
import { COMPARE_HELP, EXPECTATIONS_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import type { Output } from './run-command.ts';
import { UsageError } from '../core/errors.ts';

/** `compare OLD.json NEW.json`: exit 1 on a regression. */
export async function compareCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals: positional } = parseOptions(argv, { reports: { type: 'string' } }, true);
  if (values.help) {
    io.out(COMPARE_HELP);
    return 0;
  }
  if (positional.length !== 2) throw new UsageError('compare needs two results files: OLD.json NEW.json');
  const comparison = compareRuns(await readResults(positional[0]!), await readResults(positional[1]!));
  io.out(renderComparisonText(comparison));
  const dir = values.reports ?? 'reports';
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'compare.html'), renderComparisonHtml(comparison));
  await writeFile(join(dir, 'compare-junit.xml'), renderComparisonJUnit(comparison));
  io.out(`written: ${join(dir, 'compare.html')} ${join(dir, 'compare-junit.xml')}`);
  return comparison.regressions.length > 0 ? 1 : 0;
}

/** `expectations update --from results.json --file expectations.json`. */
export async function expectationsCommand(argv: string[], io: Output): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parseOptions(rest, { from: { type: 'string' }, file: { type: 'string' } });
  if (sub === '--help' || sub === '-h' || values.help || sub === undefined) {
    io.out(EXPECTATIONS_HELP);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'update') throw new UsageError(`unknown expectations command ${JSON.stringify(sub)} (try: update)`);
  if (!values.from || !values.file)
    throw new UsageError('expectations update needs --from results.json and --file expectations.json');
  const known = new Set(allRules(await loadCatalogue()).map((r) => r.id));
  // An existing file is read strictly: a malformed one is an error and is never overwritten.
  const previous = existsSync(values.file) ? await loadExpectations(values.file, known) : undefined;
  const written = await updateExpectations(values.file, (await readResults(values.from)).results, previous);
  io.out(`wrote ${values.file}: ${written.expectations.length} known failure(s)`);
  return 0;
}

/** `merge A.json B.json …`: one set of reports from the results of shards. */
export async function mergeCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, { reports: { type: 'string' } }, true);
  if (values.help) {
    io.out(
      'directory-conformance merge A.json B.json … [--reports DIR]\n\nRebuilds junit.xml, index.html and results.json from the results of shards.',
    );
    return 0;
  }
  if (positionals.length < 1) throw new UsageError('merge needs at least one results file');
  const files = await Promise.all(positionals.map((p) => readResults(p)));
  const seen = new Set<string>();
  for (const f of files) {
    for (const r of f.results) {
      if (seen.has(r.ruleId)) throw new UsageError(`rule ${r.ruleId} is in more than one shard`);
      seen.add(r.ruleId);
    }
  }
  const run = mergeRuns(files as unknown as RunResult[]);
  const paths = await writeReports(run, values.reports ?? 'reports');
  io.out(
    `merged ${files.length} shard(s), ${run.results.length} rules: ${run.summary.conformant ? 'conformant' : 'not conformant'}`,
  );
  io.out(`reports: ${paths.html}  ${paths.junit}  ${paths.json}`);
  return run.summary.conformant ? 0 : 1;
}
