/**
 * A write's effect read right after it, in a reproducer (reproducer-writes.ts):
 * which write and read a FAIL's script sends again, and how the script's
 * judge reads them, on answers written by hand (no server).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AnsweredExchange } from '../../src/core/exchange.ts';
import type { RuleResult } from '../../src/core/types.ts';
import { reproducerPlan } from '../../src/report/reproducer-checks.ts';
import { REPRODUCER_JUDGE } from '../../src/report/reproducer-judge.ts';

function exchange(operation: string, step: string, request: object, answer: unknown, status = 200): AnsweredExchange {
  return {
    operation,
    step,
    request: { method: 'POST', url: `http://h/api/${operation}`, headers: {}, body: JSON.stringify(request) },
    response: { status, headers: {}, body: answer === undefined ? '' : JSON.stringify(answer), truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

function fail(ruleId: string, exchanges: AnsweredExchange[]): RuleResult {
  return {
    ruleId,
    clause: '§4.2',
    sentence: 's',
    section: '§4.2',
    group: 'g',
    level: 'MUST',
    kind: 'property',
    mutates: 'reversible',
    verdict: 'FAIL',
    violations: [{ where: 'show-activity-rates after the assignment', message: 'must show' }],
    observations: [],
    exchanges,
    requestCount: exchanges.length,
    durationMs: 1,
  };
}

const period = (range: string, rate: number, apprentice: boolean) => ({
  date_range: range,
  average_rate: rate,
  work_regime: { id: 'w1' },
  trainee: false,
  paid_hourly: false,
  apprentice,
});

describe('reproducer plans of a write read right after it', () => {
  test("a property's departing run: the assignment whose read does not show what it sent, not a passing run's", () => {
    const assign = (range: string, apprentice: boolean) =>
      exchange(
        'resources.assign-activity-rate',
        'the assignment',
        { resource_id: 'r', date_range: range, average_rate: 40, work_regime_id: 'w1', apprentice },
        undefined,
        204,
      );
    const read = (shown: object[]) =>
      exchange(
        'resources.show-activity-rates',
        'show-activity-rates after the assignment',
        { resource_id: 'r' },
        shown,
      );
    const departing = assign('2024-01-01/2024-01-02', true);
    const log = [
      departing,
      read([period('2024-01-01/2024-01-02', 40, false)]),
      assign('2024-02-01/2024-02-02', false),
      read([period('2024-02-01/2024-02-02', 40, false)]),
    ];
    const plan = reproducerPlan(fail('activity-rates.prop.assign-then-show', log));
    expect(plan?.requests.map((q) => q.exchange)).toEqual([departing, log[1]]);
    expect(plan?.checks).toEqual([
      { at: 1, kind: 'accepted' },
      {
        at: 2,
        kind: 'period-assigned',
        assigned: { date_range: '2024-01-01/2024-01-02', average_rate: 40, work_regime_id: 'w1', apprentice: true },
      },
    ]);
    // Every run's read shows what it sent: nothing departs as the script would judge it, no plan.
    expect(reproducerPlan(fail('activity-rates.prop.assign-then-show', log.slice(2)))).toBeUndefined();
  });

  test('an unassignment is judged only after a read that shows a period inside its range', () => {
    const read = (step: string, shown: object[]) =>
      exchange('resources.show-activity-rates', step, { resource_id: 'r' }, shown);
    const whole = [period('2018-01-01/2023-12-31', 100, false)];
    const log = [
      read('snapshot before the change: activity rates', whole),
      exchange(
        'resources.unassign-activity-rate',
        'the unassignment',
        { date_range: '2018-01-31/2018-03-01' },
        undefined,
        204,
      ),
      read('read right after the unassignment', whole),
    ];
    const plan = reproducerPlan(fail('activity-rates.unassign-removes-coverage', log));
    expect(plan?.checks).toEqual([
      { at: 1, kind: 'period-inside', range: '2018-02-01/2018-02-28', none: false },
      { at: 2, kind: 'accepted' },
      { at: 3, kind: 'period-inside', range: '2018-02-01/2018-02-28', none: true },
    ]);
  });
});

describe("the script's judge of a write's effect", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dc-writes-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function judge(answers: Record<string, { status?: string; body: unknown }>, checks: object[]) {
    const here = await mkdtemp(join(dir, 'run-'));
    for (const [n, a] of Object.entries(answers)) {
      await writeFile(join(here, `${n}.status`), a.status ?? '200');
      await writeFile(join(here, `${n}.body`), a.body === undefined ? '' : JSON.stringify(a.body));
    }
    try {
      execFileSync('node', ['-e', REPRODUCER_JUDGE, here, JSON.stringify(checks)], { encoding: 'utf8' });
      return 0;
    } catch (e) {
      return typeof e === 'object' && e !== null && 'status' in e ? e.status : -1;
    }
  }

  test('an unassignment: nothing to unassign before it cannot tell; a period left inside departs', async () => {
    const checks = [
      { at: 1, kind: 'period-inside', range: '2018-02-01/2018-02-28', none: false },
      { at: 2, kind: 'accepted' },
      { at: 3, kind: 'period-inside', range: '2018-02-01/2018-02-28', none: true },
    ];
    const whole = [period('2018-01-01/2023-12-31', 100, false)];
    const cut = [period('2018-01-01/2018-01-31', 100, false), period('2018-03-01/2023-12-31', 100, false)];
    const done = { status: '204', body: undefined };
    expect(await judge({ 1: { body: whole }, 2: done, 3: { body: cut } }, checks)).toBe(0);
    expect(await judge({ 1: { body: whole }, 2: done, 3: { body: whole } }, checks)).toBe(1);
    expect(await judge({ 1: { body: cut }, 2: done, 3: { body: cut } }, checks)).toBe(3);
    expect(await judge({ 1: { body: whole }, 2: { status: '422', body: {} }, 3: { body: whole } }, checks)).toBe(3);
  });

  test('a warned assignment: the teams read after must be those read before; no warning cannot tell', async () => {
    const checks = [
      { at: 2, kind: 'warned' },
      { at: 3, kind: 'list-same', reference: 1 },
    ];
    const team = (id: string) => ({ team: { id }, head: true, date_range: '2019-01-01/2027-12-31' });
    const warning = { status: '200', body: { warning_type: 'overlap' } };
    expect(await judge({ 1: { body: [team('a')] }, 2: warning, 3: { body: [team('a')] } }, checks)).toBe(0);
    expect(await judge({ 1: { body: [team('a')] }, 2: warning, 3: { body: [team('b')] } }, checks)).toBe(1);
    const done = { status: '204', body: undefined };
    expect(await judge({ 1: { body: [team('a')] }, 2: done, 3: { body: [team('b')] } }, checks)).toBe(3);
  });
});
