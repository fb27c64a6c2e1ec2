import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../core/types.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJUnit } from './junit.ts';

export async function writeReports(
  run: RunResult,
  dir: string,
): Promise<{ junit: string; html: string; json: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { junit: join(dir, 'junit.xml'), html: join(dir, 'index.html'), json: join(dir, 'results.json') };
  await Promise.all([
    writeFile(paths.junit, renderJUnit(run)),
    writeFile(paths.html, renderHtml(run)),
    writeFile(paths.json, renderJson(run)),
  ]);
  return paths;
}
