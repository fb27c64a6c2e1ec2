/**
 * Before a FAIL of a rule that changed state is reported, its reads of the
 * resources it held are compared: two reads with none of the suite's changes
 * of that resource in flight between them that show different states mean
 * another party changed it, and the verdict is ERROR (DC_ERR_FOREIGN_CHANGE),
 * never FAIL. Alone on the target, the same departure still FAILs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import type { RuleResult } from '../../src/core/types.ts';
import { fail } from '../../src/rules/assertions.ts';
import { defineRuleGroup, rule } from '../../src/rules/define.ts';
import { QuietReads } from '../../src/rules/quiet-reads.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import type { TargetProfile } from '../../src/target/profile.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';
import { TARGET_TIMING } from '../../src/core/timing.ts';

const WIDE = '1900-01-01/2199-12-31';

function exchange(operation: string, body: unknown, answer: unknown, at: number, status = 200): Exchange {
  return {
    operation,
    startedAt: new Date(at).toISOString(),
    request: { method: 'POST', url: '/', headers: {}, body: JSON.stringify(body) },
    response: { status, headers: {}, body: answer === undefined ? '' : JSON.stringify(answer), truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

const period = (date_range: string, average_rate: number) => ({ date_range, average_rate, work_regime: { id: '4' } });
const show = (resource_id: string, date_range: string) => ({ resource_id, date_range });

describe('QuietReads: differences nothing of the suite explains', () => {
  test('two reads that differ with no change between them: foreign, on the first days that differ', () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.hold('7');
    reads.add(
      exchange('resources.show-activity-rates', show('7', WIDE), [period('2018-01-01/2019-01-01', 50)], 1000),
      1001,
    );
    reads.add(
      exchange(
        'resources.show-activity-rates',
        show('7', WIDE),
        [period('2018-01-01/2019-01-01', 50), period('2150-01-01/2150-01-05', 11)],
        2000,
      ),
      2001,
    );
    expect(reads.foreign()).toEqual([
      {
        resourceId: '7',
        operation: 'resources.show-activity-rates',
        days: { start: '2150-01-01', end: '2150-01-05' },
        before: [],
        after: [expect.stringContaining('"average_rate":11')],
      },
    ]);
  });

  test('a change of the suite in flight between them, answered or not, or of an unknown resource: nothing foreign', () => {
    for (const change of [
      exchange(
        'resources.assign-activity-rate',
        { resource_id: '7', date_range: '2150-01-01/2150-01-05' },
        undefined,
        1500,
        204,
      ),
      exchange('resources.unassign-activity-rate', { date_range: 'x' }, undefined, 1500, 204),
      {
        ...exchange('resources.assign-activity-rate', { resource_id: '7' }, undefined, 500),
        response: undefined,
        error: { code: 'DC_ERR_TIMEOUT', message: 'timeout' },
      },
    ] satisfies Exchange[]) {
      const reads = new QuietReads(TARGET_TIMING.readLagMs);
      reads.hold('7');
      reads.add(exchange('resources.show-activity-rates', show('7', WIDE), [], 1000), 1001);
      reads.add(change, 1600);
      reads.add(
        exchange('resources.show-activity-rates', show('7', WIDE), [period('2150-01-01/2150-01-05', 11)], 2000),
        2001,
      );
      expect(reads.foreign()).toEqual([]);
    }
  });

  test('a period clipped to the range asked for is the same period: only the days both reads cover are compared', () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.hold('7');
    reads.add(
      exchange('resources.show-activity-rates', show('7', WIDE), [period('2018-01-01/2019-01-01', 50)], 1000),
      1001,
    );
    reads.add(
      exchange(
        'resources.show-activity-rates',
        show('7', '2018-03-01/2018-04-01'),
        [period('2018-03-01/2018-04-01', 50)],
        2000,
      ),
      2001,
    );
    expect(reads.foreign()).toEqual([]);
  });

  test('a resource the rule did not hold counts for nothing (another rule of the run may change it)', () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.add(exchange('resources.show-teams', show('8', WIDE), [], 1000), 1001);
    reads.add(
      exchange(
        'resources.show-teams',
        show('8', WIDE),
        [{ date_range: '2150-01-01/2150-02-01', team: { id: '3' } }],
        2000,
      ),
      2001,
    );
    expect(reads.foreign()).toEqual([]);
  });
});

describe('QuietReads: roles another party revoked', () => {
  const listRoles = (resourceIds: string[], answer: unknown, at: number, credential = 'Bearer $DIRECTORY_API_KEY') => {
    const e = exchange('resources.list-roles', { resource_ids: resourceIds }, answer, at);
    e.request.headers.authorization = credential;
    return e;
  };
  const revoke = (resourceIds: string[], roleIds: string[], at: number) =>
    exchange('resources.revoke-roles', { resource_ids: resourceIds, role_ids: roleIds }, undefined, at, 204);
  const held = (resource_id: string, role_id: string, team_ids: unknown = '*') => ({
    resource_id,
    role_id,
    is_assigned: true,
    team_ids,
  });

  test('a role no revocation of the rule named, shown otherwise by the next read with no revocation between: foreign', () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.hold('10');
    reads.add(listRoles(['10'], [held('10', 'r1'), held('10', 'r2')], 0), 1);
    reads.add(revoke(['10'], ['r1'], 2), 3);
    reads.add(listRoles(['10'], [held('10', 'r2')], 4), 5);
    reads.add(listRoles(['10'], [held('10', 'r2', ['t1'])], 6), 7);
    expect(reads.foreign()).toEqual([
      expect.objectContaining({ resourceId: '10', roleId: 'r2', operation: 'resources.list-roles' }),
    ]);
  });

  test("a role changed across one of the rule's revocations is the rule's own: a server that revokes the wrong role departs", () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.hold('10');
    reads.add(listRoles(['10'], [held('10', 'r1'), held('10', 'r2')], 0), 1);
    reads.add(revoke(['10'], ['r1'], 2), 3);
    reads.add(listRoles(['10'], [held('10', 'r1')], 4), 5);
    expect(reads.foreign()).toEqual([]);
  });

  test("a role the rule's revocations named is its own, whatever the reads show; so is every role when a revocation cannot be read", () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.hold('10');
    reads.add(listRoles(['10'], [held('10', 'r1')], 0), 1);
    reads.add(revoke(['10'], ['r1'], 2), 3);
    reads.add(listRoles(['10'], [held('10', 'r1', ['t9'])], 4), 5);
    expect(reads.foreign()).toEqual([]);

    const unreadable = new QuietReads(TARGET_TIMING.readLagMs);
    unreadable.hold('10');
    unreadable.add(listRoles(['10'], [held('10', 'r1'), held('10', 'r2')], 0), 1);
    unreadable.add(exchange('resources.revoke-roles', 'not an object', undefined, 2, 204), 3);
    unreadable.add(listRoles(['10'], [], 4), 5);
    expect(unreadable.foreign()).toEqual([]);
  });

  test('reads with another credential (a restricted key sees fewer roles), or of a resource not held, count for nothing', () => {
    const reads = new QuietReads(TARGET_TIMING.readLagMs);
    reads.hold('10');
    reads.add(listRoles(['10', '11'], [held('10', 'r1'), held('10', 'r2'), held('11', 'r1')], 0), 1);
    reads.add(listRoles(['10', '11'], [held('10', 'r1'), held('10', 'r2')], 2), 3);
    reads.add(listRoles(['10'], [held('10', 'r1')], 4, 'Bearer $DIRECTORY_RESTRICTED_API_KEY'), 5);
    expect(reads.foreign()).toEqual([]);
  });
});

describe('the engine: another party between two quiet reads', () => {
  const profile: TargetProfile = {
    kinds: [{ id: '1', name: 'employee', supportsRoles: true }],
    roles: [],
    teams: [],
    mutableResources: [{ id: '10', kindId: '1' }],
  };
  let server: TestServer;
  /** Whether another party is changing the resource: each read then shows one more period. */
  let otherParty = false;
  let periods: Array<ReturnType<typeof period>> = [];
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      if (req.url?.endsWith('resources.show-activity-rates')) {
        if (otherParty)
          periods = [
            ...periods,
            period(`2150-01-${String(periods.length + 10)}/2150-01-${String(periods.length + 11)}`, 11),
          ];
        return json(res, 200, periods);
      }
      res.writeHead(204).end();
    });
  });
  afterAll(() => server.close());

  /** A rule that changes state, reads its resource twice, and finds a departure either way. */
  const departing = rule({
    id: 't.departs',
    clause: '§4.2 rule 1',
    quote: 'a sentence long enough',
    level: 'MUST',
    mutates: 'reversible',
    judge: () => [],
    drive: async (ctx) => {
      const id = await ctx.claimResource();
      if (id === undefined) throw new Error('no resource');
      await ctx.client.post('resources.show-activity-rates', { resource_id: id, date_range: WIDE });
      await ctx.client.post('resources.show-activity-rates', { resource_id: id, date_range: WIDE });
      fail({ where: 'show-activity-rates', message: 'must show the period assigned' });
    },
  });

  async function verdict(): Promise<RuleResult | undefined> {
    periods = [];
    const group = { file: 'test', ...defineRuleGroup({ section: '§0', title: 'quiet reads', rules: [departing] }) };
    const run = await runRules(
      [group],
      { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: 'quiet-reads-key-123456', profile },
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true },
    );
    return run.results[0];
  }

  test('alone on the target, the departure is a confirmed FAIL', async () => {
    otherParty = false;
    expect(await verdict()).toMatchObject({ verdict: 'FAIL', confirmed: true });
  });

  test('with another party changing the resource between its reads: ERROR DC_ERR_FOREIGN_CHANGE, never FAIL', async () => {
    otherParty = true;
    const result = await verdict();
    expect(result).toMatchObject({ verdict: 'ERROR', errorCode: 'DC_ERR_FOREIGN_CHANGE' });
    expect(result?.reason).toContain('another party changed a resource this rule held');
    expect(result?.reason).toContain('resources.show-activity-rates of resource 10');
    // What was seen is kept, as evidence.
    expect(result?.violations[0]?.message).toBe('must show the period assigned');
  });
});
