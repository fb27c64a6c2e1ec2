/**
 * CONTRIBUTING.md's "Adding a rule", followed on a fixture, step by step: a
 * spec file is found by the loader with nothing else to register (1), its
 * rule passes the catalogue check (2), enters the manifest and the rule ids
 * (3), is caught failing against the fault that breaks it, at the place its
 * catch names and with no other rule failing (4), and passes against the
 * reference server (5).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { catalogueProblems } from '../../src/rules/catalogue-check.ts';
import { SPEC_PATH, buildManifest, renderRuleIds } from '../../src/rules/manifest.ts';
import { judgeCatch, runAgainstReference, type CatchOf } from '../../src/mutation/run-mutations.ts';
import { at } from '../../src/mutation/place.ts';
import { FAULTS, type FaultName } from '../../src/reference-server/faults.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE_ROOT = join(import.meta.dirname, '..', 'fixtures', 'added-rule');
const ID = 'example.limit-null-one-page';

/** Step 4 for the fixture: a fault of faults.ts, and the catch fault-catches.ts would hold for it. */
const FAULT: FaultName = 'pagination-limit-null-pages';
const CATCH: CatchOf = { rule: ID, where: at('the whole collection', 'response.body.next_token') };

test('the recipe has at most five steps and names every file the steps below touch', () => {
  const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const recipe = contributing.split('## Adding a rule')[1]!.split('\n## ')[0]!;
  expect(recipe.match(/^\d+\. /gm)?.length).toBeLessThanOrEqual(5);
  for (const named of [
    'specs/<area>.spec.ts',
    'npm run manifest',
    'src/reference-server/faults.ts',
    'src/mutation/fault-catches.ts',
    '`alsoFails`',
    '`where`',
  ]) {
    expect(recipe).toContain(named);
  }
});

test('a spec file added by the recipe is loaded, checked, listed, caught failing and passes', async () => {
  // 1. A spec file is all it takes.
  const added = await loadCatalogue(FIXTURE_ROOT);
  expect(added.map((g) => g.file)).toEqual(['test/fixtures/added-rule/specs/example.spec.ts']);
  expect(allRules(added)).toHaveLength(1);
  const catalogue = [...(await loadCatalogue()), ...added];

  // 2. The rule is data the catalogue check accepts (its quote stands in the spec).
  expect(catalogueProblems(catalogue, readFileSync(SPEC_PATH, 'utf8'))).toEqual([]);

  // 3. The manifest and the rule ids hold it.
  expect(buildManifest(catalogue).rules.find((r) => r.id === ID)).toMatchObject({
    clause: '§4.9 table',
    section: '§4.9',
  });
  expect(renderRuleIds(catalogue)).toContain(`'${ID}',`);

  // 4. Against its fault, the rule FAILs where its catch says, and nothing else fails.
  expect(FAULTS[FAULT].clause).toBe('§4.9 limit');
  const outcome = judgeCatch(await runAgainstReference([FAULT], added), CATCH);
  expect(outcome.reportedAt).toContain(String(CATCH.where));
  expect(outcome.caught).toBe(true);
  expect(outcome.unexpected).toEqual([]);
  expect(outcome.errors).toEqual([]);

  // 5. A correct server passes it.
  const reference = await runAgainstReference([], added);
  expect(reference.results.find((r) => r.ruleId === ID)?.verdict).toBe('PASS');
});
