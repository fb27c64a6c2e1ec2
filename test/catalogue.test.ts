import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { allRules, loadCatalogue, selectRules } from '../src/rules/catalogue.ts';
import { UNCHECKABLE, citedClauses, clauseCoverage, specClauses } from '../src/rules/clauses.ts';
import { MANIFEST_PATH, RULE_IDS_PATH, SPEC_PATH, renderManifest, renderRuleIds } from '../src/rules/manifest.ts';

const spec = readFileSync(SPEC_PATH, 'utf8');
const CATALOGUE = await loadCatalogue();

describe('rule catalogue', () => {
  test('every file under specs/ and properties/ is a rule file the loader found, and it found nothing else', () => {
    const root = join(import.meta.dirname, '..');
    const onDisk = ['specs', 'properties']
      .flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}`))
      .filter((file) => file !== 'specs/manifest.json')
      .sort();
    expect(CATALOGUE.map((g) => g.file).sort()).toEqual(onDisk);
    expect(onDisk.length).toBeGreaterThanOrEqual(11);
  });

  test('the committed manifest and rule ids match the catalogue (run `npm run manifest` after changing a rule)', () => {
    expect(readFileSync(MANIFEST_PATH, 'utf8')).toBe(renderManifest(CATALOGUE));
    expect(readFileSync(RULE_IDS_PATH, 'utf8')).toBe(renderRuleIds(CATALOGUE));
  });

  test('every clause of the spec has a rule, or a stated reason why none can check it', () => {
    const uncovered = clauseCoverage(spec, allRules(CATALOGUE))
      .filter((c) => c.rules.length === 0 && !c.uncheckable)
      .map((c) => c.clause);
    expect(uncovered).toEqual([]);
  });

  test('a clause marked uncheckable exists in the spec and really has no rule', () => {
    const clauses = new Set(specClauses(spec));
    const cited = new Set(allRules(CATALOGUE).flatMap((r) => citedClauses(r.clause)));
    for (const clause of Object.keys(UNCHECKABLE)) {
      expect(clauses.has(clause), clause).toBe(true);
      expect(cited.has(clause), clause).toBe(false);
    }
  });

  test('every rule has a stable id, a clause of the spec, a sentence and a check', () => {
    const ids = new Set<string>();
    const sections = new Set([...spec.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[ .]/gm)].map((m) => `§${m[1]}`));
    for (const rule of allRules(CATALOGUE)) {
      expect(rule.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(ids.has(rule.id), `duplicate ${rule.id}`).toBe(false);
      ids.add(rule.id);
      const cited = citedClauses(rule.clause);
      expect(cited.length, `${rule.id} cites no clause`).toBeGreaterThan(0);
      for (const c of cited)
        expect(sections.has(c.split(' ')[0] ?? ''), `${rule.id} cites ${c}, not in the spec`).toBe(true);
      expect(rule.sentence.length).toBeGreaterThan(10);
      expect(typeof rule.check).toBe('function');
    }
  });

  test('rules of OBSERVED level cite an open point of the spec ("not shown")', () => {
    for (const rule of allRules(CATALOGUE).filter((r) => r.level === 'OBSERVED')) {
      expect(rule.sentence, rule.id).toMatch(/not shown|may|Default/i);
    }
  });

  test('selection by id prefix, section and level', () => {
    const byPrefix = selectRules(CATALOGUE, { rules: ['pagination.*'] }).flatMap((g) => g.rules);
    expect(byPrefix.length).toBeGreaterThan(3);
    expect(byPrefix.every((r) => r.id.startsWith('pagination.'))).toBe(true);
    const bySection = selectRules(CATALOGUE, { sections: ['4.1'] }).flatMap((g) => g.rules);
    expect(bySection.every((r) => r.clause.includes('§4.1'))).toBe(true);
    const observed = selectRules(CATALOGUE, { levels: ['OBSERVED'] }).flatMap((g) => g.rules);
    expect(observed.length).toBeGreaterThan(0);
    expect(observed.every((r) => r.level === 'OBSERVED')).toBe(true);
  });
});
