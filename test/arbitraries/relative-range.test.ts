/**
 * A step's range drawn relative to the ranges earlier steps used: placed by a
 * pure function of those ranges, so a shrunk sequence places its steps again
 * relative to those that remain.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  placeRange,
  relativeRange,
  touches,
  type DaySpan,
  type Placement,
} from '../../src/arbitraries/relativeRange.ts';

const W = 40;
const at = (relation: Placement['relation'], fields: Partial<Placement> = {}): Placement => ({
  relation,
  ref: 0,
  other: 0,
  at: 0,
  length: 5,
  before: false,
  ...fields,
});

describe('placeRange', () => {
  const used: DaySpan[] = [
    { from: 2, to: 8 },
    { from: 10, to: 20 },
  ];

  test('the first range of a sequence, and a fresh one, lie where they were drawn', () => {
    expect(placeRange(at('inside', { at: 3, length: 4 }), [], W)).toEqual({ from: 3, to: 7 });
    expect(placeRange(at('fresh', { at: 30, length: 20 }), used, W)).toEqual({ from: 30, to: 40 });
  });

  test('ref counts back from the last range used: 0 is the last, 1 the one before it', () => {
    expect(placeRange(at('same'), used, W)).toEqual({ from: 10, to: 20 });
    expect(placeRange(at('same', { ref: 1 }), used, W)).toEqual({ from: 2, to: 8 });
  });

  test('inside lies a day in from both ends of the earlier range, whatever was drawn', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.nat(100), (a, length) => {
        const span = placeRange(at('inside', { at: a, length }), used, W);
        return span.from >= 11 && span.to <= 19 && span.from < span.to;
      }),
    );
  });

  test('adjacent starts on the earlier end date or the day after it, or ends on its start', () => {
    expect(placeRange(at('adjacent', { at: 1, length: 5 }), used, W)).toEqual({ from: 21, to: 26 });
    expect(placeRange(at('adjacent', { at: 0, length: 5 }), used, W)).toEqual({ from: 20, to: 25 });
    expect(placeRange(at('adjacent', { at: 1, length: 5, before: true }), used, W)).toEqual({ from: 4, to: 9 });
  });

  test('overlapping crosses one end of the earlier range; spanning covers both ranges', () => {
    const after = placeRange(at('overlapping', { at: 2, length: 3 }), used, W);
    expect(after.from).toBeGreaterThan(10);
    expect(after.from).toBeLessThan(20);
    expect(after.to).toBeGreaterThan(20);
    const both = placeRange(at('spanning', { other: 1, at: 1, length: 2 }), used, W);
    expect(both).toEqual({ from: 1, to: 22 });
  });

  test('an overlapping range shares a day the end-day rule leaves certain and reaches two days past', () => {
    fc.assert(
      fc.property(fc.nat(W), fc.integer({ min: 2, max: 20 }), fc.boolean(), (n, length, before) => {
        const span = placeRange(at('overlapping', { at: n, length, before }), [{ from: 10, to: 20 }], W);
        // Certain days are from … to - 1: one inside 10 … 19, and one of the earlier range's neighbours.
        expect(Math.max(span.from, 10)).toBeLessThan(Math.min(span.to, 20));
        expect(span.from < 10 || span.to >= 22).toBe(true);
      }),
    );
  });

  test('a range beside an earlier one at the edge of the window goes to the side with room', () => {
    const last: DaySpan[] = [{ from: 30, to: W }];
    const overlapping = placeRange(at('overlapping', { at: 3, length: 4 }), last, W);
    expect(overlapping.from).toBeLessThan(30);
    expect(overlapping.to).toBeGreaterThan(30);
    expect(placeRange(at('adjacent', { at: 1, length: 5 }), last, W)).toEqual({ from: 24, to: 29 });
    const first: DaySpan[] = [{ from: 0, to: 10 }];
    expect(placeRange(at('adjacent', { at: 1, length: 5, before: true }), first, W)).toEqual({ from: 11, to: 16 });
  });

  test('every placement lies in the window and is at least a day long', () => {
    fc.assert(
      fc.property(
        relativeRange({ windowDays: W }),
        fc.array(relativeRange({ windowDays: W }), { maxLength: 6 }),
        (p, earlier) => {
          const spans: DaySpan[] = [];
          for (const e of earlier) spans.push(placeRange(e, spans, W));
          const span = placeRange(p, spans, W);
          return span.from >= 0 && span.to <= W && span.from < span.to;
        },
      ),
    );
  });
});

describe('relativeRange', () => {
  test('the same seed draws the same placements', () => {
    const draw = (): Placement[] => fc.sample(relativeRange(), { seed: 42, numRuns: 20 });
    expect(draw()).toEqual(draw());
  });

  test('weights say how often each relation is drawn: a weight of 0 never draws it', () => {
    const drawn = fc.sample(relativeRange({ weights: { fresh: 0, inside: 0 } }), { seed: 1, numRuns: 200 });
    expect(drawn.some((p) => p.relation === 'fresh' || p.relation === 'inside')).toBe(false);
  });
});

describe('touches', () => {
  test('ranges that share a day or meet end to end touch; a day apart they do not', () => {
    expect(touches({ from: 0, to: 5 }, { from: 5, to: 9 })).toBe(true);
    expect(touches({ from: 0, to: 5 }, { from: 6, to: 9 })).toBe(true);
    expect(touches({ from: 0, to: 5 }, { from: 7, to: 9 })).toBe(false);
  });
});
