import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { allRules, loadCatalogue } from '../runner/catalogue.ts';
import { dirname, join, relative } from 'node:path';
import { compareRuns, coverageRegressed, renderComparisonText } from '../gate/compare-runs.ts';
import { loadExpectations, updateExpectations } from '../gate/expectations.ts';
import { readResults, readRunRecord, type RunRecord } from '../gate/results-file.ts';
import { renderComparisonHtml, renderComparisonJUnit } from '../report/compare-report.ts';
import { mergeRuns } from '../report/merge-runs.ts';
import { HarRecorder, type RecordedHarEntry } from '../report/har.ts';
import { compareText } from '../report/sections.ts';
import { readJsonFile } from '../gate/read-json-file.ts';
import { checkedFile } from '../schemas/files.ts';
import { writeReports } from '../report/write-reports.ts';
import { makeFolder } from '../report/reports-dir.ts';
import type { RunResult, RunSelection } from '../core/types.ts';
import { forgetShards, keepRunInHistory, readHistory, ruleHistories, type RunHistory } from '../gate/history.ts';
import { renderJson } from '../report/json.ts';
import { EXIT, exitCodeOf } from './exit-codes.ts';
import { COMPARE_HELP, EXPECTATIONS_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import type { Output } from './run-command.ts';
import { printHistory } from './history-lines.ts';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';

/** The index.html written beside a results.json, as a link from `dir`; undefined when there is none. */
function reportBeside(resultsPath: string, dir: string): string | undefined {
  const html = join(dirname(resultsPath), 'index.html');
  return existsSync(html) ? relative(dir, html).split('\\').join('/') : undefined;
}

/** `compare OLD.json NEW.json`: exit 1 on a regression, or on a coverage regression unless allowed. */
export async function compareCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals: positional } = parseOptions(
    argv,
    { reports: { type: 'string' }, 'allow-coverage-drop': { type: 'boolean' } },
    true,
  );
  if (values.help) {
    io.out(COMPARE_HELP);
    return 0;
  }
  const [oldPath, newPath] = positional;
  if (positional.length !== 2 || oldPath === undefined || newPath === undefined)
    throw new UsageError('compare needs two results files: OLD.json NEW.json');
  const dir = values.reports ?? 'reports';
  const oldReport = reportBeside(oldPath, dir);
  const newReport = reportBeside(newPath, dir);
  const comparison = compareRuns(await readResults(oldPath), await readResults(newPath), {
    ...(oldReport ? { old: oldReport } : {}),
    ...(newReport ? { new: newReport } : {}),
  });
  const allowCoverageDrop = values['allow-coverage-drop'] === true;
  io.out(renderComparisonText(comparison, { allowCoverageDrop }));
  await makeFolder(dir);
  await writeFile(join(dir, 'compare.html'), renderComparisonHtml(comparison, { allowCoverageDrop }));
  await writeFile(join(dir, 'compare-junit.xml'), renderComparisonJUnit(comparison, { allowCoverageDrop }));
  io.out(`written: ${join(dir, 'compare.html')} ${join(dir, 'compare-junit.xml')}`);
  if (comparison.regressions.length > 0) return EXIT.notConformant;
  return coverageRegressed(comparison) && !allowCoverageDrop ? EXIT.notConformant : EXIT.conformant;
}

/** `expectations update --from results.json --file expectations.json`. */
export async function expectationsCommand(argv: string[], io: Output): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    io.out(EXPECTATIONS_HELP);
    return sub === undefined ? 2 : 0;
  }
  if (sub.startsWith('-'))
    throw new UsageError(
      `expectations takes its command first: expectations update --from results.json --file expectations.json (got ${sub} first)`,
    );
  if (sub !== 'update')
    throw new UsageError(
      `unknown expectations command ${JSON.stringify(sub)} (${closestName(sub, ['update']) ? 'did you mean update?' : 'the one command: update'})`,
    );
  const { values } = parseOptions(rest, { from: { type: 'string' }, file: { type: 'string' } });
  if (values.help) {
    io.out(EXPECTATIONS_HELP);
    return 0;
  }
  if (!values.from || !values.file)
    throw new UsageError('expectations update needs --from results.json and --file expectations.json');
  const known = new Set(allRules(await loadCatalogue()).map((r) => r.id));
  // An existing file is read strictly: a malformed one is an error and is never overwritten.
  const previous = existsSync(values.file) ? await loadExpectations(values.file, known) : undefined;
  const { results } = await readResults(values.from);
  // A key the target refused is the run's misconfiguration, never the server's known failure.
  const refused = results.filter((r) => r.verdict === 'ERROR' && r.errorCode === 'DC_ERR_UNAUTHENTICATED');
  if (refused.length > 0)
    throw new UsageError(
      `${values.from}: ${refused.length} rule(s) ERROR because the target refused a key (DC_ERR_UNAUTHENTICATED: ` +
        `${refused.map((r) => r.ruleId).join(', ')}); fix the key and run again: a misconfiguration is no known failure`,
      { seeHelp: false },
    );
  const written = await updateExpectations(values.file, results, previous);
  io.out(`wrote ${values.file}: ${written.expectations.length} known failure(s)`);
  return 0;
}

/** `merge A.json B.json …`: one set of reports from the results of shards. */
export async function mergeCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { reports: { type: 'string' }, history: { type: 'string' } },
    true,
  );
  if (values.help) {
    io.out(MERGE_HELP);
    return 0;
  }
  if (positionals.length < 1) throw new UsageError('merge needs at least one results file');
  const read = await Promise.all(positionals.map(async (path) => ({ path, file: await readRunRecord(path) })));
  const files = read.map((r) => r.file);
  // Shards of different selections first: a rule in two shards is only what that mistake looks like.
  const unchecked = checkShards(read.map(({ path, file }) => ({ path, selection: file.selection })));
  checkOneRun(read.map(({ path, file }) => ({ path, run: file })));
  const seen = new Set<string>();
  for (const f of files) {
    for (const r of f.results) {
      if (seen.has(r.ruleId)) throw new UsageError(`rule ${r.ruleId} is in more than one shard`);
      seen.add(r.ruleId);
    }
  }
  const run = mergeRuns(files);
  const har = await mergeHar(positionals, run.startedAt);
  const history = values.history !== undefined ? await mergedHistory(values.history, files, run) : undefined;
  const paths = await writeReports(run, values.reports ?? 'reports', {
    ...(har.recorder ? { har: har.recorder } : {}),
    ...(history ? { history } : {}),
  });
  if (history) await keepRunInHistory(history, run.startedAt, renderJson(run));
  io.out(`merged ${files.length} results file(s), ${run.results.length} rules: ${run.summary.outcome}`);
  if (history) printHistory(history, io);
  if (unchecked) io.out(`warning: ${unchecked}`);
  for (const warning of har.warnings) io.out(`warning: ${warning}`);
  for (const reason of run.summary.inconclusive) io.out(`  inconclusive: ${reason}`);
  io.out(`reports: ${paths.html}  ${paths.junit}  ${paths.json}`);
  return exitCodeOf(run.summary);
}

/**
 * `merge --history DIR`: the merged run is one run of the history, as `run
 * --history` keeps it. Shards kept in the same folder (`run --shard …
 * --history DIR`) are removed from it first: the merged run stands for them,
 * and its rules' history is read without them.
 */
async function mergedHistory(dir: string, files: readonly RunRecord[], run: RunResult): Promise<RunHistory> {
  await forgetShards(
    dir,
    files.flatMap((f) => (f.selection?.shard ? [{ startedAt: f.startedAt, ...f.selection.shard }] : [])),
  );
  return ruleHistories(dir, await readHistory(dir), run);
}

/**
 * The shards' exchanges.har (each beside its results.json) as one, entries
 * in the order they were sent; none when no shard has one, and a warning for
 * each shard whose exchanges it lacks.
 */
async function mergeHar(
  resultsPaths: readonly string[],
  startedAt: string,
): Promise<{ recorder?: HarRecorder; warnings: string[] }> {
  const warnings: string[] = [];
  const entries: RecordedHarEntry[] = [];
  let leftOut = 0;
  let found = 0;
  for (const path of resultsPaths) {
    const harPath = join(dirname(path), 'exchanges.har');
    if (!existsSync(harPath)) {
      warnings.push(`no exchanges.har beside ${path}: the merged exchanges.har lacks that shard's exchanges`);
      continue;
    }
    const har = checkedFile('HarFile', await readJsonFile(harPath, 'HAR file'), harPath);
    found += 1;
    entries.push(...har.log.entries);
    leftOut += Number(/^(\d+) later exchanges/.exec(har.log.comment ?? '')?.[1] ?? 0);
  }
  if (found === 0) return { warnings: [] };
  const recorder = new HarRecorder(startedAt);
  recorder.addRecorded(
    [...entries].sort((a, b) => compareText(a.startedDateTime ?? '', b.startedDateTime ?? '')),
    leftOut,
  );
  return { recorder, warnings };
}

const MERGE_HELP = `directory-conformance merge A.json B.json … [--reports DIR] [--history DIR]

Rebuilds junit.xml, index.html, results.json, summary.md and exchanges.har
(from each shard's exchanges.har beside its results.json) from the results
of the shards of one run (run --shard i/n). Refuses (exit 2) a set of shards that is
incomplete (a shard missing or given twice), whose shards selected
different rules, or that ran against different targets or with different
seeds (run every shard with the same --seed). With --history DIR, the merged
run is kept in DIR as run --history keeps a run (the reports show each rule's
history), and the shards' own results kept there are removed: the merged run
stands for them. Exit codes as for run: 0 conformant, 1 not conformant,
3 inconclusive.`;

/**
 * The results merged must come from one run: one target (an external server
 * by its base URL, the embedded one by its options: each shard starts its own,
 * on a port of its own), one Service-Version and one seed. Otherwise the
 * merged reports would name the first shard's target and seed for results
 * that are not theirs.
 */
function checkOneRun(files: ReadonlyArray<{ path: string; run: RunRecord }>): void {
  const [first, ...others] = files;
  if (!first) return;
  for (const f of others) {
    const [a, b] = [targetOf(f.run), targetOf(first.run)];
    if (a !== b)
      throw new UsageError(
        `${f.path} ran against ${a}, ${first.path} against ${b}: results of different targets are not one run`,
        { seeHelp: false },
      );
    if (f.run.options.seed !== first.run.options.seed)
      throw new UsageError(
        `${f.path} ran with seed ${f.run.options.seed}, ${first.path} with seed ${first.run.options.seed}: ` +
          'run every shard with the same --seed',
        { seeHelp: false },
      );
  }
}

/** A target as one text: the base URL of an external one, the options of the embedded one, and the version. */
function targetOf(run: RunRecord): string {
  const { baseUrl, serviceVersion, replayArgs } = run.target;
  // An external target's replay arguments start with its --base-url (see openTarget); the embedded one's never do.
  const external = replayArgs?.startsWith('--base-url') === true;
  const where = external ? baseUrl : `the embedded reference server${replayArgs ? ` (${replayArgs})` : ''}`;
  return `${where} (Service-Version ${serviceVersion})`;
}

function sameSelection(a: RunSelection, b: RunSelection): boolean {
  const key = (s: RunSelection) => JSON.stringify([s.rules ?? [], s.sections ?? [], s.levels ?? [], s.catalogueSize]);
  return key(a) === key(b);
}

/**
 * Shards must make a whole: the same selection, the same n, and every i from
 * 1 to n exactly once; otherwise a merge of one shard of two would read as a
 * complete run. Results that do not say which shard they are cannot be
 * checked: the returned warning says so.
 */
function checkShards(files: Array<{ path: string; selection: RunSelection | undefined }>): string | undefined {
  const sharded = files.flatMap(({ path, selection }) =>
    selection?.shard ? [{ path, selection, shard: selection.shard }] : [],
  );
  const [first] = sharded;
  if (first === undefined) {
    return files.length > 1
      ? 'these results do not come from run --shard: merge cannot check that they make a complete run'
      : undefined;
  }
  const unsharded = files.filter((f) => !f.selection?.shard);
  if (unsharded.length > 0)
    throw new UsageError(`${unsharded.map((f) => f.path).join(', ')} is not a shard (no run --shard i/n)`);
  const count = first.shard.count;
  for (const f of sharded) {
    if (f.shard.count !== count)
      throw new UsageError(`${f.path} is shard ${f.shard.index}/${f.shard.count}, not of ${count}`);
    if (!sameSelection(f.selection, first.selection))
      throw new UsageError(`${f.path} selected other rules than ${first.path}: these shards are not of one run`);
  }
  const indices = sharded.map((f) => f.shard.index);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indices.includes(i));
  const twice = indices.filter((i, at) => indices.indexOf(i) !== at);
  if (twice.length > 0) throw new UsageError(`shard ${twice[0]}/${count} is given twice`);
  if (missing.length > 0)
    throw new UsageError(
      `incomplete set of shards: ${missing.map((i) => `${i}/${count}`).join(', ')} missing (${indices.length} of ${count} given)`,
    );
  return undefined;
}
