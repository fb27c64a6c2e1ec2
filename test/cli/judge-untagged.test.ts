/**
 * `directory-conformance judge FILE.har` on traffic the suite did not send:
 * an ordinary client (fetch) pages through a filtered list, reads a
 * resource's teams and roles and asks for an unknown resource, recorded into
 * a HAR without the suite's tags. The rules traffic alone can judge read it,
 * each under its catalogue id: all PASS against the reference server; the
 * rule a fault breaks FAILs; a rule with no evidence in it is NOT-APPLICABLE;
 * the reports are run's, results.json valid against its schema, and no
 * report holds the key the client sent.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { JUDGE_HELP } from '../../src/cli/help.ts';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import type { FaultName } from '../../src/reference-server/faults.ts';
import { trafficRules } from '../../src/runner/judge-untagged.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { resultsJsonProblems } from '../../src/schemas/results-schema.ts';
import { keyLeaks } from '../helpers/key-leaks.ts';
import { browse } from '../helpers/browse.ts';
import { PlainHarClient } from '../helpers/plain-har.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-judge-untagged-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

/** A client's requests (`drive`) to the reference server (with `fault`) as a HAR, its profile, and the key it used. */
async function recordedBy(
  name: string,
  fault: FaultName | undefined,
  drive: (client: PlainHarClient, server: ReferenceServer) => Promise<void>,
  options: { restricted?: true } = {},
): Promise<{ har: string; profile: string; key: string }> {
  const server = await startReferenceServer({ faults: fault ? [fault] : [] });
  try {
    const key = options.restricted ? server.restrictedApiKey : server.apiKey;
    const client = new PlainHarClient(server.url, key);
    await drive(client, server);
    const har = join(dir, `${name}.har`);
    const profile = join(dir, `${name}.profile.json`);
    await writeFile(har, client.har());
    // A restricted client's profile does not hold its key: the recording's placeholder is named to judge.
    const { restrictedApiKey, ...withoutKey } = server.profile;
    await writeFile(profile, JSON.stringify(options.restricted ? withoutKey : { ...withoutKey, restrictedApiKey }));
    return { har, profile, key };
  } finally {
    await server.close();
  }
}

/** The traffic of `browse` against the reference server (with `fault`), as a HAR, and the key it carried. */
function recorded(name: string, fault?: FaultName): Promise<{ har: string; profile: string; key: string }> {
  return recordedBy(name, fault, (client, server) => browse(client, server.profile));
}

/** Each rule's verdict, from `judge --json`. */
function verdicts(out: string): Map<string, string> {
  const judged: unknown = JSON.parse(out);
  const pairs = Array.isArray(judged)
    ? judged.flatMap((r: unknown): Array<[string, string]> => {
        const id: unknown = typeof r === 'object' && r !== null ? Reflect.get(r, 'ruleId') : undefined;
        const verdict: unknown = typeof r === 'object' && r !== null ? Reflect.get(r, 'verdict') : undefined;
        return typeof id === 'string' && typeof verdict === 'string' ? [[id, verdict]] : [];
      })
    : [];
  return new Map(pairs);
}

/** Every HAR entry some rule judged, from `judge --json`. */
function judgedEntries(out: string): number[] {
  const judged: unknown = JSON.parse(out);
  return Array.isArray(judged)
    ? judged.flatMap((r: unknown) => {
        const entries: unknown = Reflect.get(Object(r), 'entries');
        return Array.isArray(entries) ? entries.filter((e): e is number => typeof e === 'number') : [];
      })
    : [];
}

const TRAFFIC_PASSES = [
  'pagination.envelope',
  'pagination.limit-respected',
  'list.resource-shape',
  'show-teams.response-shape',
  'list-roles.plain-array',
  'list-roles.association-shape',
  'pagination.each-resource-once',
  'pagination.exact-multiple-empty-page',
  'errors.message-present',
  'list.ids-filter',
  'list.attributes-returned',
  'list.with-teams',
  'list.with-relations',
  'list.total-count-of-filtered-set',
  'list.counts-agree',
  'activity-rates.assign-no-content',
];

/** The traffic of `browse` holds no evidence of these: no activity rate read, no revocation, no warning. */
const NO_EVIDENCE = [
  'show-activity-rates.response-shape',
  'revoke-roles.no-content',
  'assign-team.warning-shape',
  'revoke-roles.prop.pairwise-combinations',
  'pagination.changed-filters-422',
  'pagination.changed-orders-422',
  'auth.restricted-fields-redacted',
  'auth.redacted-marker-shape',
  'activity-rates.prop.model-sequences',
];

describe('judge on traffic the suite did not send', () => {
  test('the reference server: every rule with evidence PASSes, one without is NOT-APPLICABLE; reports written, no key in them', async () => {
    const { har, profile, key } = await recorded('conformant');
    const reports = join(dir, 'conformant-reports');
    const { code, out } = await cli(['judge', har, '--profile', profile, '--reports', reports, '--json']);
    expect(code, out).toBe(0);
    const judged = verdicts(out);
    for (const id of TRAFFIC_PASSES) expect(judged.get(id), `${id}\n${out}`).toBe('PASS');
    for (const id of NO_EVIDENCE) expect(judged.get(id), id).toBe('NOT-APPLICABLE');
    // The page and the preflight are in the HAR, and judged by no rule.
    const recording: unknown = JSON.parse(await readFile(har, 'utf8'));
    const entries: unknown = Reflect.get(Reflect.get(Object(recording), 'log') ?? {}, 'entries');
    const methods = Array.isArray(entries)
      ? entries.map((e: unknown) => Reflect.get(Object(Reflect.get(Object(e), 'request')), 'method'))
      : [];
    expect(methods.slice(0, 3)).toEqual(['GET', 'OPTIONS', 'POST']);
    expect(judgedEntries(out)).not.toContain(0);
    expect(judgedEntries(out)).not.toContain(1);
    expect(judgedEntries(out)).toContain(2);
    // Only the rules traffic alone can judge: not one that needs requests of its own driver.
    expect(judged.has('pagination.malformed-token-422')).toBe(false);

    // The client's HAR holds the key itself; the reports hold none of it.
    expect(keyLeaks(await readFile(har, 'utf8'), key)).not.toEqual([]);
    const files = await readdir(reports);
    expect(files).toEqual(expect.arrayContaining(['results.json', 'index.html', 'junit.xml', 'summary.md']));
    const results: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
    expect(resultsJsonProblems(results)).toEqual([]);
    expect(Reflect.get(Object(Reflect.get(Object(results), 'target')), 'profileName')).toMatch(
      /judged from conformant\.har$/,
    );
    for (const file of ['results.json', 'index.html', 'junit.xml', 'summary.md']) {
      expect(keyLeaks(await readFile(join(reports, file), 'utf8'), key), file).toEqual([]);
    }
  }, 60_000);

  test.each([
    ['pagination-repeats-last-item', 'pagination.each-resource-once'],
    ['errors-404-without-message', 'errors.message-present'],
    ['list-with-teams-ignored', 'list.with-teams'],
    ['pagination-no-trailing-empty-page', 'pagination.exact-multiple-empty-page'],
    ['activity-rate-assign-200', 'activity-rates.assign-no-content'],
    // The walk of six and its strict total_count, which counts a page of two.
    ['list-total-count-of-page', 'list.counts-agree'],
  ] as const)(
    'the fault %s: %s FAILs, exit 1, with a reproducer',
    async (fault, rule) => {
      const { har, profile } = await recorded(fault, fault);
      const reports = join(dir, `${fault}-reports`);
      const { code, out } = await cli(['judge', har, '--profile', profile, '--reports', reports]);
      expect(code, out).toBe(1);
      expect(out).toMatch(new RegExp(`^FAIL +${rule.replace(/\./g, '\\.')} \\(`, 'm'));
      const results: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
      expect(resultsJsonProblems(results)).toEqual([]);
      expect(await readdir(join(reports, 'reproduce'))).toContain(`${rule}.sh`);
    },
    60_000,
  );

  /**
   * A client that reads a resource's roles, revokes one of its roles on `*` (and sends a revocation the
   * server refuses, an empty team_ids), then reads them again: the effect is judged by §4.1's model.
   */
  function revoked(name: string, fault?: FaultName): Promise<{ har: string; profile: string }> {
    return recordedBy(name, fault, async (client, server) => {
      const resource =
        server.profile.mutableResources.find((r) =>
          server.profile.kinds.some((k) => k.id === r.kindId && k.supportsRoles),
        )?.id ?? '';
      const before = await client.post('resources.list-roles', { resource_ids: [resource] });
      const held = Array.isArray(before.json) ? before.json : [];
      const defining = new Set(server.profile.kinds.map((k) => k.definingRoleId));
      const role: unknown = held
        .map((a: unknown) => Object(a) as Record<string, unknown>)
        .find((a) => a.team_ids === '*' && !defining.has(String(a.role_id)))?.role_id;
      expect(typeof role).toBe('string');
      const refused = await client.post('resources.revoke-roles', {
        resource_ids: [resource],
        role_ids: [role],
        team_ids: [],
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      await client.post('resources.revoke-roles', { resource_ids: [resource], role_ids: [role], team_ids: '*' });
      await client.post('resources.list-roles', { resource_ids: [resource] });
    });
  }

  test("a revocation between two reads of a resource's roles: PASS, and FAIL where the server departs from §4.1", async () => {
    const rule = 'revoke-roles.prop.pairwise-combinations';
    const conformant = await revoked('revoked-conformant');
    const passed = await cli(['judge', conformant.har, '--profile', conformant.profile, '--json']);
    expect(verdicts(passed.out).get(rule), passed.out).toBe('PASS');
    const faulty = await revoked('revoked-faulty', 'revoke-star-removes-role');
    const reports = join(dir, 'revoked-faulty-reports');
    const failed = await cli(['judge', faulty.har, '--profile', faulty.profile, '--reports', reports]);
    expect(failed.code, failed.out).toBe(1);
    expect(failed.out).toMatch(/^FAIL +revoke-roles\.prop\.pairwise-combinations \(/m);
  }, 60_000);

  /** A client that walks a filtered list, then asks for its next page without the filters: §4.9 rule 5's 422. */
  function changedMidWalk(name: string, fault?: FaultName): Promise<{ har: string; profile: string }> {
    return recordedBy(name, fault, async (client, server) => {
      const kind = server.profile.kinds[0]?.id ?? '';
      const all = await client.post('resources.list', { kind_id: kind, pagination: { limit: 6, next_token: null } });
      const six: unknown = Reflect.get(Object(all.json), 'data');
      const ids = Array.isArray(six) ? six.map((r: unknown) => String(Reflect.get(Object(r), 'id'))) : [];
      const filters = [{ key: 'resource.ids', value: ids }];
      const first = await client.post('resources.list', {
        kind_id: kind,
        filters,
        pagination: { limit: 2, next_token: null },
      });
      const token: unknown = Reflect.get(Object(first.json), 'next_token');
      expect(typeof token).toBe('string');
      await client.post('resources.list', { kind_id: kind, pagination: { limit: 2, next_token: token } });
    });
  }

  test('a next page asked for without its filters: PASS where refused with 422, FAIL where the server walks on', async () => {
    const rule = 'pagination.changed-filters-422';
    const conformant = await changedMidWalk('changed-conformant');
    const passed = await cli(['judge', conformant.har, '--profile', conformant.profile, '--json']);
    expect(verdicts(passed.out).get(rule), passed.out).toBe('PASS');
    const faulty = await changedMidWalk('changed-faulty', 'pagination-filters-change-accepted');
    const failed = await cli([
      'judge',
      faulty.har,
      '--profile',
      faulty.profile,
      '--reports',
      join(dir, 'changed-faulty-reports'),
    ]);
    expect(failed.code, failed.out).toBe(1);
    expect(failed.out).toMatch(/^FAIL +pagination\.changed-filters-422 \(/m);
  }, 60_000);

  /** A client with the restricted key that reads a resource's teams and rates; its HAR keeps the key. */
  function readRestricted(name: string, fault?: FaultName): Promise<{ har: string; profile: string; key: string }> {
    return recordedBy(
      name,
      fault,
      async (client, server) => {
        const resource = server.profile.mutableResources[0]?.id ?? '';
        const body = { resource_id: resource, date_range: '1900-01-01/2199-12-31' };
        expect((await client.post('resources.show-teams', body)).status).toBe(200);
        expect((await client.post('resources.show-activity-rates', body)).status).toBe(200);
      },
      { restricted: true },
    );
  }

  test('reads with the restricted key, named by --restricted-key-placeholder: PASS where redacted, FAIL where a field leaks', async () => {
    const rule = 'auth.restricted-fields-redacted';
    const conformant = await readRestricted('restricted-conformant');
    const unnamed = await cli(['judge', conformant.har, '--profile', conformant.profile, '--json']);
    // Without it, the recording does not say which key was restricted: nothing to judge.
    expect(verdicts(unnamed.out).get(rule), unnamed.out).toBe('NOT-APPLICABLE');
    const named = ['--restricted-key-placeholder', conformant.key];
    const passed = await cli(['judge', conformant.har, '--profile', conformant.profile, ...named, '--json']);
    expect(verdicts(passed.out).get(rule), passed.out).toBe('PASS');
    expect(verdicts(passed.out).get('auth.redacted-marker-shape'), passed.out).toBe('PASS');
    const faulty = await readRestricted('restricted-faulty', 'redaction-leaks-external-id');
    const reports = join(dir, 'restricted-faulty-reports');
    const failed = await cli([
      'judge',
      faulty.har,
      '--profile',
      faulty.profile,
      '--restricted-key-placeholder',
      faulty.key,
      '--reports',
      reports,
    ]);
    expect(failed.code, failed.out).toBe(1);
    expect(failed.out).toMatch(/^FAIL +auth\.restricted-fields-redacted \(/m);
    for (const file of ['results.json', 'index.html', 'junit.xml', 'summary.md']) {
      expect(keyLeaks(await readFile(join(reports, file), 'utf8'), faulty.key), file).toEqual([]);
    }
  }, 60_000);

  /**
   * A client that reads a resource's rates and teams over a year, assigns a rate, unassigns another range,
   * sends an assignment the server refuses (no date range), assigns a team it does not hold over its head
   * assignation without warning_aware (the §4.3 warning), reads the teams, assigns it again with warning_aware
   * true, and reads both again: the effects are judged by the model of §4.2, §4.3 and §4.7.
   */
  function wrote(name: string, fault?: FaultName): Promise<{ har: string; profile: string }> {
    return recordedBy(name, fault, async (plain, server) => {
      // A moment between requests, as a person's clicks leave: a HAR's whole milliseconds tell them apart
      // (sent back to back, each would be in flight with the next as far as its times say, and judged by none).
      const client = {
        post: async (operation: string, body: unknown): ReturnType<PlainHarClient['post']> => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          return plain.post(operation, body);
        },
      };
      const resource = server.profile.mutableResources[0]?.id ?? '';
      const year = { resource_id: resource, date_range: '2026-01-01/2026-12-31' };
      await client.post('resources.show-activity-rates', year);
      const teams = await client.post('resources.show-teams', year);
      const held = new Set(
        (Array.isArray(teams.json) ? teams.json : []).map((a: unknown) =>
          Reflect.get(Object(Reflect.get(Object(a), 'team')), 'id'),
        ),
      );
      const team = server.profile.teams.find((t) => t.enabled && !held.has(t.id))?.id;
      expect(team).toBeDefined();
      const assigned = await client.post('resources.assign-activity-rate', {
        resource_id: resource,
        date_range: '2026-03-02/2026-03-13',
        average_rate: 70,
      });
      expect(assigned.status).toBeLessThan(300);
      await client.post('resources.unassign-activity-rate', {
        resource_id: resource,
        date_range: '2026-06-01/2026-06-10',
      });
      const refused = await client.post('resources.assign-activity-rate', { resource_id: resource, average_rate: 10 });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      const assignment = {
        resource_id: resource,
        team_id: team,
        head: true,
        date_range: '2026-04-06/2026-04-17',
        regrouping: 'elsewhere',
      };
      const warned = await client.post('resources.assign-team', { ...assignment, warning_aware: false });
      expect(Object.keys(Object(warned.json))).toContain('warning_type');
      await client.post('resources.show-teams', year);
      await client.post('resources.assign-team', { ...assignment, warning_aware: true });
      await client.post('resources.show-teams', year);
      await client.post('resources.show-activity-rates', year);
    });
  }

  test('rate and team writes between reads of a resource: PASS against the reference server', async () => {
    const conformant = await wrote('wrote-conformant');
    const passed = await cli(['judge', conformant.har, '--profile', conformant.profile, '--json']);
    expect(verdicts(passed.out).get('activity-rates.prop.model-sequences'), passed.out).toBe('PASS');
  }, 60_000);

  test.each([
    ['activity-rate-unassign-noop', /date_range on 2026-06-01/],
    ['assign-team-warning-applied', /assignations on 2026-04-06/],
    ['assign-team-aware-ignored', /show-teams after resources\.assign-team, HAR entry \d+, read by/],
  ] as const)(
    'the fault %s: activity-rates.prop.model-sequences FAILs where the write departs',
    async (fault, where) => {
      const faulty = await wrote(`wrote-${fault}`, fault);
      const reports = join(dir, `wrote-${fault}-reports`);
      const failed = await cli(['judge', faulty.har, '--profile', faulty.profile, '--reports', reports, '--json']);
      expect(failed.code, failed.out).toBe(1);
      expect(verdicts(failed.out).get('activity-rates.prop.model-sequences'), failed.out).toBe('FAIL');
      const results = await readFile(join(reports, 'results.json'), 'utf8');
      expect(results).toMatch(where);
    },
    60_000,
  );

  test('the help names each rule traffic alone can judge, and the tests judge each', async () => {
    const words = new Set(JUDGE_HELP.split(/[\s(),;:]+/));
    const traffic = trafficRules(allRules(await loadCatalogue())).map((r) => r.id);
    for (const id of traffic) expect(words.has(id), id).toBe(true);
    expect([...traffic].sort()).toEqual([...TRAFFIC_PASSES, ...NO_EVIDENCE].sort());
  });

  test("a run's HAR with another client's traffic added: the run's rules judged again, the traffic by the traffic rules", async () => {
    const reports = join(dir, 'mixed-run');
    const run = await cli(['run', '--seed', '1', '--reports', reports, '--rule', 'list-roles.plain-array']);
    expect(run.code, run.out).toBe(0);
    const own: unknown = JSON.parse(await readFile(join(reports, 'exchanges.har'), 'utf8'));
    const ownEntries: unknown = Reflect.get(Reflect.get(Object(own), 'log') ?? {}, 'entries');
    expect(Array.isArray(ownEntries) && ownEntries.length > 0).toBe(true);
    const { har, profile } = await recorded('mixed-client', 'list-with-teams-ignored');
    const client: unknown = JSON.parse(await readFile(har, 'utf8'));
    const clientEntries: unknown = Reflect.get(Reflect.get(Object(client), 'log') ?? {}, 'entries');
    const mixed = join(dir, 'mixed.har');
    await writeFile(
      mixed,
      JSON.stringify({
        log: {
          entries: [
            ...(Array.isArray(ownEntries) ? ownEntries : []),
            ...(Array.isArray(clientEntries) ? clientEntries : []),
          ],
        },
      }),
    );
    const { code, out } = await cli([
      'judge',
      mixed,
      '--profile',
      profile,
      '--reports',
      join(dir, 'mixed-reports'),
      '--json',
    ]);
    expect(code, out).toBe(1);
    const judged = verdicts(out);
    expect(judged.get('list-roles.plain-array')).toBe('PASS');
    expect(judged.get('list.with-teams')).toBe('FAIL');
    // A rule only the run's own requests can show, judged again from them: no evidence of it here.
    expect(judged.get('pagination.malformed-token-422')).toBe('NOT-APPLICABLE');
  }, 60_000);

  test('a walk stopped by a server error says nothing of its clause: NO-VERDICT, an ERROR in the reports', async () => {
    const har = join(dir, 'overloaded.har');
    const request = { kind_id: '1', with_teams: true, pagination: { limit: 2, next_token: null } };
    const entry = {
      startedDateTime: new Date().toISOString(),
      time: 3,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9/api/directory/resources.list',
        headers: [{ name: 'authorization', value: 'Bearer not-a-real-key-0123' }],
        postData: { mimeType: 'application/json', text: JSON.stringify(request) },
      },
      response: { status: 503, content: { mimeType: 'text/plain', text: 'overloaded' } },
    };
    await writeFile(har, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
    const reports = join(dir, 'overloaded-reports');
    const { out } = await cli(['judge', har, '--reports', reports, '--json']);
    expect(verdicts(out).get('list.with-teams')).toBe('NO-VERDICT');
    const results: unknown = JSON.parse(await readFile(join(reports, 'results.json'), 'utf8'));
    expect(resultsJsonProblems(results)).toEqual([]);
    const all: unknown = Reflect.get(Object(results), 'results');
    const withTeams: unknown = Array.isArray(all)
      ? all.find((r: unknown) => Reflect.get(Object(r), 'ruleId') === 'list.with-teams')
      : undefined;
    expect(Reflect.get(Object(withTeams), 'verdict')).toBe('ERROR');
    expect(Reflect.get(Object(withTeams), 'errorCode')).toBe('DC_ERR_SERVER_5XX');
    expect(await readFile(join(reports, 'results.json'), 'utf8')).not.toContain('not-a-real-key-0123');
  });

  test('a recording with no evidence of any rule: exit 3', async () => {
    const har = join(dir, 'empty.har');
    await writeFile(har, JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const { code, out } = await cli(['judge', har, '--reports', join(dir, 'empty-reports')]);
    expect(code, out).toBe(3);
  });

  test('reports are not written over those of the run beside the HAR: exit 2', async () => {
    const { har } = await recorded('beside');
    const { code, out } = await cli(['judge', har, '--reports', dir]);
    expect(code).toBe(2);
    expect(out).toContain('--reports');
  });

  test('without --reports, a HAR lying in reports/ is judged into reports/judged/', async () => {
    const { har } = await recorded('default-folder');
    const cwd = await mkdtemp(join(tmpdir(), 'dc-judge-cwd-'));
    await mkdir(join(cwd, 'reports'));
    await copyFile(har, join(cwd, 'reports', 'exchanges.har'));
    const before = process.cwd();
    process.chdir(cwd);
    try {
      const { out } = await cli(['judge', join('reports', 'exchanges.har')]);
      expect(out).toContain(`reports in ${join('reports', 'judged')}`);
      expect(existsSync(join(cwd, 'reports', 'judged', 'results.json'))).toBe(true);
      expect(existsSync(join(cwd, 'reports', 'results.json'))).toBe(false);
    } finally {
      process.chdir(before);
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
