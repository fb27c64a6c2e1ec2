/**
 * A rule's transcript is bounded (its first and last exchanges), and keeps
 * the exchanges whose earlier attempt met a server error the client repeated,
 * so the report can note each one.
 */
import { expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { keepForReport } from '../../src/runner/run-rules.ts';

function exchange(n: number, earlier?: number): Exchange {
  return {
    operation: `op-${n}`,
    request: { method: 'POST', url: 'http://127.0.0.1/x', headers: {}, body: '{}' },
    response: { status: 200, headers: {}, body: '[]', truncated: false },
    durationMs: 1,
    attempts: earlier === undefined ? 1 : 2,
    ...(earlier === undefined ? {} : { earlierAttempts: [{ status: earlier }] }),
  };
}

test('the first 10 and the last 40 are kept; of the middle, only repeated server errors', () => {
  const kept: Exchange[] = [];
  for (let n = 1; n <= 200; n++)
    keepForReport(kept, exchange(n, n === 30 || n === 77 ? 500 : n === 90 ? 429 : undefined));
  const ops = kept.map((e) => e.operation);
  expect(ops.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `op-${i + 1}`));
  expect(ops.slice(-40)).toEqual(Array.from({ length: 40 }, (_, i) => `op-${161 + i}`));
  expect(ops.slice(10, -40)).toEqual(['op-30', 'op-77']);
});

test('at most 10 such exchanges are kept beyond the bound', () => {
  const kept: Exchange[] = [];
  for (let n = 1; n <= 500; n++) keepForReport(kept, exchange(n, n % 7 === 0 ? 503 : undefined));
  expect(kept).toHaveLength(60);
  expect(kept.slice(10, 20).every((e) => e.earlierAttempts?.[0]?.status === 503)).toBe(true);
});
