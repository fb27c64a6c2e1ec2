/**
 * The input model of resources.list is the request schema's: every field of
 * ListRequest is a factor or said not to vary, classes follow each field's
 * type, a profile that cannot serve a class says why, and a row never holds a
 * text value without a text filter. `rules --coverage` prints it.
 */
import { describe, expect, test } from 'vitest';
import { rulesCommand } from '../../src/cli/rules-command.ts';
import { DEFINITIONS } from '../../src/schemas/definitions.ts';
import { FACTOR, NOT_SENT, listInputModel } from '../../src/rules/input-models/resources-list.ts';
import { drawCoveringArray, pairCoverage } from '../../src/rules/input-models/coverage.ts';
import type { TargetProfile } from '../../src/target/profile.ts';

const PROFILE: TargetProfile = {
  kinds: [{ id: '1', name: 'employee', supportsRoles: true }],
  roles: [],
  teams: [],
  mutableResources: [],
  sortAttribute: 'last_name',
  attributes: ['last_name', 'first_name', 'email'],
};

describe('the resources.list input model', () => {
  test('every field of the ListRequest schema is a factor or is said not to vary', () => {
    const model = listInputModel(PROFILE);
    const named = new Set([
      ...model.factors.map((f) => (f.name === FACTOR.limit ? 'pagination' : f.name)),
      ...model.fixed.map((f) => f.field),
    ]);
    for (const field of Object.keys(DEFINITIONS.ListRequest.properties)) expect(named, field).toContain(field);
  });

  test('classes follow the schema: booleans, nullable booleans, the enum, arrays, the limit', () => {
    const classes = new Map(listInputModel(PROFILE).factors.map((f) => [f.name, f.classes]));
    expect(classes.get('with_teams')).toEqual(['omitted', 'true', 'false']);
    expect(classes.get('with_relations')).toEqual(['omitted', 'true', 'false', 'null']);
    expect(classes.get('counting_mode')).toEqual(['omitted', 'strict', 'approximate']);
    expect(classes.get('attributes')).toEqual(['omitted', 'one', 'several']);
    expect(classes.get('orders')).toEqual(['none', 'one', 'two']);
    expect(classes.get(FACTOR.limit)).toEqual(['1', 'small', 'large', 'null']);
    expect(classes.get(FACTOR.textValue)).toEqual([
      NOT_SENT,
      'ascii from the data',
      'accents',
      'sharp s',
      'CJK',
      'emoji',
    ]);
  });

  test('a profile without sortAttribute cannot serve text filters or orders, and says why', () => {
    const { sortAttribute: _s, attributes: _a, ...bare } = PROFILE;
    const model = listInputModel(bare);
    const filters = model.factors.find((f) => f.name === 'filters');
    expect(filters?.classes).toEqual(['none', 'resource.ids']);
    expect(model.factors.find((f) => f.name === 'orders')?.classes).toEqual(['none']);
    expect(model.unservable.map((u) => `${u.factor}=${u.class}`)).toContain('filters=resource.text');
    expect(model.unservable.every((u) => u.why.length > 0)).toBe(true);
  });

  test('no row holds a text value without a text filter, or ids order without ids; every servable pair is in a row', () => {
    const model = listInputModel(PROFILE);
    const array = drawCoveringArray(model, 1);
    expect(array).toBeDefined();
    if (!array) return;
    const at = (name: string): number => model.factors.findIndex((f) => f.name === name);
    for (const row of array.rows) {
      const filter = row[at('filters')] ?? '';
      expect(row[at(FACTOR.textValue)] === NOT_SENT).toBe(!filter.includes('resource.text'));
      expect(row[at(FACTOR.idsOrder)] === NOT_SENT).toBe(!filter.includes('resource.ids'));
    }
    const all = pairCoverage(
      model,
      array,
      array.rows.map(() => true),
    );
    expect(all.pairs.exercised).toBe(all.pairs.servable);
    const half = pairCoverage(
      model,
      array,
      array.rows.map((_, i) => i % 2 === 0),
    );
    expect(half.pairs.exercised).toBeLessThan(half.pairs.servable);
  });

  test('rules --coverage prints the model and the share of pairs per factor pair', async () => {
    const lines: string[] = [];
    expect(await rulesCommand(['--coverage', '--seed', '3'], (l) => lines.push(l))).toBe(0);
    expect(lines[0]).toMatch(
      /^resources\.list: 11 factors, \d+ rows \(seed 3, pairwise\), pairs covered (\d+)\/\1 \(100%\)/,
    );
    expect(lines).toContain('  factor with_relations: omitted, true, false, null (from the request schema)');
    expect(lines.some((l) => l.startsWith('  with_teams × filters: '))).toBe(true);
  });
});
