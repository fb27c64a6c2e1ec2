/**
 * The README's figures of the catalogue (rules, MUST rules, properties,
 * faults, a section's selection and the examples built on them) are the
 * catalogue's: a rule or a fault added without them fails here, so they
 * cannot go stale. The mutation run's own figures (faults caught by their
 * rule alone, revocation faults the model-based sequences catch) are checked
 * against the README by the mutation run's last test, from its own outcomes.
 */
import { expect, test } from 'vitest';
import { FAULT_NAMES } from '../../src/mutation/run-mutations.ts';
import { allRules, loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { allDocsText } from '../helpers/docs-text.ts';

// The README and the docs pages: a figure is checked on whichever page states it.
const README = allDocsText();
const CATALOGUE = await loadCatalogue();
const RULES = allRules(CATALOGUE);
const MUST = RULES.filter((r) => r.level === 'MUST');

/** Every number the pattern's first group captures in the README, at least one. */
function figures(pattern: RegExp): number[] {
  const found = [...README.matchAll(pattern)].map((m) => Number(m[1]));
  expect(found.length, `the README has ${pattern}`).toBeGreaterThan(0);
  return found;
}

test('the README counts the rules of the catalogue', () => {
  for (const n of figures(/(?:all|of the) (\d+) rules of the catalogue/g)) expect(n).toBe(RULES.length);
  for (const n of figures(/the (\d+) rules this target can serve/g)) expect(n).toBe(RULES.length);
  const section = allRules(selectRules(CATALOGUE, { sections: ['4.9'] })).length;
  for (const n of figures(/(\d+) of the \d+ rules of the catalogue \(--section 4\.9\)/g)) expect(n).toBe(section);
});

test("the README's inconclusive example adds up", () => {
  const example = /INCONCLUSIVE: (\d+) PASS, (\d+) NOT-TESTED/.exec(README);
  expect(example, 'the README has an inconclusive summary').not.toBeNull();
  const pass = Number(example![1]);
  const notTested = Number(example![2]);
  expect(pass + notTested).toBe(RULES.length);
  expect(figures(/\((\d+) NOT-TESTED\)/g)).toEqual([notTested]);
  expect(README).toContain(`coverage ${((100 * pass) / RULES.length).toFixed(1)}% of`);
});

test('the README counts the MUST rules, their properties and the faults', () => {
  expect(figures(/every one of the (\d+) MUST rules/g)).toEqual([MUST.length]);
  expect(figures(/MUST rules \((\d+) of them fast-check properties/g)).toEqual([
    MUST.filter((r) => r.kind === 'property').length,
  ]);
  expect(figures(/properties, (\d+) of those model-based/g)).toEqual([
    MUST.filter((r) => r.kind === 'property' && r.id.endsWith('.model-sequences')).length,
  ]);
  expect(figures(/a catalogue of (\d+) named faults/g)).toEqual([FAULT_NAMES.length]);
  expect(figures(/(\d+) of \d+ faults caught by their own rule/g)).toEqual([FAULT_NAMES.length]);
  expect(figures(/\d+ of (\d+) faults caught by their own rule/g)).toEqual([FAULT_NAMES.length]);
});
