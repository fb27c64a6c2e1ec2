/**
 * CONTRIBUTING.md's "Adding a rule", followed on a fixture: a spec file is
 * found by the loader with nothing else to register, its rule passes the
 * catalogue check, enters the manifest and the rule ids, passes against the
 * reference server and fails against the fault that breaks it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { allRules, loadCatalogue } from '../../src/rules/catalogue.ts';
import { catalogueProblems } from '../../src/rules/catalogue-check.ts';
import { SPEC_PATH, buildManifest, renderRuleIds } from '../../src/rules/manifest.ts';
import { runAgainstReference } from '../../src/mutation/run-mutations.ts';
import type { FaultName } from '../../src/reference-server/faults.ts';

const FIXTURE_ROOT = join(import.meta.dirname, '..', 'fixtures', 'added-rule');
const ID = 'example.limit-null-one-page';

test('a spec file added by the recipe is loaded, checked, listed and run', async () => {
  const added = await loadCatalogue(FIXTURE_ROOT);
  expect(added.map((g) => g.file)).toEqual(['test/fixtures/added-rule/specs/example.spec.ts']);
  const catalogue = [...(await loadCatalogue()), ...added];
  const spec = readFileSync(SPEC_PATH, 'utf8');

  expect(catalogueProblems(catalogue, spec)).toEqual([]);
  expect(buildManifest(catalogue).rules.find((r) => r.id === ID)).toMatchObject({
    clause: '§4.9 table',
    section: '§4.9',
  });
  expect(renderRuleIds(catalogue)).toContain(`'${ID}',`);

  const verdict = async (faults: FaultName[]) =>
    (await runAgainstReference(faults, added)).results.find((r) => r.ruleId === ID)?.verdict;
  expect(await verdict([])).toBe('PASS');
  expect(await verdict(['pagination-limit-null-pages'])).toBe('FAIL');
  expect(allRules(added)).toHaveLength(1);
});
