/**
 * The needs table: each need provides its value or says why it is unmet, and
 * a rule's check runs only once the context holds what its needs provide.
 */
import { describe, expect, test } from 'vitest';
import { isHarnessError } from '../../src/core/errors.ts';
import { rule } from '../../src/rules/define.ts';
import { meetsNeeds, NEEDS, provisions, unmetNeed, type Need, type NeedEnv } from '../../src/rules/needs.ts';
import type { BaseCheckContext } from '../../src/rules/types.ts';
import type { TargetProfile } from '../../src/target/profile.ts';

const full: TargetProfile = {
  kinds: [
    { id: '1', name: 'employee', supportsRoles: true, definingRoleId: '9' },
    { id: '2', name: 'room', supportsRoles: false },
  ],
  roles: [],
  teams: [],
  mutableResources: [
    { id: '10', kindId: '1' },
    { id: '20', kindId: '2' },
  ],
  allowRoleRevocation: true,
  sortAttribute: 'last_name',
  workRegimeIds: ['5'],
  restrictedApiKey: 'restricted-key',
};
const empty: TargetProfile = { kinds: [], roles: [], teams: [], mutableResources: [] };
const restricted = { marker: 'the restricted client' };

function env(profile: TargetProfile, allowMutations = true): NeedEnv {
  // The table only hands the client on; any object stands for it here.
  return { profile, allowMutations, restricted: profile.restrictedApiKey ? (restricted as never) : undefined };
}

const NAMES = Object.keys(NEEDS) as Need[];

describe('the needs table', () => {
  test('a full profile meets every need; an empty one none, each with its own reason', () => {
    for (const need of NAMES) expect(unmetNeed(need, env(full))).toBeUndefined();
    const reasons = NAMES.map((need) => unmetNeed(need, env(empty)));
    expect(reasons.every((r) => typeof r === 'string' && r.length > 0)).toBe(true);
  });

  test('mutations turned off say so, whatever the profile holds', () => {
    expect(unmetNeed('mutableResource', env(full, false))).toMatch(/--allow-mutations/);
    expect(unmetNeed('roleRevocation', env(full, false))).toMatch(/--allow-mutations/);
  });

  test('provisions hold exactly what met needs provide', () => {
    expect(provisions(env(full))).toEqual({
      listKindId: '1',
      sortAttribute: 'last_name',
      restricted,
      workRegimeIds: ['5'],
    });
    expect(provisions(env(empty))).toEqual({});
  });

  test('meetsNeeds finds the table’s own values, not just a field of the name', () => {
    expect(meetsNeeds(provisions(env(full)), ['listKind', 'sortAttribute', 'workRegime'], env(full))).toBe(true);
    expect(meetsNeeds({ listKindId: 'another' }, ['listKind'], env(full))).toBe(false);
    expect(meetsNeeds({}, ['restrictedKey'], env(full))).toBe(false);
  });

  test('a rule whose context lacks what its needs provide is a precondition, never a check with undefined', async () => {
    let ran = false;
    const r = rule({
      id: 't.needs',
      clause: '§0',
      quote: 'a sentence',
      level: 'MUST',
      needs: ['sortAttribute'],
      judge: () => [],
      drive: (ctx) => {
        ran = typeof ctx.sortAttribute === 'string';
        return Promise.resolve();
      },
    });
    const base = { ruleId: 't.needs' } as BaseCheckContext;
    const error: unknown = await r.check(base, env(empty)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHarnessError(error) && error.code).toBe('DC_ERR_PRECONDITION');
    expect(ran).toBe(false);
    await r.check({ ...base, ...provisions(env(full)) }, env(full));
    expect(ran).toBe(true);
  });
});
