import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { ErrorAnswers } from '../../src/runner/error-answers.ts';

function exchange(status: number | undefined): Exchange {
  return {
    operation: 'resources.list',
    request: { method: 'POST', url: 'http://127.0.0.1/api/directory/resources.list', headers: {}, body: '{}' },
    ...(status === undefined
      ? { error: { code: 'DC_ERR_NETWORK', message: 'reset' } }
      : { response: { status, headers: {}, body: '{}', truncated: false } }),
    durationMs: 1,
    attempts: 1,
  };
}

describe('the error answers of a run', () => {
  test('keeps every 4xx but 429, and nothing else', () => {
    const answers = new ErrorAnswers();
    for (const status of [200, 204, 400, 401, 404, 422, 429, 500, 503, undefined]) answers.add('r', exchange(status));
    expect(answers.all().map((a) => a.exchange.response?.status)).toEqual([400, 401, 404, 422]);
  });

  test('past its cap only counts', () => {
    const answers = new ErrorAnswers(2);
    for (let i = 0; i < 5; i++) answers.add(`r${i}`, exchange(422));
    expect(answers.all().map((a) => a.ruleId)).toEqual(['r0', 'r1']);
    expect(answers.beyondCap).toBe(3);
  });
});
