/**
 * An exchange is answered (a response, no error) or failed (an error, no
 * response): the types refuse both and neither, and a reader narrows on the
 * response instead of asserting it (the typecheck of `npm test` covers this
 * file; each `@ts-expect-error` fails it when the line it marks compiles).
 */
import { expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';

const request = {
  method: 'POST',
  url: 'http://127.0.0.1/api/directory/resources.list',
  headers: {},
  body: '{}',
} as const;
const response = { status: 200, headers: {}, body: '[]', truncated: false };
const error = { code: 'DC_ERR_TIMEOUT', message: 'late' };

test('an exchange has a response or an error, and is read by narrowing', () => {
  const answered: Exchange = { operation: 'resources.list', request, response, durationMs: 1, attempts: 1 };
  const failed: Exchange = { operation: 'resources.list', request, error, durationMs: 1, attempts: 1 };
  // @ts-expect-error -- both
  const both: Exchange = { operation: 'resources.list', request, response, error, durationMs: 1, attempts: 1 };
  // @ts-expect-error -- neither
  const neither: Exchange = { operation: 'resources.list', request, durationMs: 1, attempts: 1 };
  expect([both, neither]).toHaveLength(2);
  const unread = (e: Exchange) =>
    // @ts-expect-error -- not narrowed: it may have failed
    e.response.status;
  expect(unread(answered)).toBe(200);
  const seen = [answered, failed].map((e) => (e.response ? e.response.status : e.error.code));
  expect(seen).toEqual([200, 'DC_ERR_TIMEOUT']);
});
