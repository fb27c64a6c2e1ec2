/**
 * A fault-catch's place names the step and the field of the departure: an
 * empty or generic step does not compile (the `@ts-expect-error` lines below
 * are checked by `npm run typecheck`), and every catch is read again here.
 */
import { describe, expect, test } from 'vitest';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { at, isGenericStep, type Place } from '../../src/mutation/place.ts';
import { FAULT_NAMES } from '../../src/reference-server/faults.ts';

describe('a place names the step of the departure', () => {
  test('an empty, generic or computed step, an empty field or a bare object does not compile', () => {
    const made: Place[] = [];
    // @ts-expect-error an empty step
    made.push(at('', 'response.status'));
    // @ts-expect-error the pages of any walk
    made.push(at('pages'));
    // @ts-expect-error a page of any walk
    made.push(at('page', 'response.body.data'));
    // @ts-expect-error a field where the step goes
    made.push(at('response.status'));
    // @ts-expect-error a field where the step goes
    made.push(at('.team_ids'));
    // @ts-expect-error an empty field
    made.push(at('limit 1, page 2', ''));
    const computed = ['limit 1, page 2'].join('');
    // @ts-expect-error a computed step cannot be checked
    made.push(at(computed));
    // @ts-expect-error only `at` makes a place
    const literal: Place = { step: 'limit 1, page 2', field: 'response.body.data', shownBy: () => true };
    made.push(literal);
    // The same steps, made at run time, are generic too.
    expect(made.slice(0, 5).map((p) => isGenericStep(p.step))).toEqual([true, true, true, true, true]);
  });

  test('a violation shows a place when its where holds the step, and the field after it', () => {
    const place = at('limit 1, page 2', 'response.body.data');
    expect(place.shownBy('limit 1, page 2: response.body.data')).toBe(true);
    expect(place.shownBy('counterexample 3: limit 1, page 2: response.body.data[0]')).toBe(true);
    expect(place.shownBy('limit 1, page 3: response.body.data')).toBe(false);
    expect(place.shownBy('response.body.data, limit 1, page 2')).toBe(false);
    expect(at('list-roles after').shownBy('list-roles after.team_ids')).toBe(true);
    expect(String(place)).toBe('limit 1, page 2: response.body.data');
  });

  test('no catch declares a generic step, nor a page alone', () => {
    const generic = FAULT_NAMES.filter((f) => isGenericStep(CATCHES[f].where.step));
    expect(generic).toEqual([]);
    // A page of any walk: the list rules name each page by what its request asked for too.
    const pageOnly = FAULT_NAMES.filter((f) => /^(resources\.[a-z-]+ )?page \d+$/.test(CATCHES[f].where.step));
    expect(pageOnly).toEqual([]);
  });
});
