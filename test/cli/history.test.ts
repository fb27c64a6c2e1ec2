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

test('merge --history keeps the merged run in the history, in place of the shards kept there', async () => {
  const history = join(dir, 'sharded-history');
  const lines = { out: '', err: '' };
  const io = { out: (l: string) => (lines.out += `${l}\n`), err: (l: string) => (lines.err += `${l}\n`) };
  const rules = ['--rule', RULE, '--rule', 'list-roles.plain-array'];
  /** One round: both shards run with --history, then merged with it. */
  async function round(n: number): Promise<number> {
    const shards: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      const reports = join(dir, `round-${n}`, shard.replace('/', '-of-'));
      const args = ['run', ...rules, '--shard', shard, '--seed', String(n), '--quiet', '--reports', reports];
      const code = await main([...args, '--history', history, '--fault', 'revoke-star-removes-role'], io);
      expect([0, 1], lines.err).toContain(code);
      shards.push(join(reports, 'results.json'));
    }
    lines.out = '';
    return main(['merge', ...shards, '--reports', join(dir, `round-${n}`, 'merged'), '--history', history], io);
  }

  expect(await round(1)).toBe(1);
  expect(lines.out).toContain('history: the first run kept in');
  // The merged run alone, whole: the shards' own files are gone from the folder.
  const kept = (await readdir(history)).filter((n) => n.startsWith('results-'));
  expect(kept).toHaveLength(1);
  const merged = JSON.parse(await readFile(join(history, kept[0]!), 'utf8')) as {
    selection?: { shard?: unknown };
    results: Array<{ ruleId: string }>;
  };
  expect(merged.selection?.shard).toBeUndefined();
  expect(merged.results.map((r) => r.ruleId).sort()).toEqual(['list-roles.plain-array', RULE]);

  // The next round's merge reads the last merged run as its one earlier run; the verdicts did not change.
  expect(await round(2)).toBe(1);
  expect(lines.out).toContain('history: no rule changed its verdict since the last run (1 earlier run in');
  expect((await readdir(history)).filter((n) => n.startsWith('results-'))).toHaveLength(2);
  const summary = await readFile(join(dir, 'round-2', 'merged', 'summary.md'), 'utf8');
  expect(summary).toContain('History: no rule changed its verdict since the last run.');
}, 120_000);
