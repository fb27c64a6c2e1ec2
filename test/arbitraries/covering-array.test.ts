/**
 * The covering-array builder: every interaction the constraints allow is
 * covered by some row, no row breaks a constraint, the same seed gives the
 * same rows, and the array stays near the known minimum for small cases.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coveringArray, type CoveringArray, type CoveringFactor } from '../../src/arbitraries/index.ts';

const draw = (factors: CoveringFactor[], seed: number, options: Parameters<typeof coveringArray>[1] = {}) =>
  fc.sample(coveringArray(factors, options), { seed, numRuns: 1 })[0]!;

const factorsOf = (sizes: number[]): CoveringFactor[] =>
  sizes.map((size, i) => ({ name: `f${i}`, classes: Array.from({ length: size }, (_, c) => `c${c}`) }));

/** Every `strength`-tuple of classes (of distinct factors) that `allowed` takes appears in some row. */
function uncovered(
  array: CoveringArray,
  allowed: (row: ReadonlyArray<string | undefined>) => boolean = () => true,
): string[] {
  const { factors, rows, strength } = array;
  const missing: string[] = [];
  const visit = (from: number, chosen: Array<[number, string]>): void => {
    if (chosen.length === strength) {
      const partial: Array<string | undefined> = factors.map(() => undefined);
      for (const [f, c] of chosen) partial[f] = c;
      if (!allowed(partial)) return;
      if (!rows.some((row) => chosen.every(([f, c]) => row[f] === c))) missing.push(JSON.stringify(chosen));
      return;
    }
    for (let f = from; f < factors.length; f++) for (const c of factors[f]!.classes) visit(f + 1, [...chosen, [f, c]]);
  };
  visit(0, []);
  return missing;
}

describe('coveringArray', () => {
  test('covers every pair, and says which row covered each, once', () => {
    for (const seed of [1, 2, 3]) {
      const array = draw(factorsOf([3, 4, 2, 5, 3, 2]), seed);
      expect(uncovered(array)).toEqual([]);
      const counted = array.covers.flat().map((i) => JSON.stringify(i));
      expect(new Set(counted).size).toBe(counted.length);
      expect(counted.length).toBe(array.interactions.length);
      array.covers.forEach((interactions, r) => {
        for (const interaction of interactions)
          for (const { factor, class: c } of interaction)
            expect(array.rows[r]![array.factors.findIndex((f) => f.name === factor)]).toBe(c);
      });
    }
  });

  test('covers every triple at strength 3', () => {
    const array = draw(factorsOf([2, 2, 2, 2, 2]), 5, { strength: 3 });
    expect(uncovered(array)).toEqual([]);
    // 2^3 = 8 rows at least; greedy stays close.
    expect(array.rows.length).toBeLessThanOrEqual(13);
  });

  test('a strength above the number of factors covers every combination of them', () => {
    const array = draw(factorsOf([3, 2]), 5, { strength: 3 });
    expect(array.strength).toBe(2);
    expect(uncovered(array)).toEqual([]);
    expect(array.rows.length).toBe(6);
  });

  test('the same seed gives the same rows, another seed others', () => {
    const factors = factorsOf([3, 3, 3, 3, 4]);
    expect(draw(factors, 42).rows).toEqual(draw(factors, 42).rows);
    expect(draw(factors, 42).rows).not.toEqual(draw(factors, 43).rows);
  });

  test('stays near the known minimum', () => {
    // 3^4: an orthogonal array of 9 rows exists; 2^10: 6 rows; 3^13: 15 rows; 4×3: 12 rows.
    const cases: Array<[number[], number, number]> = [
      [[3, 3, 3, 3], 9, 11],
      [[2, 2, 2, 2, 2, 2, 2, 2, 2, 2], 6, 9],
      [Array.from({ length: 13 }, () => 3), 15, 20],
      [[4, 3], 12, 12],
    ];
    for (const [sizes, minimum, bound] of cases) {
      const rows = draw(factorsOf(sizes), 1).rows.length;
      expect(rows, `${sizes.join('x')}`).toBeGreaterThanOrEqual(minimum);
      expect(rows, `${sizes.join('x')}`).toBeLessThanOrEqual(bound);
    }
  });

  test('keeps to the constraints and covers every pair they allow', () => {
    // f1 = c0 only with f0 = c0 (a class that applies only beside another, as a text value beside a text filter).
    const allowed = (row: ReadonlyArray<string | undefined>): boolean =>
      !(row[1] === 'c0' && row[0] !== undefined && row[0] !== 'c0');
    const array = draw(factorsOf([3, 3, 2, 2]), 9, { allowed });
    expect(array.rows.every((row) => allowed(row))).toBe(true);
    expect(uncovered(array, allowed)).toEqual([]);
    expect(
      array.interactions.some(
        (i) =>
          i.some((x) => x.factor === 'f0' && x.class === 'c1') && i.some((x) => x.factor === 'f1' && x.class === 'c0'),
      ),
    ).toBe(false);
  });
});

describe('interactions no allowed row can hold', () => {
  // a2 never goes with c0, the only class of f2: every pair with a2 is allowed alone and held by no row.
  const factors: CoveringFactor[] = [
    { name: 'f0', classes: ['a1', 'a2'] },
    { name: 'f1', classes: ['b1', 'b2'] },
    { name: 'f2', classes: ['c0'] },
  ];
  const allowed = (row: ReadonlyArray<string | undefined>): boolean => !(row[0] === 'a2' && row[2] === 'c0');

  test('are left out of the array, which covers the rest with allowed rows', () => {
    const array = draw(factors, 1, { allowed });
    expect(array.rows.every((row) => allowed(row))).toBe(true);
    expect(array.interactions.some((i) => i.some((x) => x.class === 'a2'))).toBe(false);
    expect(array.rows.map((row) => row.join(' ')).sort()).toEqual(['a1 b1 c0', 'a1 b2 c0']);
  });

  test('when no row is allowed at all, the array has no row', () => {
    const array = draw(factors, 1, { allowed: (row) => row[2] === undefined });
    expect(array.rows).toEqual([]);
  });
});

test("a thin profile (one sandbox resource, one team, one ordinary role) draws every operation's array", async () => {
  const { INPUT_MODELS } = await import('../../src/rules/input-models/index.ts');
  const { drawCoveringArray } = await import('../../src/rules/input-models/coverage.ts');
  const thin = {
    kinds: [{ id: 'k1', name: 'employee', supportsRoles: true, definingRoleId: 'r1' }],
    roles: [{ id: 'r1' }, { id: 'r2' }],
    teams: [{ id: 't1', enabled: true }],
    mutableResources: [{ id: 'x1', kindId: 'k1' }],
  };
  for (const [operation, model] of Object.entries(INPUT_MODELS)) {
    const input = model(thin);
    const array = drawCoveringArray(input, 1);
    expect(array, operation).toBeDefined();
    for (const row of array?.rows ?? []) expect(input.allowed(row), `${operation}: ${row.join(', ')}`).toBe(true);
  }
});
