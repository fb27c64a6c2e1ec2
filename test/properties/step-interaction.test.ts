/**
 * Steps that interact: of the steps a model-based property draws, how many
 * touch what an earlier step of their sequence touched. A pure function of a
 * drawn sequence (the driver places and resolves steps the same way), and the
 * share `rules --coverage` shows for a seed.
 */
import { describe, expect, test } from 'vitest';
import {
  AssignRate,
  AssignTeam,
  Look,
  UnassignRate,
  drawnInteraction,
  interactionOf,
} from '../../properties/model.properties.ts';
import {
  Revoke,
  drawnRevocationInteraction,
  revocationInteraction,
  rolesNamed,
} from '../../properties/roles-model.properties.ts';
import type { Placement } from '../../src/arbitraries/relativeRange.ts';
import { renderInteraction, rulesCommand } from '../../src/cli/rules-command.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { loadProfile } from '../../src/target/load-profile.ts';

const place = (relation: Placement['relation'], at: number, length: number, ref = 0): Placement => ({
  relation,
  ref,
  other: 0,
  at,
  length,
  before: false,
});

describe('the rate and team sequences', () => {
  test('a step counts when its range touches a range an earlier step used; looks have no range', () => {
    const steps = [
      new AssignRate(place('fresh', 0, 5), 30),
      new Look(),
      new AssignRate(place('fresh', 20, 5), 40),
      new UnassignRate(place('inside', 0, 0)),
      new AssignRate(place('adjacent', 1, 3), 50),
    ];
    // The first touches nothing; the second lies apart; the unassignment is inside the second, the
    // last assignment starts the day after the unassignment ends.
    expect(interactionOf(steps)).toEqual({ steps: 4, touching: 2 });
  });

  test('an unassignment stands to the assigned ranges, a team step to the teams’ ranges', () => {
    const steps = [
      new AssignRate(place('fresh', 0, 10), 30),
      new AssignTeam(0, place('fresh', 30, 5), true, false),
      // Inside the last assigned range (days 0-10), not the team's (30-35): it touches the assignment.
      new UnassignRate(place('inside', 0, 2)),
      // The same days as the last team step, not the unassignment's.
      new AssignTeam(0, place('same', 0, 0), true, true),
    ];
    expect(interactionOf(steps)).toEqual({ steps: 4, touching: 2 });
  });

  test('for a seed, at least half of the drawn steps touch what an earlier step touched', () => {
    for (const seed of [1, 2, 3]) {
      const { steps, touching } = drawnInteraction(seed);
      expect(steps).toBeGreaterThan(100);
      expect(touching / steps).toBeGreaterThanOrEqual(0.5);
    }
    expect(drawnInteraction(7)).toEqual(drawnInteraction(7));
  });
});

describe('the revocation sequences', () => {
  test('a revocation again names the roles of the earlier step it stands to', () => {
    expect(rolesNamed(new Revoke([5], { kind: 'star' }, true, 1), [[0], [2, 3]], 4)).toEqual([0]);
    expect(rolesNamed(new Revoke([5, 9], { kind: 'star' }), [[0]], 4)).toEqual([1]);
    // The first step of a sequence names its own picks, again or not.
    expect(rolesNamed(new Revoke([6], { kind: 'star' }, true), [], 4)).toEqual([2]);
  });

  test('a step counts when it names a role an earlier step named', () => {
    const steps = [
      new Revoke([0], { kind: 'held', picks: [0] }),
      new Revoke([], { kind: 'held', picks: [0] }, true),
      new Revoke([1], { kind: 'star' }),
      new Revoke([4], { kind: 'omitted' }),
    ];
    // Four roles: the second narrows role 0 again, the last names role 4 % 4 = 0.
    expect(revocationInteraction(steps, 4)).toEqual({ steps: 4, touching: 2 });
  });

  test('for a seed, at least half of the drawn revocations touch a role an earlier one named', () => {
    const { steps, touching } = drawnRevocationInteraction(4, 1);
    expect(touching / steps).toBeGreaterThanOrEqual(0.5);
  });
});

describe('rules --coverage', () => {
  test('shows each model-based property’s share for the seed', async () => {
    const lines: string[] = [];
    expect(await rulesCommand(['--coverage', '--seed', '3'], (l) => lines.push(l))).toBe(0);
    const { steps, touching } = drawnInteraction(3);
    expect(lines).toContain(
      `activity-rates.prop.model-sequences: ${touching}/${steps} drawn steps (${Math.round((100 * touching) / steps)}%) touch what an earlier step of their sequence touched (seed 3)`,
    );
    expect(lines.some((l) => l.startsWith('revoke-roles.prop.model-sequences: '))).toBe(true);
  });

  test('only the rules that say how their steps interact are shown', async () => {
    const profile = await loadProfile('fixtures/example-profile.json');
    const lines = renderInteraction(await loadCatalogue(), profile, 1);
    expect(lines.map((l) => l.split(':')[0]).sort()).toEqual([
      'activity-rates.prop.model-sequences',
      'revoke-roles.prop.model-sequences',
    ]);
  });
});
