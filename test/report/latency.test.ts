/** The latency table of the HTML report: p50, p95 and max per operation, with waits shown apart from latency. */
import { expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import type { RunResult } from '../../src/core/types.ts';
import { renderHtml } from '../../src/report/html.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

function exchange(
  operation: string,
  durationMs: number,
  waits: Partial<Pick<Exchange, 'queuedMs' | 'retryWaitMs' | 'attempts'>> = {},
): Exchange {
  return {
    operation,
    request: { method: 'POST', url: `http://127.0.0.1/api/directory/${operation}`, headers: {}, body: '{}' },
    response: { status: 200, headers: {}, body: '[]', truncated: false },
    durationMs,
    attempts: 1,
    ...waits,
  };
}

function latencyRows(html: string): string[][] {
  const table = /<table id="latency">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)![1]!;
  return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!).slice(0, 6),
  );
}

test('p50, p95 and max per operation (nearest rank), and the time waited apart', () => {
  const base = fixtureRun();
  // 1..100 ms for list: p50 = 50, p95 = 95, max = 100. Two show-teams exchanges that waited for the pacer and a retry.
  const listTimes = Array.from({ length: 100 }, (_, i) => exchange('resources.list', 100 - i));
  const run: RunResult = {
    ...base,
    results: [
      { ...base.results[0]!, exchanges: listTimes.slice(0, 60) },
      {
        ...base.results[1]!,
        exchanges: [
          ...listTimes.slice(60),
          exchange('resources.show-teams', 7, { queuedMs: 900, retryWaitMs: 1000, attempts: 2 }),
          exchange('resources.show-teams', 3, { queuedMs: 250 }),
        ],
      },
      ...base.results.slice(2).map((r) => ({ ...r, exchanges: [] })),
    ],
  };
  expect(latencyRows(renderHtml(run))).toEqual([
    ['resources.list', '100', '50', '95', '100', '0'],
    ['resources.show-teams', '2', '3', '7', '7', '2150'],
  ]);
});
