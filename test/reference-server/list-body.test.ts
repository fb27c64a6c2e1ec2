/**
 * A server without faults or variants builds list bodies from cached bytes
 * (operations/list-body.ts); any other renders each resource afresh. Both must
 * answer with the same bytes: the same store and token secret, once with no
 * fault and once with a fault that leaves resources.list alone.
 */
import { describe, expect, test } from 'vitest';
import { generateDomain } from '../../src/reference-server/generate-domain.ts';
import type { OperationContext } from '../../src/reference-server/operation.ts';
import { TARGET_TIMING } from '../../src/core/timing.ts';
import { list } from '../../src/reference-server/operations/list.ts';
import { PageTokens } from '../../src/reference-server/page-token.ts';
import { Store } from '../../src/reference-server/store.ts';

const store = new Store(generateDomain(7, 300));
const tokens = new PageTokens();
const cached: OperationContext = {
  store,
  tokens,
  faults: new Set(),
  variants: new Set(),
  caller: 'full',
  timing: TARGET_TIMING,
};
const fresh: OperationContext = { ...cached, faults: new Set(['errors-401-without-message']) };
const kind = store.domain.kinds[0]!.id;
const someIds = store.resourcesOfKind(kind).map((r) => r.id);

const text = (ctx: OperationContext, body: Record<string, unknown>): string => {
  const result = list(body, ctx);
  expect(result.status).toBe(200);
  // Pieces of cached bytes without faults; text rendered afresh with one.
  expect(typeof result.json === 'string').toBe(ctx === fresh);
  return typeof result.json === 'string' ? result.json : Buffer.concat(result.json!).toString('utf8');
};

describe('list bodies from cached fragments', () => {
  const bodies: Array<[string, Record<string, unknown>]> = [
    ['first page', { kind_id: kind, pagination: { limit: 7, next_token: null } }],
    ['whole collection', { kind_id: kind, pagination: { limit: null, next_token: null } }],
    ['no pagination', { kind_id: kind }],
    ['attributes and counts', { kind_id: kind, attributes: ['last_name', 'email', 'nope'], with_total_count: true }],
    ['approximate count', { kind_id: kind, with_total_count: true, counting_mode: 'approximate' }],
    ['ordered', { kind_id: kind, orders: [{ key: 'resource.attribute', attribute: 'last_name', direction: 'desc' }] }],
    ['nothing matches', { kind_id: kind, filters: [{ key: 'resource.ids', value: ['1'] }] }],
    ['one matches', { kind_id: kind, filters: [{ key: 'resource.ids', value: [someIds[3]] }] }],
  ];
  test.each(bodies)('%s: the same bytes as rendered afresh, twice', (_, body) => {
    const expected = text(fresh, body);
    expect(() => JSON.parse(expected) as unknown).not.toThrow();
    expect(text(cached, body)).toBe(expected);
    // The second time from the cache.
    expect(text(cached, body)).toBe(expected);
  });

  test('every page of an iteration, the same bytes', () => {
    let token: string | null = null;
    let pages = 0;
    do {
      const body = { kind_id: kind, attributes: ['first_name'], pagination: { limit: 40, next_token: token } };
      const expected = text(fresh, body);
      expect(text(cached, body)).toBe(expected);
      token = (JSON.parse(expected) as { next_token: string | null }).next_token;
      pages++;
    } while (token !== null);
    expect(pages).toBeGreaterThan(2);
  });
});
