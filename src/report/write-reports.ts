import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../core/types.ts';
import type { RunHistory } from '../gate/history.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJUnit } from './junit.ts';
import type { HarRecorder } from './har.ts';
import { renderSummaryMarkdown, type SummaryLinks } from './summary-markdown.ts';
import { makeFolder } from './reports-dir.ts';
import { writeReproducers } from './write-reproducers.ts';

export async function writeReports(
  run: RunResult,
  dir: string,
  extra: { har?: HarRecorder; links?: SummaryLinks; history?: RunHistory } = {},
): Promise<{ junit: string; html: string; json: string; summary: string; har?: string; reproducers: string[] }> {
  await makeFolder(dir);
  const paths = {
    junit: join(dir, 'junit.xml'),
    html: join(dir, 'index.html'),
    json: join(dir, 'results.json'),
    summary: join(dir, 'summary.md'),
    ...(extra.har ? { har: join(dir, 'exchanges.har') } : {}),
  };
  const [reproducers] = await Promise.all([
    writeReproducers(run, dir),
    writeFile(paths.junit, renderJUnit(run)),
    writeFile(paths.html, renderHtml(run, extra.history)),
    writeFile(paths.json, renderJson(run)),
    writeFile(paths.summary, renderSummaryMarkdown(run, extra.links, extra.history)),
    ...(extra.har && paths.har ? [writeFile(paths.har, extra.har.render(run.tool))] : []),
  ]);
  return { ...paths, reproducers };
}
