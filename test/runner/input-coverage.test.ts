/**
 * A pairwise rule's coverage reaches results.json and the HTML page: read
 * back from the rule's observation validated (a malformed one is dropped),
 * written by the JSON report under the published schema, shown per
 * operation on the page with the classes the target cannot serve.
 */
import { describe, expect, test } from 'vitest';
import type { RuleResult } from '../../src/core/types.ts';
import { inputCoverageOf } from '../../src/runner/input-coverage.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderHtml } from '../../src/report/html.ts';
import { resultsJsonProblems } from '../../src/schemas/results-schema.ts';
import { drawCoveringArray, pairCoverage } from '../../src/rules/input-models/coverage.ts';
import { showTeamsInputModel } from '../../src/rules/input-models/show-teams.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

const model = showTeamsInputModel({ kinds: [], roles: [], teams: [{ id: '1', enabled: true }], mutableResources: [] });
const array = drawCoveringArray(model, 1);
if (array === undefined) throw new Error('no covering array');
const coverage = pairCoverage(
  model,
  array,
  array.rows.map((_, i) => i % 2 === 0),
);

function withObservations(observations: RuleResult['observations']): RuleResult {
  const [first] = fixtureRun().results;
  if (!first) throw new Error('the fixture run has no result');
  return { ...first, ruleId: 'show-teams.prop.pairwise-combinations', observations };
}

describe('input coverage in the reports', () => {
  test('read back from the pairwise rule’s observation, with the rule that exercised it', () => {
    const found = inputCoverageOf([
      withObservations([
        { subject: 'pairwise coverage of resources.show-teams', value: coverage },
        { subject: 'pairwise coverage of resources.list', value: { operation: 'resources.list' } },
        { subject: 'something else', value: coverage },
      ]),
    ]);
    expect(found).toEqual([{ ...coverage, rule: 'show-teams.prop.pairwise-combinations' }]);
    expect(found[0]?.pairs.exercised).toBeLessThan(coverage.pairs.servable);
  });

  test('results.json carries it under its published schema, and the page shows it', () => {
    const run = {
      ...fixtureRun(),
      inputCoverage: inputCoverageOf([
        withObservations([{ subject: 'pairwise coverage of resources.show-teams', value: coverage }]),
      ]),
    };
    expect(resultsJsonProblems(JSON.parse(renderJson(run)))).toEqual([]);
    const html = renderHtml(run);
    expect(html).toContain('<h2 id="input-coverage">Input coverage</h2>');
    expect(html).toContain('<h3>resources.show-teams</h3>');
    expect(html).toContain('not servable <code>team_ids = disabled</code>: the target profile names no disabled team');
    expect(html).toContain(`pairs exercised ${coverage.pairs.exercised}/${coverage.pairs.servable}`);
    expect(renderHtml(fixtureRun())).not.toContain('Input coverage');
  });
});
