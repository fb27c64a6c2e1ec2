/**
 * The judge of unassign-activity-rate's pairwise rows on hand-made logs (no
 * network): each row's read against the first one with every row so far
 * applied, every range read with its end day included and again excluded.
 * The recorded logs of the reference server
 * and its faults are judged in test/rules/rule-judges.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { judgeUnassignRows, UNASSIGN_ROW_STEP } from '../../properties/unassign-rate-pairwise.properties.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { exchange } from '../helpers/roles-log.ts';
import type { ActivityRatePeriod } from '../../src/schemas/index.ts';
import { ratePeriod } from '../helpers/rate-period.ts';

const BEFORE = [ratePeriod('2020-01-01/2020-12-31', 80)];
const before = exchange('resources.show-activity-rates', UNASSIGN_ROW_STEP.before, {}, 200, BEFORE);

/** One row: the unassignment of `range`, then the read around it showing `after`. */
function row(n: number, range: string, after: ActivityRatePeriod[] | undefined, status = 204): Observed[] {
  const step = UNASSIGN_ROW_STEP.row(n, 'classes');
  const sent = exchange(
    'resources.unassign-activity-rate',
    step,
    { resource_id: '700', date_range: range },
    status,
    undefined,
  );
  if (after === undefined) return [sent];
  const window = { resource_id: '700', date_range: '2020-01-01/2020-12-31' };
  return [sent, exchange('resources.show-activity-rates', UNASSIGN_ROW_STEP.read(step), window, 200, after)];
}

const whereOf = (j: ReturnType<typeof judgeUnassignRows>): string | undefined =>
  Array.isArray(j) ? j[0]?.where : undefined;

describe('the judge of unassign-activity-rate pairwise rows', () => {
  test('the range carved out, its end day read either way, the rest kept: a pass', () => {
    const inclusive = [ratePeriod('2020-01-01/2020-03-09', 80), ratePeriod('2020-03-21/2020-12-31', 80)];
    const exclusive = [ratePeriod('2020-01-01/2020-03-10', 80), ratePeriod('2020-03-20/2020-12-31', 80)];
    expect(judgeUnassignRows([before, ...row(1, '2020-03-10/2020-03-20', inclusive)])).toEqual([]);
    expect(judgeUnassignRows([before, ...row(1, '2020-03-10/2020-03-20', exclusive)])).toEqual([]);
  });

  test('a certain day still covered fails, named by the row that unassigned it', () => {
    const j = judgeUnassignRows([before, ...row(1, '2020-03-10/2020-03-20', BEFORE)]);
    expect(whereOf(j)).toBe(`${UNASSIGN_ROW_STEP.read(UNASSIGN_ROW_STEP.row(1, 'classes'))}: date_range on 2020-03-10`);
  });

  test('a day no row named that lost its rate fails; a later row does not hide an earlier one', () => {
    // The whole period gone: its first day is the first one judged that lost its rate (the window reaches past it).
    const removedWhole = judgeUnassignRows([before, ...row(1, '2020-03-10/2020-03-20', [])]);
    expect(whereOf(removedWhole)).toContain('average_rate on 2020-01-01');
    // Row 1 left its days covered; row 2 covers them later: row 1's own read shows it.
    const laterHides = judgeUnassignRows([
      before,
      ...row(1, '2020-03-10/2020-03-20', BEFORE),
      ...row(2, '2020-03-01/2020-03-31', [
        ratePeriod('2020-01-01/2020-02-29', 80),
        ratePeriod('2020-04-01/2020-12-31', 80),
      ]),
    ]);
    expect(whereOf(laterHides)).toContain('row 1');
  });

  test('a period far from the row lost departs too (an unassignment computed from the state before the last assignment)', () => {
    const laid = [ratePeriod('2020-01-01/2020-06-30', 80), ratePeriod('2021-07-01/2021-12-31', 60)];
    const far = exchange('resources.show-activity-rates', UNASSIGN_ROW_STEP.before, {}, 200, laid);
    const lost = [ratePeriod('2020-01-01/2020-01-31', 80), ratePeriod('2020-02-11/2020-06-30', 80)];
    expect(whereOf(judgeUnassignRows([far, ...row(1, '2020-02-01/2020-02-10', lost)]))).toContain(
      'average_rate on 2021-07-01',
    );
  });

  test('the end day of a period shown is open too: a server that reads ranges as exclusive passes', () => {
    // Exclusive ends: the period before the range shown ending on its first day, the one after starting on its last.
    const exclusive = [ratePeriod('2020-01-01/2020-03-10', 80), ratePeriod('2020-03-20/2021-01-01', 80)];
    const exclusiveBefore = exchange('resources.show-activity-rates', UNASSIGN_ROW_STEP.before, {}, 200, [
      ratePeriod('2020-01-01/2021-01-01', 80),
    ]);
    expect(judgeUnassignRows([exclusiveBefore, ...row(1, '2020-03-10/2020-03-20', exclusive)])).toEqual([]);
  });

  test('a range carved from the day after it starts departs whichever way its end day is read', () => {
    // Read as included, 1 March is still covered; read as excluded, 20 March was lost.
    const carvedLate = [ratePeriod('2020-01-01/2020-03-01', 80), ratePeriod('2020-03-21/2020-12-31', 80)];
    expect(whereOf(judgeUnassignRows([before, ...row(1, '2020-03-01/2020-03-20', carvedLate)]))).toContain(
      'date_range on 2020-03-01',
    );
  });

  test('a refused row fails; a 503 says nothing', () => {
    expect(whereOf(judgeUnassignRows([before, ...row(1, '2020-03-10/2020-03-20', undefined, 422)]))).toBe(
      `${UNASSIGN_ROW_STEP.row(1, 'classes')}: response.status`,
    );
    expect(Array.isArray(judgeUnassignRows([before, ...row(1, '2020-03-10/2020-03-20', undefined, 503)]))).toBe(false);
  });
});
