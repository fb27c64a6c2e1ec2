/** What a reproducer judges, derived from a FAIL: its trace's check, else its first violation. */
import { describe, expect, test } from 'vitest';
import type { AnsweredExchange, Exchange } from '../../src/core/exchange.ts';
import type { RuleResult } from '../../src/core/types.ts';
import { pathOf, reproducerPlan } from '../../src/report/reproducer-checks.ts';
import { alterationOf } from '../../src/report/reproducer-tokens.ts';

function exchange(step: string, status: number, body = '', operation = 'resources.list'): AnsweredExchange {
  return {
    operation,
    step,
    request: { method: 'POST', url: 'http://h/api/resources.list', headers: {}, body: '{}' },
    response: { status, headers: {}, body, truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

function fail(extra: Partial<RuleResult>): RuleResult {
  return {
    ruleId: 'x.y',
    clause: '§1',
    sentence: 's',
    section: '§1',
    group: 'g',
    level: 'MUST',
    kind: 'example',
    mutates: 'none',
    verdict: 'FAIL',
    violations: [],
    observations: [],
    exchanges: [],
    requestCount: 1,
    durationMs: 1,
    ...extra,
  };
}

describe('reproducerPlan', () => {
  test('JSON paths as violations write them', () => {
    expect(pathOf('.data[0].team_ids')).toEqual(['data', 0, 'team_ids']);
    expect(pathOf('["a b"][2]')).toEqual(['a b', 2]);
    expect(pathOf('')).toEqual([]);
    expect(pathOf(' after')).toBeUndefined();
  });

  test("a status violation judges the named step's last answer by the statuses that conform", () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('first', 200), exchange('bad dates', 500), exchange('other', 200)],
        violations: [{ where: 'bad dates: response.status', message: 'must reject', expected: '4xx', actual: 500 }],
      }),
    );
    expect(plan?.requests.map((q) => q.label)).toEqual(['bad dates']);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'status', expected: ['4xx'] }]);
  });

  test('a body violation at a path: the departing value must no longer be there', () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('resources.list', 200, '{"data":[{"x":"a,b"}]}')],
        violations: [{ where: 'resources.list: response.body.data[0].x', message: 'must be an array', actual: 'a,b' }],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'value-at', path: ['data', 0, 'x'], departing: 'a,b' }]);
  });

  test('a violation whose step no exchange has, or whose answer does not depart so, has no plan: never another answer', () => {
    const log = [exchange('first', 200), exchange('bad dates', 422)];
    const where = (step: string) => ({ where: `${step}: response.status`, message: 'must reject', expected: '4xx' });
    expect(reproducerPlan(fail({ exchanges: log, violations: [where('other step')] }))).toBeUndefined();
    // The named step answered 422: the recording does not depart by the check, so the plan would judge another answer.
    expect(reproducerPlan(fail({ exchanges: log, violations: [where('bad dates')] }))).toBeUndefined();
  });

  test("a later page is sent after the pages whose tokens lead to it, each with its live answer's token", () => {
    const page = (n: number, sent: string | null, given: string | null, extra = ''): AnsweredExchange => {
      const e = exchange(`resources.list page ${n}`, 200, `{"data":[${extra}],"next_token":${JSON.stringify(given)}}`);
      return { ...e, request: { ...e.request, body: JSON.stringify({ pagination: { limit: 2, next_token: sent } }) } };
    };
    const log = [page(1, null, 'tok-a-0123456789'), exchange('other', 200), page(2, 'tok-a-0123456789', null, '7')];
    const plan = reproducerPlan(
      fail({
        exchanges: log,
        violations: [{ where: 'limit 2, page 2: response.body.data[0]', message: 'm', actual: 7 }],
      }),
    );
    expect(plan?.requests.map((q) => [q.label, q.tokenFrom])).toEqual([
      ['resources.list page 1', undefined],
      ['resources.list page 2', 1],
    ]);
    expect(plan?.checks).toEqual([{ at: 2, kind: 'value-at', path: ['data', 0], departing: 7 }]);
    // A token altered from the server's (cut short) is made again from the live token, cut as much.
    const altered = [page(1, null, 'tok-a-0123456789abc'), page(2, 'tok-a-0123456789', null, '7')];
    const cut = reproducerPlan(
      fail({
        exchanges: altered,
        violations: [{ where: 'limit 2, page 2: response.body.data[0]', message: 'm', actual: 7 }],
      }),
    );
    expect(cut?.requests.map((q) => [q.tokenFrom, q.alter])).toEqual([
      [undefined, undefined],
      [1, { drop: 3 }],
    ]);
  });

  test('tokens altered as the suite alters them are told from tokens built by hand', () => {
    const given = 'eyJvZmZzZXQiOjIsInEiOiJ4In0.sig';
    expect(alterationOf(`${given}AAAA`, given)).toEqual({ append: 'AAAA' });
    expect(alterationOf(given.slice(0, -4), given)).toEqual({ drop: 4 });
    expect(alterationOf(`${given.slice(0, 5)}A${given.slice(6)}`, given)).toEqual({ change: 5, to: 'A' });
    // Built by hand in the server's own format: it shares the start of a server's token, no more.
    expect(alterationOf('eyJvZmZzZXQiOjJ9', given)).toBeUndefined();
    // Too little kept of the server's token to read as made from it.
    expect(alterationOf('eyJ', given)).toBeUndefined();
  });

  test("a token where null is due departs whatever it is: the run's token is not compared", () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('whole', 200, '{"data":[],"next_token":"tok-1"}')],
        violations: [
          { where: 'whole: response.body.next_token', message: 'must be null', expected: null, actual: 'tok-1' },
        ],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'null-at', path: ['next_token'] }]);
  });

  test('a count asked for and missing: both of its fields are judged, whatever the violation shows of them', () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('row 6, page 1', 200, '{"data":[],"next_token":null}')],
        violations: [
          {
            where: 'row 6, page 1: response.body.total_count',
            message: 'must be present (with total_count_approximate) when with_total_count is true',
            expected: 'an integer and a boolean',
            actual: {},
          },
        ],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'count-present', path: [] }]);
  });

  test('a page listing resources outside its ids filter: every id listed must be one asked for', () => {
    const page = exchange('resources.list page 1', 200, '{"data":[{"id":"a"},{"id":"z"}],"next_token":null}');
    const body = { filters: [{ key: 'resource.ids', value: ['a', 'b'] }], pagination: { limit: 2, next_token: null } };
    const plan = reproducerPlan(
      fail({
        exchanges: [{ ...page, request: { ...page.request, body: JSON.stringify(body) } }],
        violations: [
          {
            where: 'resources.list page 1 (resource.ids (2), limit 2): response.body.data',
            message: 'must hold only resources whose ids are in the resource.ids filter',
            expected: ['a', 'b'],
            actual: ['z'],
          },
        ],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'ids-within', path: ['data'], allowed: ['a', 'b'] }]);
    // Another walk's page 1 of the same limit departing the same way: which walk the violation is of
    // cannot be told, so no page is picked.
    const other = { ...body, filters: [{ key: 'resource.ids', value: ['a', 'c'] }] };
    const both = [
      { ...page, request: { ...page.request, body: JSON.stringify(body) } },
      { ...page, request: { ...page.request, body: JSON.stringify(other) } },
    ];
    const violation = {
      where: 'resources.list page 1 (resource.ids (2), limit 2): response.body.data',
      message: 'must hold only resources whose ids are in the resource.ids filter',
      expected: ['a', 'b'],
      actual: ['z'],
    };
    expect(reproducerPlan(fail({ exchanges: both, violations: [violation] }))).toBeUndefined();
  });

  test('walks told apart by what the words in parentheses show: the page whose request they describe exactly', () => {
    const page = (request: object, body: string): AnsweredExchange => {
      const e = exchange('resources.list page 1', 200, body);
      return { ...e, request: { ...e.request, body: JSON.stringify(request) } };
    };
    const counted = '{"data":[],"next_token":null,"total_count":4}';
    const bare = page({ kind_id: 'k', pagination: { limit: 3, next_token: null } }, counted);
    const unasked = page(
      { kind_id: 'k', with_total_count: false, pagination: { limit: 3, next_token: null } },
      counted,
    );
    const where = (words: string) => ({
      where: `resources.list page 1 (${words}): response.body.total_count`,
      message: 'must be absent unless with_total_count is true',
      expected: '(absent)',
      actual: 4,
    });
    // Both walks are at limit 3 and both answers carry the count: each violation names one of them.
    expect(
      reproducerPlan(fail({ exchanges: [bare, unasked], violations: [where('limit 3')] }))?.requests.map(
        (q) => q.exchange,
      ),
    ).toEqual([bare]);
    expect(
      reproducerPlan(
        fail({ exchanges: [bare, unasked], violations: [where('with_total_count false, limit 3')] }),
      )?.requests.map((q) => q.exchange),
    ).toEqual([unasked]);
  });

  test('a page of resources of another kind is a page of the walk of the kind the violation expects', () => {
    const page = (kind: string): AnsweredExchange => {
      const e = exchange('resources.list page 1', 200, '{"data":[{"id":"r","kind_id":"k1"}],"next_token":null}');
      return { ...e, request: { ...e.request, body: JSON.stringify({ kind_id: kind, pagination: { limit: 8 } }) } };
    };
    const plan = reproducerPlan(
      fail({
        exchanges: [page('k1'), page('k2'), page('k3')],
        violations: [
          {
            where: 'kind integration, resources.list page 1 (limit 8): response.body.data[0].kind_id',
            message: 'must be of the requested kind',
            expected: 'k2',
            actual: 'k1',
          },
        ],
      }),
    );
    expect(plan?.requests.map((q) => q.exchange.request.body)).toEqual([
      JSON.stringify({ kind_id: 'k2', pagination: { limit: 8 } }),
    ]);
  });

  test('walks of one ids filter, its ids in another order, are judged alike by the ids check', () => {
    const page = (ids: string[]): AnsweredExchange => {
      const e = exchange('resources.list page 1', 200, '{"data":[{"id":"z"}],"next_token":null}');
      const body = { filters: [{ key: 'resource.ids', value: ids }], pagination: { limit: 2, next_token: null } };
      return { ...e, request: { ...e.request, body: JSON.stringify(body) } };
    };
    const plan = reproducerPlan(
      fail({
        exchanges: [page(['a', 'b']), page(['b', 'a'])],
        violations: [
          {
            where: 'resources.list page 1 (resource.ids (2), limit 2): response.body.data',
            message: 'must hold only resources whose ids are in the resource.ids filter',
            expected: ['a', 'b'],
            actual: ['z'],
          },
        ],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'ids-within', path: ['data'], allowed: ['a', 'b'] }]);
  });

  test('an error answer without a message is named by its operation, status and step', () => {
    const log = [exchange('not JSON', 400, '{"field":"body"}'), exchange('not JSON', 400, '{"message":"no"}')];
    const where = (w: string) => ({ where: w, message: 'must contain a message', expected: '{"message": "..."}' });
    const plan = reproducerPlan(
      fail({ exchanges: log, violations: [where('resources.list answered 400 (to not JSON)')] }),
    );
    expect(plan?.requests.map((q) => q.exchange)).toEqual([log[0]]);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'error-message' }]);
    // Another status than the recorded one names no answer of the log.
    expect(
      reproducerPlan(fail({ exchanges: log, violations: [where('resources.list answered 404 (to not JSON)')] })),
    ).toBeUndefined();
  });

  test("the team filter's answer is compared with the unfiltered read before it, sent again first", () => {
    const assignation = (team: string) => ({
      team: { id: team, name: team },
      head: true,
      date_range: '2020-01-01/2020-12-31',
    });
    const read = (step: string, request: object, shown: string[]): AnsweredExchange => {
      const e = exchange(step, 200, JSON.stringify(shown.map(assignation)), 'resources.show-teams');
      return { ...e, request: { ...e.request, body: JSON.stringify(request) } };
    };
    const range = { resource_id: 'r1', date_range: '1900-01-01/2199-12-31' };
    const unfiltered = read('show-teams without a filter', range, ['t1', 't2']);
    const where = 'show-teams(team_ids [t1])';
    const judged = (shown: string[]) =>
      reproducerPlan(
        fail({
          ruleId: 'show-teams.team-filter',
          exchanges: [unfiltered, read(where, { ...range, team_ids: ['t1'] }, shown)],
          violations: [{ where, message: 'must return the assignations of the requested teams, and only those' }],
        }),
      );
    const plan = judged(['t1', 't2']);
    expect(plan?.requests.map((q) => q.label)).toEqual(['show-teams without a filter', where]);
    expect(plan?.checks).toEqual([{ at: 2, kind: 'team-filter', reference: 1, teamIds: ['t1'] }]);
    // A recorded answer that keeps what it should does not depart as the script would judge: no plan.
    expect(judged(['t1'])).toBeUndefined();
  });

  test('a list-roles read of several resources is compared with the reads of each resource alone, sent first', () => {
    const association = (resource: string, role: string) => ({
      resource_id: resource,
      role_id: role,
      is_assigned: true,
      team_ids: '*',
    });
    const read = (step: string, request: object, shown: object[]): AnsweredExchange => {
      const e = exchange(step, 200, JSON.stringify(shown), 'resources.list-roles');
      return { ...e, request: { ...e.request, body: JSON.stringify(request) } };
    };
    const roles = ['q1', 'q2'];
    const alone = [
      read('list-roles of one resource', { resource_ids: ['r1'], role_ids: roles }, [association('r1', 'q1')]),
      read('list-roles of one resource', { resource_ids: ['r2'], role_ids: roles }, [association('r2', 'q2')]),
    ];
    const several = (shown: object[]) =>
      read('list-roles of several resources in listed order', { resource_ids: ['r1', 'r2'], role_ids: roles }, shown);
    const where = 'list-roles of several resources in listed order: response.body';
    const judged = (shown: object[]) =>
      reproducerPlan(
        fail({
          ruleId: 'list-roles.filters-respected',
          exchanges: [...alone, several(shown)],
          violations: [{ where, message: 'must hold the associations of each requested id' }],
        }),
      );
    const plan = judged([association('r1', 'q1')]);
    expect(plan?.requests.map((q) => q.exchange)).toEqual([...alone, several([association('r1', 'q1')])]);
    expect(plan?.checks).toEqual([
      { at: 3, kind: 'roles-union', alone: [1, 2], resourceIds: ['r1', 'r2'], roleIds: roles },
    ]);
    // The recorded read holds what the reads alone show: it does not depart as the script would judge it.
    expect(judged([association('r2', 'q2'), association('r1', 'q1')])).toBeUndefined();
  });

  test("a pairwise row's answer is named by the row's step in parentheses; a record's range against the row's", () => {
    const row = exchange('show-teams pairwise row 9', 200, '[{"date_range":"2019-01-01/2027-12-31"}]');
    const plan = reproducerPlan(
      fail({
        exchanges: [row],
        violations: [
          {
            where:
              'counterexample null: show-teams pairwise: date_range of response.body[0] (show-teams pairwise row 9)',
            message: 'must lie in the requested date_range, whatever the other filters',
            expected: 'a range meeting 2028-01-01/2028-02-29',
            actual: { start: '2019-01-01', end: '2027-12-31' },
          },
        ],
      }),
    );
    expect(plan?.requests.map((q) => q.exchange)).toEqual([row]);
    expect(plan?.checks).toEqual([{ at: 1, kind: 'ranges-meet', range: '2028-01-01/2028-02-29' }]);
    const refused = exchange('show-teams pairwise row 3', 400, '{"message":"no"}');
    const status = reproducerPlan(
      fail({
        exchanges: [refused],
        violations: [
          {
            where: 'counterexample null: show-teams pairwise: response.status (show-teams pairwise row 3)',
            message: 'must accept',
            expected: 200,
          },
        ],
      }),
    );
    expect(status?.checks).toEqual([{ at: 1, kind: 'status', expected: ['200'] }]);
  });

  test("a read's value named by its operation, resource and key, as the redaction rules name it", () => {
    const read = (step: string): AnsweredExchange => {
      const e = exchange(step, 200, '[{"external_id":"X-1"}]', 'resources.show-teams');
      return { ...e, request: { ...e.request, body: '{"resource_id":"7","date_range":"2000-01-01/2099-12-31"}' } };
    };
    const [main, restricted] = [read('show-teams with the main key'), read('show-teams with the restricted key')];
    const plan = (where: string) =>
      reproducerPlan(
        fail({
          exchanges: [main, restricted],
          violations: [{ where, message: 'must be the Redacted value', actual: 'X-1' }],
        }),
      );
    expect(plan('show-teams(7)[0].external_id')?.requests.map((q) => q.exchange)).toEqual([restricted]);
    expect(plan('show-teams(7) with the main key[0].external_id')?.requests.map((q) => q.exchange)).toEqual([main]);
    expect(plan('show-teams(8)[0].external_id')).toBeUndefined();
  });

  test('two pairwise list-roles reads that disagree are sent again and compared on what both ask for', () => {
    const read = (step: string, request: object, shown: object[]): AnsweredExchange => {
      const e = exchange(step, 200, JSON.stringify(shown), 'resources.list-roles');
      return { ...e, request: { ...e.request, body: JSON.stringify(request) } };
    };
    const association = { resource_id: 'r1', role_id: 'q1', is_assigned: true, team_ids: '*' };
    const wide = read('pairwise: every role', { resource_ids: ['r1', 'r2'], role_ids: ['q1', 'q2'] }, [association]);
    const row = read('pairwise row 4', { resource_ids: ['r1'], role_ids: ['q1'] }, []);
    const plan = reproducerPlan(
      fail({
        ruleId: 'list-roles.prop.pairwise-combinations',
        exchanges: [wide, row],
        violations: [
          {
            where:
              'counterexample null: list-roles pairwise: response.body association r1/q1 (shown by pairwise: every role, not by pairwise row 4)',
            message: 'must show every association its resource_ids and role_ids let through',
          },
        ],
      }),
    );
    expect(plan?.requests.map((q) => q.exchange)).toEqual([wide, row]);
    expect(plan?.checks).toEqual([
      {
        at: 2,
        kind: 'roles-agree',
        reference: 1,
        asked: [
          { resourceIds: ['r1', 'r2'], roleIds: ['q1', 'q2'] },
          { resourceIds: ['r1'], roleIds: ['q1'] },
        ],
      },
    ]);
  });

  test('a FAIL judged over several answers has no plan: the script says so and exits 3', () => {
    expect(
      reproducerPlan(
        fail({ exchanges: [exchange('a', 200)], violations: [{ where: 'page 3', message: 'must not repeat' }] }),
      ),
    ).toBeUndefined();
  });

  test("a sequence whose failing step has a check replays every step and judges that step's read", () => {
    const plan = reproducerPlan(
      fail({
        trace: [
          { command: 'one', exchanges: [exchange('c1', 204), exchange('r1', 200, '[]')] },
          {
            command: 'two',
            exchanges: [exchange('c2', 204), exchange('r2', 200, '[]')],
            check: { kind: 'rate-on-day', exchange: 1, day: '2026-01-02', rate: null },
          },
        ],
      }),
    );
    expect(plan?.requests.map((q) => q.label)).toEqual(['one', 'one', 'two', 'two']);
    expect(plan?.checks).toEqual([{ at: 4, kind: 'rate-on-day', day: '2026-01-02', rate: null }]);
  });

  test("a sequence stopped by its command's status is judged on that answer", () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [exchange('c1', 500)],
        trace: [{ command: 'one', exchanges: [exchange('c1', 500)] }],
        violations: [{ where: 'counterexample [x]: c1: response.status', message: 'must accept', expected: '2xx' }],
      }),
    );
    expect(plan?.checks).toEqual([{ at: 1, kind: 'status', expected: ['2xx'] }]);
  });

  const roles = (teams: string[] | '*') =>
    JSON.stringify([{ resource_id: 'r1', role_id: 'role-1', is_assigned: true, team_ids: teams }]);
  const read = (step: string, teams: string[] | '*') => exchange(step, 200, roles(teams), 'resources.list-roles');
  const revoke = (step: string) => exchange(step, 204, '', 'resources.revoke-roles');

  test("a revocation's FAIL is sent again from the read it started from, judged on the read its violation names", () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [
          read('list-roles of a candidate resource', ['t1', 't2']),
          revoke('revoking t1'),
          read('list-roles after', []),
          read('list-roles after, a moment later', []),
          // The confirmation, on another resource: not this evidence.
          read('list-roles of a candidate resource', ['t3', 't4']),
          revoke('revoking t3'),
          read('list-roles after', []),
        ],
        violations: [{ where: 'list-roles after.team_ids', message: 'must be the former list without t1' }],
      }),
    );
    expect(plan?.requests.map((q) => q.label)).toEqual([
      'list-roles of a candidate resource',
      'revoking t1',
      'list-roles after',
    ]);
    expect(plan?.startRoles).toEqual(JSON.parse(roles(['t1', 't2'])));
    expect(plan?.checks).toEqual([
      { at: 2, kind: 'accepted' },
      { at: 3, kind: 'roles-not', departing: JSON.parse(roles([])) },
    ]);
  });

  test('a revocation sent twice is one evidence: the read between the two belongs to it', () => {
    const plan = reproducerPlan(
      fail({
        exchanges: [
          read('list-roles', '*'),
          revoke('first'),
          read('list-roles after the first revocation', []),
          revoke('second'),
          read('list-roles after the second revocation', ['t1']),
        ],
        violations: [{ where: 'list-roles after the second revocation', message: 'must equal the first' }],
      }),
    );
    expect(plan?.requests.map((q) => q.label)).toEqual([
      'list-roles',
      'first',
      'list-roles after the first revocation',
      'second',
      'list-roles after the second revocation',
    ]);
    expect(plan?.startRoles).toEqual(JSON.parse(roles('*')));
  });

  test("a property's revocations sent at once keep their branches; its failing read is the one its violation shows", () => {
    const exchanges = [
      read('list-roles at the start of the sequence', '*'),
      revoke('B1.1 revoke(roles [0], team_ids [0])'),
      revoke('B2.1 revoke(roles [0], team_ids [1])'),
      read('list-roles after the parallel revocations', ['t2', 't3']),
      read('list-roles at the start of the sequence', ['t2', 't3']),
      revoke('B1.1 revoke(roles [0], team_ids [2])'),
      revoke('B2.1 revoke(roles [0], team_ids [3])'),
      read('list-roles after the parallel revocations', ['t2']),
    ];
    const where = 'counterexample […]: list-roles after the parallel revocations: no serial order explains the answers';
    const plan = reproducerPlan(
      fail({
        kind: 'property',
        exchanges,
        violations: [{ where, message: 'must be explained', actual: { roles: { 'role-1': ['t2'] } } }],
      }),
    );
    expect(plan?.requests.map((q) => q.branch)).toEqual([undefined, 1, 2, undefined]);
    expect(plan?.startRoles).toEqual(JSON.parse(roles(['t2', 't3'])));
    // A property whose violation does not say what the failing read showed: no read is picked at random.
    expect(
      reproducerPlan(fail({ kind: 'property', exchanges, violations: [{ where, message: 'must be explained' }] })),
    ).toBeUndefined();
  });

  test('a revocation whose start read the transcript cut (or lost) is not judged', () => {
    const cut: Exchange = {
      ...read('list-roles', '*'),
      response: { status: 200, headers: {}, body: '[', truncated: true },
    };
    expect(
      reproducerPlan(
        fail({
          exchanges: [cut, revoke('revoking'), read('list-roles after', [])],
          violations: [{ where: 'list-roles after', message: 'must keep the role' }],
        }),
      ),
    ).toBeUndefined();
  });

  test('a sequence of revocations starts from the roles read its trace begins with, or is not judged', () => {
    const check = { kind: 'role-teams' as const, exchange: 1, resourceId: 'r1', roleId: 'role-1', teams: null };
    const started = reproducerPlan(
      fail({
        trace: [
          {
            command: 'revoke-roles on resource r1',
            exchanges: [read('list-roles at the start of the sequence', '*'), revoke('revoke(…)'), read('after', '*')],
            check: { ...check, exchange: 2 },
          },
        ],
      }),
    );
    expect(started?.startRoles).toEqual(JSON.parse(roles('*')));
    expect(started?.requests.map((q) => q.label)).toEqual([
      'list-roles at the start of the sequence',
      'revoke-roles on resource r1',
      'revoke-roles on resource r1',
    ]);
    expect(started?.checks).toEqual([{ at: 3, kind: 'role-teams', resourceId: 'r1', roleId: 'role-1', teams: null }]);
    // Without the read it started from, a revocation sequence could only be sent from an unknown state.
    expect(
      reproducerPlan(
        fail({ trace: [{ command: 'revoke', exchanges: [revoke('revoke(…)'), read('after', '*')], check }] }),
      ),
    ).toBeUndefined();
  });
});
