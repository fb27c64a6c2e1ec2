import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { allRules, loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { catalogueProblems } from '../../src/rules/catalogue-check.ts';
import { defineRuleGroup, rule } from '../../src/rules/define.ts';
import { UNCHECKABLE, citedClauses, clauseCoverage, specClauses } from '../../src/rules/clauses.ts';
import { MANIFEST_PATH, RULE_IDS_PATH, SPEC_PATH, renderManifest, renderRuleIds } from '../../src/rules/manifest.ts';

const spec = readFileSync(SPEC_PATH, 'utf8');
const CATALOGUE = await loadCatalogue();

describe('rule catalogue', () => {
  test('every file under specs/ and properties/ is a rule file the loader found, and it found nothing else', () => {
    const root = join(import.meta.dirname, '..', '..');
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

  test('every rule has a stable id, cites a clause of the spec and quotes its exact words', () => {
    expect(catalogueProblems(CATALOGUE, spec)).toEqual([]);
  });

  test('the catalogue check catches a bad rule', () => {
    const bad = {
      ...defineRuleGroup({
        section: '§4.9',
        title: 'bad',
        rules: [
          rule({
            id: 'Bad Id',
            clause: '§12',
            quote: 'words the spec never says',
            level: 'MUST',
            judge: () => [],
            drive: () => Promise.resolve(),
          }),
          rule({
            id: 'x.open',
            clause: '§4.9',
            quote: 'The first request carries',
            level: 'OBSERVED',
            judge: () => [],
            drive: () => Promise.resolve(),
          }),
        ],
      }),
      file: 'specs/bad.spec.ts',
    };
    const problems = catalogueProblems([bad, bad], spec);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Bad Id (specs/bad.spec.ts): the id must be <area>.<what>, lowercase',
        'Bad Id (specs/bad.spec.ts): cites §12, which the spec does not have',
        'Bad Id (specs/bad.spec.ts): "words the spec never says" is not the spec\'s exact words',
        'x.open (specs/bad.spec.ts): an OBSERVED rule must quote an open point ("not shown", "may") or say why it is open',
        'x.open (specs/bad.spec.ts): the id is used twice',
      ]),
    );
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
