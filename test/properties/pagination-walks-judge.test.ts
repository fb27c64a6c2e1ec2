/**
 * The judge of pagination.prop.any-limit-once on hand-made logs: a run walks
 * the same query several times (departures one time in ten), and each walk is
 * judged alone, told from the others by the tokens that link its pages, so a
 * departure in any one of them is the run's FAIL.
 */
import { expect, test } from 'vitest';
import { judgeWalks } from '../../properties/pagination.properties.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';

const KIND = '1000000000000000001';
const IDS = ['7000000000000000001', '7000000000000000002', '7000000000000000003', '7000000000000000004'];
const LIMIT = 2;

/** The pages of one walk over the ids filter, as walkPages tags them; `shown` are the ids each page holds. */
function walk(shown: ReadonlyArray<readonly string[]>): Observed[] {
  return shown.map((ids, i) => {
    const body = {
      data: ids.map((id) => ({ id, kind_id: KIND })),
      next_token: i + 1 < shown.length ? `t${i + 1}` : null,
    };
    return {
      operation: 'resources.list',
      step: `resources.list page ${i + 1}`,
      request: {
        kind_id: KIND,
        filters: [{ key: 'resource.ids', value: IDS }],
        pagination: { limit: LIMIT, next_token: i === 0 ? null : `t${i}` },
      },
      status: 200,
      body,
      text: JSON.stringify(body),
      earlierStatuses: [],
      credential: 'main',
    };
  });
}

const whole = walk([IDS.slice(0, 2), IDS.slice(2), []]);
const oneLost = walk([IDS.slice(0, 2), IDS.slice(3), []]);

test('every walk of the run yields each filtered resource once: clean', () => {
  expect(judgeWalks([...whole, ...whole, ...whole])).toEqual([]);
});

test('a resource lost in one walk of three is a departure, wherever that walk comes', () => {
  for (const log of [
    [...oneLost, ...whole, ...whole],
    [...whole, ...oneLost, ...whole],
    [...whole, ...whole, ...oneLost],
  ]) {
    expect(judgeWalks(log)).toEqual([
      expect.objectContaining({ message: 'must yield every filtered resource exactly once', expected: 4, actual: 3 }),
    ]);
  }
});

test('a run with no walk over an ids filter shows nothing', () => {
  expect(judgeWalks([])).toEqual({ noEvidence: 'no walk over an ids filter' });
});
