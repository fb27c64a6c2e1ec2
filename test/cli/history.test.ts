/**
 * `run --history DIR`: each run's results.json is kept in DIR; the terminal
 * and summary.md name the rules whose verdict changed since the last run, the
 * HTML report shows every rule's strip of verdicts, and a rule that flips
 * often is marked unstable. A file in DIR that is not a results file is one
 * warning line, never a crash.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-history-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const RULE = 'revoke-roles.star-leaves-no-team';

async function run(faulty: boolean): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const args = ['run', '--rule', RULE, '--seed', '1', '--quiet', '--reports', join(dir, 'reports')];
  args.push('--history', join(dir, 'history'));
  if (faulty) args.push('--fault', 'revoke-star-removes-role');
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (err += `${l}\n`) });
  return { code, out, err };
}

test('the rules that changed are named, every rule has its strip, a rule that flips often is unstable', async () => {
  const first = await run(false);
  expect(first.code, first.err).toBe(0);
  expect(first.out).toContain('history: the first run kept in');

  const second = await run(true);
  expect(second.code).toBe(1);
  expect(second.out).toContain(`PASS → FAIL ${RULE}`);
  const summary = await readFile(join(dir, 'reports', 'summary.md'), 'utf8');
  expect(summary).toContain('History: 1 rule changed since the last run.');
  expect(summary).toContain(`| \`${RULE}\` | PASS | FAIL |`);
  const html = await readFile(join(dir, 'reports', 'index.html'), 'utf8');
  expect(html).toContain('<div class="figure" id="history">');
  expect(html).toMatch(/<div class="history" data-flips="1"><span class="strip" role="img" aria-label="PASS, FAIL">/);
  expect(html).toContain('failing since');

  // Something that is not a results file, among them: one warning line, and the run goes on.
  await writeFile(join(dir, 'history', 'results-20000101T000000000Z.json'), '{ not json');
  const third = await run(false);
  expect(third.code).toBe(0);
  expect(third.err.trim().split('\n')).toEqual([expect.stringContaining('results-20000101T000000000Z.json')]);
  expect(third.out).toContain(`FAIL → PASS ${RULE}`);
  expect(third.out).not.toContain('(unstable)');

  const fourth = await run(true);
  expect(fourth.out).toContain(`PASS → FAIL ${RULE} (unstable)`);
  expect(await readFile(join(dir, 'reports', 'index.html'), 'utf8')).toContain('data-unstable="true"');
  expect((await readdir(join(dir, 'history'))).filter((n) => n.startsWith('results-'))).toHaveLength(5);
}, 60_000);
