/**
 * A change to a sandbox resource that the suite did not make, seen at
 * restore time, is an ERROR naming the resource (DC_ERR_FOREIGN_CHANGE),
 * never a FAIL, and restoration leaves it in place: only the suite's own
 * changes are put back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { addDays, type DateSpan } from '../../src/rules/dates.ts';
import { dateSpan, foreignChanges, MutationLog } from '../../src/rules/own-mutations.ts';
import type { ResourceState } from '../../src/rules/steps/state.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../../src/schemas/index.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { pendingChanges, readJournal } from '../../src/runner/undo-journal.ts';
import { WIDE_RANGE } from '../../src/rules/steps/assignations.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';
import { ratePeriod } from '../helpers/rate-period.ts';

function sent(operation: string, body: unknown): Exchange {
  return {
    operation,
    request: { method: 'POST', url: '/', headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body) },
    response: { status: 200, headers: {}, body: '', truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

describe('telling the suite’s own changes from another party’s', () => {
  const before: ResourceState = {
    resourceId: '7',
    rates: [ratePeriod('2018-01-01/2023-12-31', 50), ratePeriod('2024-01-01/2030-12-31', 60)],
  };
  // The suite cut 2018-2023 with a rate in its middle; someone else added a period in 2150.
  const now: ResourceState = {
    resourceId: '7',
    rates: [
      ratePeriod('2018-01-01/2020-02-29', 50),
      ratePeriod('2020-03-01/2020-03-31', 40),
      ratePeriod('2020-04-01/2023-12-31', 50),
      ratePeriod('2024-01-01/2030-12-31', 60),
      ratePeriod('2150-01-01/2150-12-31', 11),
    ],
  };

  test('the fragments of a period the suite cut are its own; a period on dates it never touched is foreign', () => {
    const log = new MutationLog();
    log.add(
      sent('resources.assign-activity-rate', {
        resource_id: '7',
        date_range: '2020-03-01/2020-03-31',
        average_rate: 40,
      }),
    );
    log.add(
      sent('resources.assign-activity-rate', {
        resource_id: '8',
        date_range: '2150-01-01/2150-12-31',
        average_rate: 11,
      }),
    );
    expect(foreignChanges(before, now, log.since(0, '7'))).toEqual({
      rates: { missing: [], unexpected: [ratePeriod('2150-01-01/2150-12-31', 11)] },
      onOwnDates: false,
    });
  });

  /** The suite's own change of `before`: a rate of 40.4 over March 2020, answered 204 (or not answered at all). */
  const ownMarch = (answered = true): MutationLog => {
    const log = new MutationLog();
    const exchange = sent('resources.assign-activity-rate', {
      resource_id: '7',
      date_range: '2020-03-01/2020-03-31',
      average_rate: 40.4,
      work_regime_id: '1',
    });
    const { response: _answer, ...unanswered } = exchange;
    log.add(answered ? exchange : { ...unanswered, error: { code: 'UND_ERR_SOCKET', message: 'other side closed' } });
    return log;
  };
  /** `now` with the periods of 2018-2023 replaced by `periods`. */
  const nowWith = (...periods: ActivityRatePeriod[]): ResourceState => ({
    resourceId: '7',
    rates: [...periods, ratePeriod('2024-01-01/2030-12-31', 60)],
  });

  test('another rate over the days the suite changed is foreign, and on the suite’s own dates', () => {
    const overwritten = nowWith(
      ratePeriod('2018-01-01/2020-02-29', 50),
      ratePeriod('2020-03-01/2020-03-31', 99),
      ratePeriod('2020-04-01/2023-12-31', 50),
    );
    expect(foreignChanges(before, overwritten, ownMarch().since(0, '7'))).toEqual({
      rates: { missing: [], unexpected: [ratePeriod('2020-03-01/2020-03-31', 99)] },
      onOwnDates: true,
    });
    // The rate the suite sent, shown rounded, is its own.
    const rounded = nowWith(
      ratePeriod('2018-01-01/2020-02-29', 50),
      ratePeriod('2020-03-01/2020-03-31', 40),
      ratePeriod('2020-04-01/2023-12-31', 50),
    );
    expect(foreignChanges(before, rounded, ownMarch().since(0, '7'))).toBeUndefined();
  });

  test('a change on the days beside the suite’s, or far away in the period it cut, is foreign; the period is not the suite’s to widen', () => {
    const beside = nowWith(
      ratePeriod('2018-01-01/2020-02-29', 50),
      ratePeriod('2020-03-01/2020-03-31', 40),
      ratePeriod('2020-04-01/2020-04-05', 99),
      ratePeriod('2020-04-06/2023-12-31', 50),
    );
    expect(foreignChanges(before, beside, ownMarch().since(0, '7'))).toEqual({
      rates: { missing: [], unexpected: [ratePeriod('2020-04-01/2020-04-05', 99)] },
      onOwnDates: true,
    });
    const far = nowWith(
      ratePeriod('2018-01-01/2020-02-29', 50),
      ratePeriod('2020-03-01/2020-03-31', 40),
      ratePeriod('2020-04-01/2023-05-31', 50),
      ratePeriod('2023-06-01/2023-06-30', 99),
      ratePeriod('2023-07-01/2023-12-31', 50),
    );
    // Far from the suite's days, but putting back the period the suite cut would overwrite it.
    expect(foreignChanges(before, far, ownMarch().since(0, '7'))).toEqual({
      rates: { missing: [], unexpected: [ratePeriod('2023-06-01/2023-06-30', 99)] },
      onOwnDates: true,
    });
  });

  test('teams: an assignation merged with the suite’s is its own; another team on the suite’s days is foreign', () => {
    const assignation = (team: string, range: string, regrouping = ''): TeamAssignation => ({
      team: { id: team, name: `team ${team}` },
      head: false,
      date_range: range,
      regrouping,
      contract_number: '',
      external_id: '',
    });
    const teamsBefore: ResourceState = { resourceId: '7', teams: [assignation('3', '2021-02-01/2021-12-31', 'old')] };
    const log = new MutationLog();
    log.add(
      sent('resources.assign-team', {
        resource_id: '7',
        team_id: '3',
        head: false,
        date_range: '2021-01-01/2021-01-31',
        regrouping: 'new',
      }),
    );
    // §4.3: the assignation beside is extended, and takes the new one's regrouping.
    const merged = { resourceId: '7', teams: [assignation('3', '2021-01-01/2021-12-31', 'new')] };
    expect(foreignChanges(teamsBefore, merged, log.since(0, '7'))).toBeUndefined();
    const other = { resourceId: '7', teams: [...merged.teams, assignation('4', '2021-01-10/2021-01-20')] };
    expect(foreignChanges(teamsBefore, other, log.since(0, '7'))).toEqual({
      teams: { missing: [], unexpected: [assignation('4', '2021-01-10/2021-01-20')] },
      onOwnDates: true,
    });
  });

  test('a change of the suite’s that was never answered explains anything on its days and the day beside', () => {
    const overwritten = nowWith(
      ratePeriod('2018-01-01/2020-02-29', 50),
      ratePeriod('2020-03-01/2020-04-01', 99),
      ratePeriod('2020-04-02/2023-12-31', 50),
    );
    expect(foreignChanges(before, overwritten, ownMarch(false).since(0, '7'))).toBeUndefined();
  });

  test('a change of the suite’s whose dates cannot be read may explain anything: nothing is foreign', () => {
    const log = new MutationLog();
    log.add(sent('resources.unassign-activity-rate', { resource_id: '7', date_range: '2020-13-45/x' }));
    expect(foreignChanges(before, now, log.since(0, '7'))).toBeUndefined();
    const malformed = new MutationLog();
    malformed.add(sent('resources.assign-activity-rate', '{"resource_id": "7", '));
    expect(foreignChanges(before, now, malformed.since(0, '7'))).toBeUndefined();
  });

  test('reads and revocations are no changes of rates or teams; changes before the mark do not count', () => {
    const log = new MutationLog();
    log.add(sent('resources.assign-activity-rate', { resource_id: '7', date_range: '2150-01-01/2150-12-31' }));
    const mark = log.mark();
    log.add(sent('resources.show-activity-rates', { resource_id: '7', date_range: '1900-01-01/2199-12-31' }));
    log.add(sent('resources.revoke-roles', { resource_ids: ['7'], role_ids: ['1'] }));
    expect(log.since(mark, '7')).toEqual([]);
    expect(log.since(0, '7')).toHaveLength(1);
  });
});

describe('a foreign change while a mutating rule runs', () => {
  let server: ReferenceServer;
  let proxy: ForwardingProxy;
  /**
   * The foreign change to make on the first `read` after the suite's `write` (with `wide`, the first over
   * every date: the restoration's), once; or, with `atWrite`, just before the suite's `atWrite`-th `write`
   * to one resource (a restoring request) goes through. `change` is given the suite's first `write`.
   */
  let plan:
    | {
        write: string;
        read: string;
        wide?: boolean;
        atWrite?: number;
        change: (resourceId: string, first: { date_range: string; average_rate?: number }) => [string, unknown];
      }
    | undefined;
  let writes = 0;
  let changedResource: string | undefined;
  /** The resource of the suite's latest `write`. */
  let written: string | undefined;
  /** The body of the suite's first `write` to `written`. */
  let firstWrite: { date_range: string; average_rate?: number } | undefined;

  const post = async (operation: string, body: unknown): Promise<{ status: number; json: unknown }> => {
    const res = await request(`${server.url}/api/directory/${operation}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        'content-type': 'application/json',
        'service-version': '26.06.25',
      },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
  };

  beforeAll(async () => {
    server = await startReferenceServer({});
    proxy = await startForwardingProxy(server.url, async (path, text) => {
      const operation = path.split('/').pop();
      if (!plan) return false;
      const body = JSON.parse(text) as { resource_id?: string; date_range: string; average_rate?: number };
      if (operation === plan.write) {
        if (body.resource_id !== written) firstWrite = body;
        writes = body.resource_id === written ? writes + 1 : 1;
        written = body.resource_id;
      }
      const now =
        plan.atWrite === undefined
          ? operation === plan.read &&
            written !== undefined &&
            body.resource_id === written &&
            (!plan.wide || body.date_range === WIDE_RANGE)
          : operation === plan.write && writes === plan.atWrite;
      if (now && written && firstWrite && !changedResource) {
        // Another party changes the resource before the rule, or its restoration, reads it.
        changedResource = written;
        const [op, change] = plan.change(written, firstWrite);
        expect((await post(op, change)).status).toBeLessThan(300);
      }
      return false;
    });
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  async function stateOf(resourceId: string): Promise<{ rates: string[]; teams: string[] }> {
    const range = { resource_id: resourceId, date_range: WIDE_RANGE };
    const rates = (await post('resources.show-activity-rates', range)).json as unknown[];
    const teams = (await post('resources.show-teams', range)).json as unknown[];
    return { rates: rates.map((x) => JSON.stringify(x)).sort(), teams: teams.map((x) => JSON.stringify(x)).sort() };
  }

  async function runRule(
    ruleId: string,
    options: { journalPath?: string } = {},
  ): Promise<{
    verdict: string;
    errorCode?: string;
    reason?: string;
    before: Map<string, { rates: string[]; teams: string[] }>;
  }> {
    changedResource = undefined;
    written = undefined;
    firstWrite = undefined;
    writes = 0;
    const before = new Map<string, { rates: string[]; teams: string[] }>();
    for (const r of server.profile.mutableResources) before.set(r.id, await stateOf(r.id));
    const run = await runRules(
      selectRules(await loadCatalogue(), { rules: [ruleId] }),
      { baseUrl: proxy.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 3, seed: 3, ...options },
    );
    const result = run.results[0]!;
    return {
      verdict: result.verdict,
      ...(result.errorCode ? { errorCode: result.errorCode } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
      before,
    };
  }

  test('a rate period added in 2150 during activity-rates.assigned-rate-shown: ERROR naming the resource, the period kept', async () => {
    plan = {
      write: 'resources.assign-activity-rate',
      read: 'resources.show-activity-rates',
      change: (resource_id) => [
        'resources.assign-activity-rate',
        {
          resource_id,
          date_range: '2150-01-01/2150-12-31',
          average_rate: 11,
          work_regime_id: server.profile.workRegimeIds![0],
        },
      ],
    };
    const { verdict, errorCode, reason, before } = await runRule('activity-rates.assigned-rate-shown');
    expect(changedResource).toBeDefined();
    expect({ verdict, errorCode }).toEqual({ verdict: 'ERROR', errorCode: 'DC_ERR_FOREIGN_CHANGE' });
    expect(reason).toContain(`resource ${changedResource} was changed by someone else`);
    expect(reason).toContain('new rates: {"activity_rate_patterns"');
    expect(reason).toContain('2150-01-01/2150-12-31');
    // The suite's own change is put back; the other party's period is still there, as they left it.
    const after = await stateOf(changedResource!);
    const added = after.rates.filter((p) => !before.get(changedResource!)!.rates.includes(p));
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('"date_range":"2150-01-01/2150-12-31"');
    expect(after.rates.filter((p) => !added.includes(p))).toEqual(before.get(changedResource!)!.rates);
    expect(after.teams).toEqual(before.get(changedResource!)!.teams);
  }, 60_000);

  test('a rate period added in 2160 while the restoration runs: kept by the full restore too, ERROR', async () => {
    // The rule assigns once; restoring sends a second assignment (the period as it was): the other party's
    // period comes between the restoration's first read and its check, so the targeted undo does not verify.
    plan = {
      write: 'resources.assign-activity-rate',
      read: 'resources.show-activity-rates',
      atWrite: 2,
      change: (resource_id) => [
        'resources.assign-activity-rate',
        {
          resource_id,
          date_range: '2160-01-01/2160-01-05',
          average_rate: 12,
          work_regime_id: server.profile.workRegimeIds![0],
        },
      ],
    };
    const { verdict, errorCode, reason, before } = await runRule('activity-rates.assigned-rate-shown');
    expect(changedResource).toBeDefined();
    expect({ verdict, errorCode }).toEqual({ verdict: 'ERROR', errorCode: 'DC_ERR_FOREIGN_CHANGE' });
    expect(reason).toContain('2160-01-01/2160-01-05');
    const after = await stateOf(changedResource!);
    const added = after.rates.filter((p) => !before.get(changedResource!)!.rates.includes(p));
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('"date_range":"2160-01-01/2160-01-05"');
    expect(after.rates.filter((p) => !added.includes(p))).toEqual(before.get(changedResource!)!.rates);
  }, 60_000);

  test('a team assignation added in 2150 during assign-team.warning-changes-nothing: ERROR, not the FAIL the rule would see', async () => {
    const team = server.profile.teams.find((t) => t.enabled)!.id;
    plan = {
      write: 'resources.assign-team',
      read: 'resources.show-teams',
      change: (resource_id) => [
        'resources.assign-team',
        { resource_id, team_id: team, head: false, date_range: '2150-01-01/2150-06-30', warning_aware: true },
      ],
    };
    const { verdict, errorCode, reason, before } = await runRule('assign-team.warning-changes-nothing');
    expect(changedResource).toBeDefined();
    expect({ verdict, errorCode }).toEqual({ verdict: 'ERROR', errorCode: 'DC_ERR_FOREIGN_CHANGE' });
    // The rule's judge would find the resource changed after the warning: no verdict is drawn from that.
    expect(reason).toContain(`resource ${changedResource} was changed by someone else`);
    const after = await stateOf(changedResource!);
    const added = after.teams.filter((t) => !before.get(changedResource!)!.teams.includes(t));
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('"date_range":"2150-01-01/2150-06-30"');
    expect(after.teams.filter((t) => !added.includes(t))).toEqual(before.get(changedResource!)!.teams);
  }, 60_000);
  /**
   * Another party's rate over `range` of the rule's first assignment, just before the restoration reads the
   * resource: the verdict is ERROR, their rate is still shown there after the run, and the rule's change is
   * pending in the journal, put back by no one.
   */
  async function otherRateBeforeRestoring(range: (assigned: DateSpan) => DateSpan): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'dc-foreign-'));
    try {
      let theirs: string | undefined;
      plan = {
        write: 'resources.assign-activity-rate',
        read: 'resources.show-activity-rates',
        wide: true,
        change: (resource_id, first) => {
          const assigned = dateSpan(first.date_range)!;
          const { start, end } = range(assigned);
          theirs = `${start}/${end}`;
          return [
            'resources.assign-activity-rate',
            { resource_id, date_range: theirs, average_rate: 99, work_regime_id: server.profile.workRegimeIds![0] },
          ];
        },
      };
      const journalPath = join(dir, 'journal.jsonl');
      const { verdict, errorCode, reason } = await runRule('activity-rates.assigned-rate-shown', { journalPath });
      expect(changedResource).toBeDefined();
      expect({ verdict, errorCode }).toEqual({ verdict: 'ERROR', errorCode: 'DC_ERR_FOREIGN_CHANGE' });
      expect(reason).toContain(`resource ${changedResource} was changed by someone else`);
      expect(reason).toContain(`"date_range":"${theirs}"`);
      expect(reason).toContain('nothing was put back');
      // The other party's rate is still there: restoration sent nothing over it.
      const shown = (await post('resources.show-activity-rates', { resource_id: changedResource, date_range: theirs }))
        .json as Array<{ date_range: string; average_rate: number }>;
      expect(shown).toContainEqual(expect.objectContaining({ date_range: theirs, average_rate: 99 }));
      // The rule's change stays pending for `restore`: the journal never says it was put back.
      const pending = pendingChanges(await readJournal(journalPath));
      expect(pending.map((c) => [c.ruleId, c.resourceId])).toEqual([
        ['activity-rates.assigned-rate-shown', changedResource],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  test('another rate over the rule’s own days just before it restores: ERROR, their rate kept, the change pending', async () => {
    await otherRateBeforeRestoring((assigned) => assigned);
  }, 60_000);

  test('another rate on the days beside the rule’s just before it restores: ERROR, their rate kept, the change pending', async () => {
    await otherRateBeforeRestoring((assigned) => ({ start: addDays(assigned.end, 1), end: addDays(assigned.end, 3) }));
  }, 60_000);
});
