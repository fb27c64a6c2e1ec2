/**
 * SeenIds against a plain model (a Map from id to walks, note and order):
 * any ids, Snowflakes or not, any walks, the same answers.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { MAX_WALKS, SeenIds } from '../../src/rules/steps/seen-ids.ts';

const snowflake = fc.stringMatching(/^[0-9]{1,20}$/);
const id = fc.oneof(
  { weight: 6, arbitrary: snowflake },
  // Few distinct values, so the same ids come back across walks.
  {
    weight: 3,
    arbitrary: fc.constantFrom('1', '01', '001', '7', '70', '99999999999999999999', '00000000000000000000'),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'abc', '12a', '123456789012345678901', ' 1', '١٢') },
);

test('answers as a Map of every id would', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(id, fc.integer({ min: 0, max: MAX_WALKS - 1 }), fc.nat()), { maxLength: 3000 }),
      fc.boolean(),
      (sees, notes) => {
        const seen = new SeenIds({ notes });
        const model = new Map<string, { walks: number; note: number }>();
        for (const [value, w, note] of sees) {
          const walk = 1 << w;
          const before = model.get(value);
          expect(seen.see(value, walk, note)).toBe(before?.walks ?? 0);
          if (before) before.walks |= walk;
          else model.set(value, { walks: walk, note });
        }
        for (const [value, { walks, note }] of model) {
          expect(seen.walksOf(value)).toBe(walks);
          expect(seen.noteOf(value)).toBe(notes ? note : 0);
        }
        expect(seen.walksOf('5555')).toBe(model.get('5555')?.walks ?? 0);
        for (const [mask, walks] of [
          [1, 1],
          [3, 1],
          [3, 2],
          [3, 3],
          [4, 0],
        ] as const) {
          const expected = [...model].filter(([, v]) => (v.walks & mask) === walks).map(([k]) => k);
          expect(seen.countOf(mask, walks)).toBe(expected.length);
          expect(seen.idsOf(mask, walks, 5)).toEqual(expected.slice(0, 5));
        }
      },
    ),
    { numRuns: 60 },
  );
});

test('a million ids, each once, in order', () => {
  const seen = new SeenIds();
  const ids = Array.from({ length: 1_000_000 }, (_, i) => String(7_000_000_000_000_000_000n + BigInt(i * 7)));
  for (const value of ids) expect(seen.see(value, 1)).toBe(0);
  for (let i = 0; i < ids.length; i += 997) expect(seen.see(ids[i]!, 2)).toBe(1);
  expect(seen.countOf(3, 1)).toBe(ids.length - Math.ceil(ids.length / 997));
  expect(seen.idsOf(1, 1, 3)).toEqual(ids.slice(0, 3));
  expect(seen.idsOf(3, 1, 2)).toEqual([ids[1], ids[2]]);
});

test('a walk forgotten leaves every id as if it had never seen them, and its bit free for another walk', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          { weight: 9, arbitrary: fc.tuple(fc.constant('see' as const), id, fc.integer({ min: 0, max: 3 })) },
          {
            weight: 1,
            arbitrary: fc.tuple(fc.constant('forget' as const), fc.constant(''), fc.integer({ min: 0, max: 3 })),
          },
        ),
        { maxLength: 2000 },
      ),
      (steps) => {
        const seen = new SeenIds();
        const model = new Map<string, number>();
        for (const [op, value, w] of steps) {
          const walk = 1 << w;
          if (op === 'forget') {
            seen.forget(walk);
            for (const [k, walks] of model) model.set(k, walks & ~walk);
            continue;
          }
          expect(seen.see(value, walk)).toBe(model.get(value) ?? 0);
          model.set(value, (model.get(value) ?? 0) | walk);
        }
        for (const [value, walks] of model) expect(seen.walksOf(value)).toBe(walks);
        for (let w = 0; w < 4; w++) {
          const expected = [...model].filter(([, walks]) => (walks & (1 << w)) !== 0).map(([k]) => k);
          expect(seen.countOf(1 << w, 1 << w)).toBe(expected.length);
          expect(seen.idsOf(1 << w, 1 << w, 5)).toEqual(expected.slice(0, 5));
        }
      },
    ),
    { numRuns: 60 },
  );
});
