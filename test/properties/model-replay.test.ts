/**
 * A model-based counterexample replays: the seed, path and the sequence's own
 * replay path from a failing run draw the same shrunk sequence again.
 */
import { describe, expect, test } from 'vitest';
import { MUTATION_OPTIONS, runAgainstReference } from '../../src/mutation/run-mutations.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';

const RULE = 'revoke-roles.prop.model-sequences';

describe('model-based sequences', () => {
  test('a failing sequence shrinks and replays by seed, path and replay path', async () => {
    const groups = (await loadCatalogue())
      .map((g) => ({ ...g, rules: g.rules.filter((r) => r.id === RULE) }))
      .filter((g) => g.rules.length > 0);
    // A seed whose random sequences meet the fault (the property's examples do not): this test is about
    // replaying a drawn sequence, not finding.
    const options = { ...MUTATION_OPTIONS, numRuns: 25, maxCommands: 6, seed: 2 };
    const first = (await runAgainstReference(['revoke-omitted-team-ids-as-star'], groups, options)).results[0]!;
    expect(first.verdict).toBe('FAIL');
    const replay = first.replay!;
    expect(replay.replayPath).toBeDefined();
    // Shrunk: a sequence of at most two revocations shows the fault.
    expect(replay.counterexample!.split('revoke(').length - 1).toBeLessThanOrEqual(2);
    const again = await runAgainstReference(['revoke-omitted-team-ids-as-star'], groups, {
      ...options,
      seed: replay.seed,
      path: replay.path!,
      replayPath: replay.replayPath!,
    });
    expect(again.results[0]!.verdict).toBe('FAIL');
    expect(again.results[0]!.replay?.counterexample).toBe(replay.counterexample);
  });
});
