/**
 * History across runs: each run's results.json kept by time, read back
 * validated (a file that is not one is skipped with one warning line), and
 * every rule's last verdicts, flips, failing streak and change since the last
 * run computed from them.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { RunResult, Verdict } from '../../src/core/types.ts';
import { HISTORY_KEPT, keepInHistory, readHistory, ruleHistories } from '../../src/gate/history.ts';
import { renderJson } from '../../src/report/json.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-history-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The fixture run, started at `startedAt`, with these verdicts for its first rules. */
function runWith(startedAt: string, verdicts: Record<string, Verdict> = {}): RunResult {
  const run = fixtureRun();
  return {
    ...run,
    startedAt,
    results: run.results.map((r) => ({ ...r, verdict: verdicts[r.ruleId] ?? r.verdict })),
  };
}

const at = (n: number): string => new Date(Date.UTC(2026, 5, 1, 6, 0, n)).toISOString();

describe('the history folder', () => {
  test('each run is kept named by its start time, and read back in time order', async () => {
    const rule = fixtureRun().results[0]?.ruleId ?? 'none';
    await keepInHistory(dir, at(2), renderJson(runWith(at(2), { [rule]: 'FAIL' })));
    await keepInHistory(dir, at(1), renderJson(runWith(at(1), { [rule]: 'PASS' })));
    expect((await readdir(dir)).sort()).toEqual([
      'results-20260601T060001000Z.json',
      'results-20260601T060002000Z.json',
    ]);
    const { runs, warnings } = await readHistory(dir);
    expect(warnings).toEqual([]);
    expect(runs.map((r) => [r.startedAt, r.verdicts.get(rule)])).toEqual([
      [at(1), 'PASS'],
      [at(2), 'FAIL'],
    ]);
  });

  test('a file that is not JSON, or not a results file, is skipped with one warning line each', async () => {
    await keepInHistory(dir, at(1), renderJson(runWith(at(1))));
    await writeFile(join(dir, 'results-20260601T060002000Z.json'), '{"cut short');
    await writeFile(join(dir, 'results-20260601T060003000Z.json'), JSON.stringify({ startedAt: 3, results: 'no' }));
    await writeFile(join(dir, 'notes.txt'), 'not ours: left alone and not read');
    const { runs, warnings } = await readHistory(dir);
    expect(runs).toHaveLength(1);
    expect(warnings).toHaveLength(2);
    for (const w of warnings) expect(w).not.toContain('\n');
    expect(warnings[0]).toContain('results-20260601T060002000Z.json');
    expect(warnings[1]).toContain('results-20260601T060003000Z.json');
  });

  test('no folder yet is an empty history; two runs in the same millisecond are both kept', async () => {
    expect(await readHistory(join(dir, 'none'))).toEqual({ runs: [], warnings: [] });
    await keepInHistory(join(dir, 'new'), at(1), renderJson(runWith(at(1))));
    await keepInHistory(join(dir, 'new'), at(1), renderJson(runWith(at(1))));
    expect(await readdir(join(dir, 'new'))).toHaveLength(2);
  });

  test(`only the last ${HISTORY_KEPT} runs are kept; other files are left alone`, async () => {
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const json = renderJson(runWith(at(0)));
    for (let n = 0; n < HISTORY_KEPT + 3; n++) await keepInHistory(dir, at(n), json);
    const names = await readdir(dir);
    expect(names).toContain('notes.txt');
    expect(names.filter((n) => n.startsWith('results-')).sort()[0]).toBe('results-20260601T060003000Z.json');
    expect(names).toHaveLength(HISTORY_KEPT + 1);
  });
});

describe("a rule's history", () => {
  const past = (verdicts: Verdict[]) => ({
    runs: verdicts.map((v, i) => ({ file: `f${i}`, startedAt: at(i), verdicts: new Map([['r', v]]) })),
    warnings: [],
  });

  test('the last 20 verdicts, oldest first, this run last; flips counted over them', () => {
    const earlier: Verdict[] = [...Array<Verdict>(25).fill('PASS'), 'FAIL', 'PASS'];
    const h = ruleHistories(dir, past(earlier), { startedAt: at(99), results: [{ ruleId: 'r', verdict: 'PASS' }] });
    const r = h.rules.get('r');
    expect(r?.verdicts).toHaveLength(20);
    expect(r?.verdicts.at(-1)).toEqual({ verdict: 'PASS', startedAt: at(99) });
    expect(r?.flips).toBe(2);
    expect(r?.unstable).toBe(false);
    expect(r?.changedFrom).toBeUndefined();
    expect(h.changed).toEqual([]);
    expect(h.earlierRuns).toBe(27);
  });

  test('a change since the last run is named; a FAIL says since when it fails', () => {
    const h = ruleHistories(dir, past(['PASS', 'FAIL', 'PASS', 'FAIL', 'FAIL']), {
      startedAt: at(99),
      results: [{ ruleId: 'r', verdict: 'FAIL' }],
    });
    expect(h.rules.get('r')?.failingSince).toBe(at(3));
    expect(h.changed).toEqual([]);
    const changed = ruleHistories(dir, past(['FAIL', 'FAIL']), {
      startedAt: at(99),
      results: [{ ruleId: 'r', verdict: 'PASS' }],
    });
    expect(changed.changed).toEqual([{ ruleId: 'r', from: 'FAIL', to: 'PASS' }]);
    expect(changed.rules.get('r')?.failingSince).toBeUndefined();
  });

  test('3 flips in the last 10 runs make a rule unstable; 2 do not', () => {
    const current = (verdict: Verdict) => ({ startedAt: at(99), results: [{ ruleId: 'r', verdict }] });
    const two = ruleHistories(dir, past(['PASS', 'PASS', 'FAIL', 'PASS', 'PASS']), current('PASS'));
    expect(two.rules.get('r')?.unstable).toBe(false);
    const three = ruleHistories(dir, past(['PASS', 'FAIL', 'PASS', 'PASS']), current('FAIL'));
    expect(three.rules.get('r')?.flips).toBe(3);
    expect(three.rules.get('r')?.unstable).toBe(true);
    // Flips older than the last 10 runs no longer count.
    const old = ruleHistories(
      dir,
      past(['FAIL', 'PASS', 'FAIL', 'PASS', ...Array<Verdict>(10).fill('PASS')]),
      current('PASS'),
    );
    expect(old.rules.get('r')?.flips).toBe(3);
    expect(old.rules.get('r')?.unstable).toBe(false);
  });

  test('a rule new to the history has this run only, and nothing changed', () => {
    const h = ruleHistories(dir, past(['PASS']), { startedAt: at(99), results: [{ ruleId: 'new', verdict: 'FAIL' }] });
    expect(h.rules.get('new')).toMatchObject({ verdicts: [{ verdict: 'FAIL' }], flips: 0, failingSince: at(99) });
    expect(h.changed).toEqual([]);
  });
});
