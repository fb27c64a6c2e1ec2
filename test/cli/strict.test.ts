/** An INFERRED departure is reported and counted apart; it fails the run only with --strict. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-strict-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function run(extra: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const args = ['run', '--rule', 'activity-rates.no-overlap', '--fault', 'activity-rate-overlap', '--quiet'];
  const code = await main([...args, '--reports', join(dir, extra.join('') || 'lenient'), ...extra], {
    out: (l) => (out += `${l}\n`),
    err: (l) => (out += `${l}\n`),
  });
  return { code, out };
}

test('overlapping periods are an INFERRED departure: exit 0, unless --strict', async () => {
  const lenient = await run([]);
  expect(lenient.out).toMatch(/1 INFERRED departure\(s\), counted apart: they fail the run only with --strict/);
  expect(lenient.out).toMatch(/FAIL \[INFERRED\] activity-rates\.no-overlap/);
  expect(lenient.code).toBe(0);
  const strict = await run(['--strict']);
  expect(strict.code).toBe(1);
  expect(strict.out).toMatch(/NOT CONFORMANT/);
});
