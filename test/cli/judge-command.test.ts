/**
 * `directory-conformance judge FILE.har`: a run's recorded traffic judged
 * again with no request sent gives the run's verdicts: a FAIL where the run
 * failed (exit 1), none where it passed (exit 0); a file that is no HAR is
 * one line, exit 2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-judge-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

/** The embedded server's run of `rules` (with `fault`), then its HAR judged again. */
async function runThenJudge(name: string, rules: string[], fault?: string) {
  const reports = join(dir, name);
  const selection = rules.flatMap((r) => ['--rule', r]);
  const run = await cli([
    'run',
    '--seed',
    '1',
    '--reports',
    reports,
    ...selection,
    ...(fault ? ['--fault', fault] : []),
  ]);
  const judged = await cli(['judge', join(reports, 'exchanges.har'), '--reports', `${reports}-judged`, ...selection]);
  return { run, judged };
}

describe('judge', () => {
  test("a run's FAIL, judged again from its HAR, is a FAIL of the same rule: exit 1", async () => {
    const { run, judged } = await runThenJudge(
      'faulty',
      ['list-roles.plain-array', 'pagination.envelope'],
      'list-roles-envelope',
    );
    expect(run.code).toBe(1);
    expect(judged.code, judged.out).toBe(1);
    expect(judged.out).toMatch(/^FAIL +list-roles\.plain-array \(\d+ exchanges?\): /m);
    expect(judged.out).toMatch(/^PASS +pagination\.envelope /m);
  }, 60_000);

  test('a conformant run judged again passes: exit 0, nothing sent', async () => {
    const { run, judged } = await runThenJudge('clean', ['list-roles.plain-array', 'pagination.envelope']);
    expect(run.code).toBe(0);
    expect(judged.code, judged.out).toBe(0);
    expect(judged.out).not.toMatch(/^FAIL/m);
    expect(judged.out).toMatch(/2 rules judged again: 2 PASS/);
  }, 60_000);

  test('a file that is no HAR is one line naming it, exit 2', async () => {
    const bad = join(dir, 'bad.har');
    await writeFile(bad, JSON.stringify({ log: { entries: 'none' } }));
    const { code, out } = await cli(['judge', bad, '--reports', join(dir, 'bad-reports')]);
    expect(code).toBe(2);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toContain(bad);
  });
});
