/**
 * A revocation confirmed on a target the suite did not start takes any
 * resource that suits it, drawn at random: a second machine running the
 * suite at the same time takes resources in the same order (the profile's),
 * and would revoke on the resource the confirmation runs on. Without
 * `spread`, claims stay in the profile's order (a seed replays the same run).
 */
import { expect, test } from 'vitest';
import { ResourceClaims } from '../../src/runner/resource-claims.ts';

const RESOURCES = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, kindId: i === 0 ? 'room' : 'employee' }));
const employee = (_: string, kindId: string): boolean => kindId === 'employee';

test('in order without spread: the first resource that suits, every time', async () => {
  for (let i = 0; i < 5; i++) {
    const claims = new ResourceClaims(RESOURCES);
    expect(await claims.claim(employee, { holder: 'a', irreversible: true })).toBe('r1');
  }
});

test('with spread: only resources that suit, and not always the same one', async () => {
  const taken = new Set<string | undefined>();
  // Forty draws among seven: all of one resource would come one time in 7^39.
  for (let i = 0; i < 40; i++) {
    const claims = new ResourceClaims(RESOURCES);
    taken.add(await claims.claim(employee, { holder: 'a', irreversible: true, spread: true }));
  }
  expect([...taken].every((id) => id !== undefined && id !== 'r0')).toBe(true);
  expect(taken.size).toBeGreaterThan(1);
});

test('with spread, a resource another rule holds is never taken', async () => {
  // No wait for it to come back: the claim ends empty at once.
  const claims = new ResourceClaims(RESOURCES.slice(0, 2), { maxWaitMs: 0 });
  expect(await claims.claim(employee, { holder: 'a', irreversible: true, spread: true })).toBe('r1');
  expect(await claims.claim(employee, { holder: 'b', irreversible: true, spread: true })).toBeUndefined();
});
