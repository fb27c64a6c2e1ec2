/**
 * `npm run bench` fails when a goal is not met (the reference-server ratio
 * measured 0.80 against its 0.8 goal once, `met: false`, and the bench
 * exited 0), and refuses a measure it does not know instead of measuring
 * nothing. No timing here: the verdict over rows, and the refusal.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { verdictOf, type Row } from '../../bench/goals.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

const row = (measure: string, met: boolean): Row => ({ measure, value: '0.80', goal: '>= 0.8', met });

test('every goal met: exit 0, nothing said', () => {
  expect(verdictOf([row('a', true), row('b', true)])).toEqual({ code: 0, lines: [] });
});

test('one goal missed: exit 1, the goal named', () => {
  expect(verdictOf([row('a', true), row('reference server / bare node:http', false)])).toEqual({
    code: 1,
    lines: ['goal not met: reference server / bare node:http: 0.80 (goal: >= 0.8)'],
  });
});

test('a measure the bench does not know is refused (exit 2), naming the measures', async () => {
  const failed: unknown = await exec(join(ROOT, 'node_modules', '.bin', 'tsx'), ['bench/run-all.ts', 'stagin'], {
    cwd: ROOT,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failed).toMatchObject({
    code: 2,
    stderr: 'unknown measure(s) stagin; the measures: big-paging, proxy, ratios, full-run, startup, staging, paging\n',
  });
});
