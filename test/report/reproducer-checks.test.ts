/** What a reproducer judges, derived from a FAIL: its trace's check, else its first violation. */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import type { RuleResult } from '../../src/core/types.ts';
import { pathOf, reproducerPlan } from '../../src/report/reproducer-checks.ts';

function exchange(step: string, status: number, body = ''): Exchange {
  return {
    operation: 'resources.list',
    step,
    request: { method: 'POST', url: 'http://h/api/resources.list', headers: {}, body: '{}' },
    response: { status, headers: {}, body, truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

function fail(extra: Partial<RuleResult>): RuleResult {
  return {
    ruleId: 'x.y',
    clause: '§1',
    sentence: 's',
    section: '§1',
    group: 'g',
    level: 'MUST',
    kind: 'example',
    mutates: 'none',
    verdict: 'FAIL',
    violations: [],
    observations: [],
    exchanges: [],
    requestCount: 1,
    durationMs: 1,
    ...extra,
  };
}

describe('reproducerPlan', () => {
  test('JSON paths as violations write them', () => {
    expect(pathOf('.data[0].team_ids')).toEqual(['data', 0, 'team_ids']);
    expect(pathOf('["a b"][2]')).toEqual(['a b', 2]);
    expect(pathOf('')).toEqual([]);
    expect(pathOf(' after')).toBeUndefined();
  });

  test("a status violation judges the named step's last answer by the statuses that conform", () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('first', 200), exchange('bad dates', 500), exchange('other', 200)],
        violations: [{ where: 'bad dates: response.status', message: 'must reject', expected: '4xx', actual: 500 }],
      }),
    );
    expect(plan?.requests.map((q) => q.label)).toEqual(['bad dates']);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'status', expected: ['4xx'] }]);
  });

  test('a body violation at a path: the departing value must no longer be there', () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('resources.list', 200, '{"data":[{"x":"a,b"}]}')],
        violations: [{ where: 'resources.list: response.body.data[0].x', message: 'must be an array', actual: 'a,b' }],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'value-at', path: ['data', 0, 'x'], departing: 'a,b' }]);
  });

  test('a FAIL judged over several answers has no plan: the script says so and exits 3', () => {
    expect(
      reproducerPlan(
        fail({ exchanges: [exchange('a', 200)], violations: [{ where: 'page 3', message: 'must not repeat' }] }),
      ),
    ).toBeUndefined();
  });

  test("a sequence whose failing step has a check replays every step and judges that step's read", () => {
    const plan = reproducerPlan(
      fail({
        trace: [
          { command: 'one', exchanges: [exchange('c1', 204), exchange('r1', 200, '[]')] },
          {
            command: 'two',
            exchanges: [exchange('c2', 204), exchange('r2', 200, '[]')],
            check: { kind: 'rate-on-day', exchange: 1, day: '2026-01-02', rate: null },
          },
        ],
      }),
    );
    expect(plan?.requests.map((q) => q.label)).toEqual(['one', 'one', 'two', 'two']);
    expect(plan?.checks).toEqual([{ at: 4, kind: 'rate-on-day', day: '2026-01-02', rate: null }]);
  });

  test("a sequence stopped by its command's status is judged on that answer", () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('c1', 500)],
        trace: [{ command: 'one', exchanges: [exchange('c1', 500)] }],
        violations: [{ where: 'counterexample [x]: c1: response.status', message: 'must accept', expected: '2xx' }],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'status', expected: ['2xx'] }]);
  });
});
