/**
 * Fault and variant names are types, not strings: a misspelt name in the
 * server, the catch table, a test or the API is a compile error (the
 * typecheck of `npm test` covers this file; each `@ts-expect-error` fails it
 * when the line it marks compiles).
 */
import { expect, test } from 'vitest';
import type { ConformanceOptions } from '../../src/api/index.ts';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { FAULT_NAMES, isFaultName } from '../../src/reference-server/faults.ts';
import type { OperationContext } from '../../src/reference-server/operation.ts';
import type { ReferenceServerOptions } from '../../src/reference-server/index.ts';
import { VARIANT_NAMES } from '../../src/reference-server/variants.ts';

test('a fault or variant name the catalogue lacks does not compile', () => {
  const ctx: Pick<OperationContext, 'faults' | 'variants'> = {
    faults: new Set(['pagination-offset-token']),
    variants: new Set(['status-422']),
  };
  expect(ctx.faults.has('pagination-offset-token')).toBe(true);
  // @ts-expect-error -- 'typo' is no fault
  expect(ctx.faults.has('typo')).toBe(false);
  // @ts-expect-error -- nor a variant
  expect(ctx.variants.has('typo')).toBe(false);
  // @ts-expect-error -- a Set of strings is not a set of faults
  const fromStrings: OperationContext['faults'] = new Set<string>(['typo']);
  expect(fromStrings.size).toBe(1);
  // @ts-expect-error -- the catch table is keyed by fault
  expect(CATCHES.typo).toBeUndefined();
  // @ts-expect-error -- the server's options
  const server: ReferenceServerOptions = { faults: ['typo'] };
  // @ts-expect-error -- the API
  const api: Partial<ConformanceOptions> = { faults: ['typo'] };
  expect([server, api]).toHaveLength(2);
});

test('the name lists are the catalogues', () => {
  expect(FAULT_NAMES.length).toBeGreaterThan(50);
  expect(FAULT_NAMES.every(isFaultName)).toBe(true);
  expect(VARIANT_NAMES).toContain('status-422');
});
