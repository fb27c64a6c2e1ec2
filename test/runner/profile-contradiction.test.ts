/**
 * A mistake in the user's profile is a configuration error, never a FAIL: a
 * profile that leaves out one of the target's enabled teams, against the
 * correct reference server, makes no revocation rule FAIL (what §4.1 leaves
 * is computed from the profile's teams); the rules whose reads show the team
 * end in ERROR DC_ERR_PROFILE naming the team and the field to fix. A
 * profile that leaves out a role makes no rule FAIL or ERROR at all.
 */
import { expect, test } from 'vitest';
import { embeddedTiming } from '../../src/core/timing.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

test('a profile missing an enabled team: no FAIL, ERROR DC_ERR_PROFILE naming the team and teams', async () => {
  const server = await startReferenceServer({ timing: embeddedTiming(), resources: 120, seed: 7 });
  try {
    const left = server.profile.teams.find((t) => t.enabled);
    expect(left).toBeDefined();
    const profile = { ...server.profile, teams: server.profile.teams.filter((t) => t.id !== left!.id) };
    const run = await runRules(
      selectRules(await loadCatalogue(), { rules: ['revoke-roles'] }),
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile, timing: server.timing },
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, seed: 1 },
    );
    const fails = run.results.filter((r) => r.verdict === 'FAIL' || r.verdict === 'FLAKY');
    expect(fails.map((r) => `${r.ruleId}: ${r.violations[0]?.message ?? r.reason ?? ''}`)).toEqual([]);
    const profileErrors = run.results.filter((r) => r.verdict === 'ERROR' && r.errorCode === 'DC_ERR_PROFILE');
    expect(
      profileErrors.length,
      JSON.stringify(run.results.map((r) => [r.ruleId, r.verdict, r.reason])),
    ).toBeGreaterThan(0);
    for (const r of profileErrors) {
      expect(r.reason).toContain(`team ${left!.id}`);
      expect(r.reason).toContain('add every team of the target to teams');
    }
  } finally {
    await server.close();
  }
});

test('a profile missing a role (the one the restricted key cannot see): no FAIL, no ERROR', async () => {
  // A role the profile does not know is never asked for by name: the rules read the roles the target shows, so
  // leaving one out narrows what they try, never what they hold the target to.
  const server = await startReferenceServer({ timing: embeddedTiming(), resources: 120, seed: 7 });
  try {
    const [left] = server.profile.restrictedHiddenRoleIds ?? [];
    expect(left).toBeDefined();
    const profile = {
      ...server.profile,
      roles: server.profile.roles.filter((r) => r.id !== left),
      restrictedHiddenRoleIds: [],
    };
    const run = await runRules(
      await loadCatalogue(),
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile, timing: server.timing },
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, seed: 1 },
    );
    const wrong = run.results.filter((r) => ['FAIL', 'FLAKY', 'ERROR'].includes(r.verdict));
    expect(wrong.map((r) => `${r.ruleId} ${r.verdict}: ${r.violations[0]?.message ?? r.reason ?? ''}`)).toEqual([]);
  } finally {
    await server.close();
  }
});
