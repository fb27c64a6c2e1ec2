import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJUnit } from '../../src/report/junit.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { fixtureRun, SECRET } from '../fixtures/run-result/fixture-run.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('writeReports', () => {
  test('creates the directory and writes junit.xml, index.html and results.json, returning their paths', async () => {
    const base = await mkdtemp(join(tmpdir(), 'dc-reports-'));
    try {
      const dir = join(base, 'nested', 'reports');
      const run = fixtureRun();
      const paths = await writeReports(run, dir);
      expect(paths).toEqual({
        junit: join(dir, 'junit.xml'),
        html: join(dir, 'index.html'),
        json: join(dir, 'results.json'),
        summary: join(dir, 'summary.md'),
        // One reproducer per FAIL.
        reproducers: run.results
          .filter((r) => r.verdict === 'FAIL')
          .map((r) => join(dir, 'reproduce', `${r.ruleId}.sh`)),
      });
      expect(await readFile(paths.junit, 'utf8')).toBe(renderJUnit(run));
      expect(await readFile(paths.html, 'utf8')).toBe(renderHtml(run));
      expect(await readFile(paths.json, 'utf8')).toBe(renderJson(run));
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  test('no report shows a key, even with the keys in the environment: placeholders stay placeholders', async () => {
    vi.stubEnv('DIRECTORY_API_KEY', SECRET);
    vi.stubEnv('DIRECTORY_RESTRICTED_API_KEY', `${SECRET}-restricted`);
    const dir = await mkdtemp(join(tmpdir(), 'dc-reports-'));
    try {
      const paths = await writeReports(fixtureRun(), dir);
      for (const path of Object.values(paths).flat()) expect(await readFile(path, 'utf8')).not.toContain(SECRET);
      expect(paths.reproducers.length).toBeGreaterThan(0);
      // The reports that carry transcripts and curl commands show the placeholders.
      for (const path of [paths.junit, paths.html, paths.json]) {
        const text = await readFile(path, 'utf8');
        expect(text).toContain('$DIRECTORY_API_KEY');
        expect(text).toContain('$DIRECTORY_RESTRICTED_API_KEY');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
