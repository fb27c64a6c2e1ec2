/**
 * The proxy's judge (src/runner/live-judge.ts), on exchanges built here with
 * no network: an answer's departure is found as it comes; a walk far longer
 * than a stretch is judged whole by pagination.each-resource-once's fold (a
 * resource repeated 400 pages after it first came); and what the judge holds
 * of the traffic stays within its limits however long the session.
 */
import { describe, expect, test } from 'vitest';
import { resourceRecord } from '../helpers/resource-record.ts';
import { embeddedProfile } from '../../src/reference-server/index.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { LiveJudge, type LiveJudgeLimits } from '../../src/runner/live-judge.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { ActivityRatePeriod } from '../../src/schemas/index.ts';
import { ratePeriod } from '../helpers/rate-period.ts';

const profile = embeddedProfile(200);

const resource = (id: number) => resourceRecord(String(1000 + id));

/** Page `n` (from 1) of a walk of `pages` pages of two resources; `ids` overrides the page's resources. */
function page(seq: number, n: number, pages: number, ids?: readonly number[]): Observed {
  const request = { kind_id: '1', pagination: { limit: 2, next_token: n === 1 ? null : `t${n - 1}` } };
  const body = {
    data: (ids ?? [2 * n, 2 * n + 1]).map(resource),
    next_token: n === pages ? null : `t${n}`,
  };
  const text = JSON.stringify(body);
  return {
    operation: 'resources.list',
    step: `resources.list, exchange ${seq}`,
    request,
    status: 200,
    body,
    text,
    earlierStatuses: [],
    credential: 'other',
  };
}

const LIMITS: LiveJudgeLimits = {
  stretchChars: 1024 * 1024,
  stretchExchanges: 10,
  violationsKept: 5,
  evidenceKept: 4,
  recentKept: 3,
};

describe('the live judge', () => {
  test('an answer over its limit is found as it comes, in the exchange that showed it', async () => {
    const judge = new LiveJudge<number>(allRules(await loadCatalogue()), profile, LIMITS);
    const o = page(1, 1, 1, [1, 2, 3]);
    const found = judge.take(1, o, 1, false);
    expect(found.filter((f) => f.ruleId === 'pagination.limit-respected').map((f) => f.seq)).toEqual([1]);
  });

  test('a walk of 500 pages, judged by stretches of 10: the resource repeated on page 450 is found there, and little is kept', async () => {
    const rules = allRules(await loadCatalogue());
    const judge = new LiveJudge<number>(rules, profile, LIMITS);
    const pages = 500;
    const found = [];
    let held = 0;
    for (let n = 1; n <= pages; n++) {
      const o = n === 450 ? page(n, n, pages, [6, 900]) : page(n, n, pages);
      found.push(...judge.take(n, o, n, false));
      held = Math.max(held, judge.kept().length);
    }
    const once = found.filter((f) => f.ruleId === 'pagination.each-resource-once');
    expect(once.map((f) => f.seq)).toEqual([450]);
    expect(once[0]?.violation.where).toContain('page 450');
    // No other rule departs on a valid walk cut into stretches.
    expect(found.filter((f) => f.ruleId !== 'pagination.each-resource-once')).toEqual([]);
    // Each rule's evidence, the latest few and one stretch at most: never the walk.
    const rulesJudging = judge.verdicts().length;
    expect(held).toBeLessThanOrEqual(
      rulesJudging * 2 * LIMITS.evidenceKept + LIMITS.recentKept + LIMITS.stretchExchanges,
    );
    const verdicts = new Map(judge.verdicts().map((v) => [v.ruleId, v]));
    expect(verdicts.get('pagination.each-resource-once')?.verdict).toBe('FAIL');
    expect(verdicts.get('pagination.envelope')?.verdict).toBe('PASS');
    expect(verdicts.get('pagination.each-resource-once')?.seqs).toContain(450);
  });

  test('two walks interleaved page by page are each judged whole: the later one waits for the first to end', async () => {
    const judge = new LiveJudge<number>(allRules(await loadCatalogue()), profile, LIMITS);
    // Walk A (limit 2) and walk B (another kind, limit 3, its third page repeating a resource of its first).
    const b = (seq: number, n: number, ids: number[]): Observed => {
      const o = page(seq, n, 3, ids);
      const request = { kind_id: '2', pagination: { limit: 3, next_token: n === 1 ? null : `b${n - 1}` } };
      const body = { data: ids.map(resource), next_token: n === 3 ? null : `b${n}` };
      return { ...o, request, body, text: JSON.stringify(body) };
    };
    const traffic = [
      page(1, 1, 3),
      b(2, 1, [50, 51, 52]),
      page(3, 2, 3),
      b(4, 2, [53, 54, 55]),
      page(5, 3, 3),
      b(6, 3, [56, 50]),
    ];
    const found = traffic.flatMap((o, i) => judge.take(i + 1, o, i + 1, false));
    const once = found.filter((f) => f.ruleId === 'pagination.each-resource-once');
    expect(once.map((f) => f.seq)).toEqual([6]);
    expect(once[0]?.violation.where).toContain('limit 3, page 3');
  });

  test('a walk the client gave up counts as over: its stretch is judged without waiting for it', async () => {
    const judge = new LiveJudge<number>(allRules(await loadCatalogue()), profile, {
      ...LIMITS,
      stretchExchanges: 10_000,
    });
    judge.take(1, page(1, 1, 100), 1, false);
    let seq = 1;
    // Answers of another operation after it, each a 4xx without a message: found once the walk is given up.
    const found = [];
    for (let i = 0; i < 70; i++) {
      seq += 1;
      found.push(
        ...judge.take(
          seq,
          {
            operation: 'resources.show-teams',
            step: `resources.show-teams, exchange ${seq}`,
            request: {},
            status: 404,
            body: {},
            text: '{}',
            earlierStatuses: [],
            credential: 'other',
          },
          seq,
          false,
        ),
      );
    }
    expect(found.some((f) => f.ruleId === 'errors.message-present')).toBe(true);
  });

  /** One exchange of roles: a list-roles read of one resource, or a revocation answered 204. */
  function roles(seq: number, operation: 'list' | 'revoke', held?: Record<string, '*' | readonly string[]>): Observed {
    const resource_id = '7000000000000000002';
    const body =
      held === undefined
        ? undefined
        : Object.entries(held).map(([role_id, team_ids]) => ({ resource_id, role_id, is_assigned: true, team_ids }));
    return {
      operation: operation === 'list' ? 'resources.list-roles' : 'resources.revoke-roles',
      step: `exchange ${seq}`,
      request:
        operation === 'list'
          ? { resource_ids: [resource_id] }
          : { resource_ids: [resource_id], role_ids: ['2000000000000000005'], team_ids: '*' },
      status: operation === 'list' ? 200 : 204,
      body,
      text: body === undefined ? '' : JSON.stringify(body),
      earlierStatuses: [],
      credential: 'other',
    };
  }

  test('a revocation and the reads around it, far apart with no walk between: judged over the whole session', async () => {
    const rule = 'revoke-roles.prop.pairwise-combinations';
    const before = { '2000000000000000001': '*' as const, '2000000000000000005': ['3000000000000000001'] };
    for (const [shownAfter, verdict] of [
      // Revoked on *: held on no team (§4.1 rule 5).
      [{ '2000000000000000001': '*' as const, '2000000000000000005': [] }, 'PASS'],
      // The role revoked on * still shown on its team.
      [before, 'FAIL'],
    ] as const) {
      const judge = new LiveJudge<number>(allRules(await loadCatalogue()), profile, LIMITS);
      let seq = 0;
      judge.take(++seq, roles(seq, 'list', before), seq, false);
      // Exchanges of other kinds between: each would have ended a stretch, which judged the read alone.
      for (let i = 0; i < 30; i++) judge.take(++seq, page(seq, 1, 1), seq, false);
      judge.take(++seq, roles(seq, 'revoke'), seq, false);
      for (let i = 0; i < 30; i++) judge.take(++seq, page(seq, 1, 1), seq, false);
      const found = judge.take(++seq, roles(seq, 'list', shownAfter), seq, false);
      expect(found.some((f) => f.ruleId === rule)).toBe(verdict === 'FAIL');
      expect(judge.verdicts().find((v) => v.ruleId === rule)?.verdict).toBe(verdict);
    }
  });

  /** A resource's rates read, a rate assigned, other traffic, and the rates read again showing `after`. */
  function assignedBetween(after: ActivityRatePeriod[]): Observed[] {
    const resource = profile.mutableResources[0]?.id ?? '';
    const read = (seq: number, periods: ActivityRatePeriod[]): Observed => ({
      operation: 'resources.show-activity-rates',
      step: `resources.show-activity-rates, exchange ${seq}`,
      request: { resource_id: resource, date_range: '2026-01-01/2026-12-31' },
      status: 200,
      body: periods,
      text: JSON.stringify(periods),
      earlierStatuses: [],
      credential: 'main',
    });
    const assign: Observed = {
      operation: 'resources.assign-activity-rate',
      step: 'resources.assign-activity-rate, exchange 2',
      request: { resource_id: resource, date_range: '2026-03-02/2026-03-13', average_rate: 70 },
      status: 204,
      body: undefined,
      text: '',
      earlierStatuses: [],
      credential: 'main',
    };
    // Reads of another resource's teams between: no walk is under way, so each ends a stretch of its own.
    const others = Array.from({ length: 6 }, (_, i): Observed => ({
      operation: 'resources.show-teams',
      step: `resources.show-teams, exchange ${i + 3}`,
      request: { resource_id: '1', date_range: '2026-01-01/2026-01-31' },
      status: 200,
      body: [],
      text: '[]',
      earlierStatuses: [],
      credential: 'main',
    }));
    return [read(1, [ratePeriod('2026-01-01/2026-12-31', 40)]), assign, ...others, read(9, after)];
  }

  test('a write between two reads far apart in the traffic is judged across the stretches between them', async () => {
    const rule = 'activity-rates.prop.model-sequences';
    const lost = new LiveJudge<number>(allRules(await loadCatalogue()), profile, LIMITS);
    const found = assignedBetween([ratePeriod('2026-01-01/2026-12-31', 40)]).flatMap((o, i) =>
      lost.take(i + 1, o, i + 1, false),
    );
    // The departure is found once its stretch is judged: at the latest when the session ends.
    found.push(...lost.flush());
    expect(found.filter((f) => f.ruleId === rule).map((f) => f.violation.where)).toEqual([
      expect.stringMatching(/read by resources\.show-activity-rates, exchange 9: average_rate on 2026-03-02$/),
    ]);
    expect(new Map(lost.verdicts().map((v) => [v.ruleId, v.verdict])).get(rule)).toBe('FAIL');
    const kept = new LiveJudge<number>(allRules(await loadCatalogue()), profile, LIMITS);
    const shown = [
      ratePeriod('2026-01-01/2026-03-01', 40),
      ratePeriod('2026-03-02/2026-03-13', 70),
      ratePeriod('2026-03-14/2026-12-31', 40),
    ];
    assignedBetween(shown).forEach((o, i) => kept.take(i + 1, o, i + 1, false));
    expect(new Map(kept.verdicts().map((v) => [v.ruleId, v.verdict])).get(rule)).toBe('PASS');
  });
});
