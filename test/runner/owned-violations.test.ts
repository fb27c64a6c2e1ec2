/**
 * A departure seen anywhere in a run belongs to the rule whose clause it
 * breaks. The fault here drops explicit orders on the pages a next_token asks
 * for: `pagination.each-resource-once` walks without orders and sees nothing,
 * while the walks with orders that other rules make see resources repeat. The
 * owner FAILs with their evidence, and the run fails, whether or not the owner
 * was selected; those other rules are "blocked by" it only because it FAILed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { RuleResult } from '../../src/core/types.ts';

const FAULT = 'pagination-later-pages-drop-orders';
const OWNER = 'pagination.each-resource-once';

async function cli(args: string[]): Promise<{ code: number; out: string; results: RuleResult[] }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  const reports = args[args.indexOf('--reports') + 1]!;
  const parsed: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
  const results = (parsed as { results: RuleResult[] }).results;
  return { code, out, results };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-owned-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('the owner FAILs on a departure only another rule’s walk showed, and the run exits 1', async () => {
  const reports = join(dir, 'both');
  const r = await cli([
    ...['run', '--fault', FAULT, '--rule', OWNER, '--rule', 'pagination.stable-with-orders'],
    ...['--quiet', '--seed', '1', '--reports', reports],
  ]);
  expect(r.code).toBe(1);
  const owner = r.results.find((x) => x.ruleId === OWNER);
  expect(owner?.verdict).toBe('FAIL');
  expect(owner?.reason).toMatch(
    /showed in the requests of pagination\.stable-with-orders \(this rule's own requests passed\)/,
  );
  expect(owner?.violations.map((v) => v.foundBy)).toContain('pagination.stable-with-orders');
  // The evidence travels with the verdict: the page that repeated a resource is in the owner's transcript.
  expect(owner?.exchanges.some((e) => e.request.body.includes('"orders"'))).toBe(true);
  const walker = r.results.find((x) => x.ruleId === 'pagination.stable-with-orders');
  expect(walker).toMatchObject({ verdict: 'SKIP', blockedBy: OWNER });
  expect(r.out).toMatch(new RegExp(`^${OWNER.replace(/\./g, '\\.')}: FAIL — a departure`, 'm'));
});

test('an owner the run did not select is reported as a FAIL found while checking the selection', async () => {
  const reports = join(dir, 'unselected');
  const r = await cli([
    ...['run', '--fault', FAULT, '--rule', 'pagination.stable-with-orders'],
    ...['--quiet', '--seed', '1', '--reports', reports],
  ]);
  expect(r.code).toBe(1);
  expect(r.results.find((x) => x.ruleId === OWNER)).toMatchObject({
    verdict: 'FAIL',
    selected: false,
    reason: expect.stringMatching(/^not selected for this run, but a departure/),
  });
});

test('without the fault, the same selection passes: the charge is the departure’s, not the walk’s', async () => {
  const reports = join(dir, 'clean');
  const r = await cli([
    ...['run', '--rule', OWNER, '--rule', 'pagination.stable-with-orders'],
    ...['--quiet', '--seed', '1', '--reports', reports],
  ]);
  expect(r.code).toBe(0);
  expect(r.results.map((x) => x.verdict)).toEqual(['PASS', 'PASS']);
});
