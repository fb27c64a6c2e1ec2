/**
 * A resource whose restoration did not verify is quarantined: the rule that
 * held it hands it back to no pool, a claim that only it could serve comes
 * back empty (at once, or as soon as the holder lets go), and the claim
 * names it so the rule's SKIP can say why.
 */
import { expect, test } from 'vitest';
import { ResourceClaims } from '../../src/runner/resource-claims.ts';

const RESOURCES = [
  { id: 'r1', kindId: 'employee' },
  { id: 'r2', kindId: 'employee' },
];
const employee = (_: string, kindId: string): boolean => kindId === 'employee';

test('a quarantined resource is never handed out again; a claim waiting for it ends empty', async () => {
  const claims = new ResourceClaims(RESOURCES, { maxWaitMs: 60_000 });
  const a = await claims.claim(employee, { holder: 'a', irreversible: false });
  const b = await claims.claim(employee, { holder: 'b', irreversible: false });
  expect([a, b]).toEqual(['r1', 'r2']);
  const waiting = claims.claim(employee, { holder: 'c', irreversible: false });
  claims.add('r1', 'rates of resource r1 could not be restored');
  claims.release('a');
  claims.add('r2', 'rates of resource r2 could not be restored');
  claims.release('b');
  expect(await waiting).toBeUndefined();
  expect(await claims.claim(employee, { holder: 'd', irreversible: false })).toBeUndefined();
  expect(claims.quarantinedMatching(employee)).toEqual(['r1', 'r2']);
  expect(claims.reasonFor('r1')).toBe('rates of resource r1 could not be restored');
});

test('a resource put back and verified goes to the next claim, as before', async () => {
  const claims = new ResourceClaims(RESOURCES.slice(0, 1), { maxWaitMs: 60_000 });
  expect(await claims.claim(employee, { holder: 'a', irreversible: false })).toBe('r1');
  const waiting = claims.claim(employee, { holder: 'b', irreversible: false });
  claims.release('a');
  expect(await waiting).toBe('r1');
  expect(claims.quarantinedMatching(employee)).toEqual([]);
});
