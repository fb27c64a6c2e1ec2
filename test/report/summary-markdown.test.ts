/**
 * reports/summary.md, which the GitHub Action writes to the job summary: the
 * gate's warnings (a new failure, an unexpected pass, an expired entry) are
 * said, not only "passed"; and a read-only run's coverage says what it is
 * measured on, so 65% beside ✅ is not read as a gap.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-summary-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('summary.md', () => {
  test('a passed gate still shows its warnings: each unexpected pass and expired entry, with what to do', () => {
    const run = {
      ...fixtureRun(),
      gate: {
        file: 'expectations/staging.json',
        passed: true,
        knownFailures: [{ rule: 'pagination.limit-respected', reason: 'ticket 12' }],
        unexpectedFailures: [],
        unexpectedPasses: ['teams.assign-replaces'],
        expired: [{ rule: 'rates.periods-ordered', reason: 'ticket 7', expires: '2026-01-31' }],
      },
    };
    const md = renderSummaryMarkdown(run);
    expect(md).toContain('Gate (expectations/staging.json): passed; 0 new failure(s), 1 known.');
    expect(md).toContain(
      '- ⚠️ unexpected pass: `teams.assign-replaces` passes but is a known failure: remove it from the expectations file',
    );
    expect(md).toContain(
      '- ⚠️ expired expectation: `rates.periods-ordered` (expired 2026-01-31: ticket 7): fix the server or renew it',
    );
    const failed = renderSummaryMarkdown({
      ...run,
      gate: {
        ...run.gate,
        passed: false,
        unexpectedFailures: ['list.kind-id-required'],
        unexpectedPasses: [],
        expired: [],
      },
    });
    expect(failed).toContain('Gate (expectations/staging.json): failed; 1 new failure(s), 1 known.');
    expect(failed).toContain('- ❌ new failure: `list.kind-id-required`');
    expect(failed).not.toContain('⚠️ unexpected pass');
  });

  test('a read-only run: coverage of the selection and of what the target can serve, and why the rest did not run', async () => {
    const reports = join(dir, 'read-only');
    const code = await main(['run', '--read-only', '--reports', reports, '--quiet'], { out: () => {}, err: () => {} });
    expect(code).toBe(0);
    const md = await readFile(join(reports, 'summary.md'), 'utf8');
    const results: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
    expect(results).toMatchObject({ summary: { servableCoverage: 1 } });
    expect(md).toMatch(/^## Directory conformance: ✅ conformant/);
    expect(md).toMatch(/\| \d+\.\d% of the selection; 100\.0% of the (\d+) rules this target can serve \|/);
    expect(md).toMatch(
      /\nNot served by design: (\d+) of the \d+ selected rules — \1 turned off by the options \(--read-only, or no --allow-mutations against an external target\)\. Coverage is required of the \d+ others: 100\.0% of them ran \(required 100\.0%\)\.\n/,
    );
  });

  test('a run that served every selected rule says one coverage, without the explanation', () => {
    const run = fixtureRun();
    const md = renderSummaryMarkdown({ ...run, summary: { ...run.summary, servable: run.summary.total } });
    expect(md).not.toContain('Not served by design');
    expect(md).not.toContain('of the selection');
  });
});
