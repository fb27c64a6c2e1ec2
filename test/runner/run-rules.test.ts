import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HarnessError } from '../../src/core/errors.ts';
import { defineRuleGroup, rule } from '../../src/rules/define.ts';
import type { RuleResult } from '../../src/core/types.ts';
import type { Rule } from '../../src/rules/types.ts';
import { expectSuccess, fail, owned, precondition } from '../../src/rules/assertions.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules, type EngineOptions } from '../../src/runner/run-rules.ts';
import type { TargetProfile } from '../../src/target/profile.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';

const KEY = 'engine-test-key-abcdef123456';
const profile: TargetProfile = {
  kinds: [{ id: '1', name: 'employee', supportsRoles: true }],
  roles: [],
  teams: [],
  allowRoleRevocation: true,
  mutableResources: [
    { id: '10', kindId: '1' },
    { id: '11', kindId: '1' },
  ],
};
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.url?.endsWith('resources.show-teams')) return json(res, 500, { message: `oops ${KEY}` });
    if (req.url?.endsWith('resources.list-roles')) return json(res, 404, { message: 'unknown resource' });
    json(res, 200, { data: [], next_token: null });
  });
});
afterAll(() => server.close());

async function run(rules: Rule[], options: Partial<EngineOptions> = {}): Promise<Record<string, RuleResult>> {
  const group = { file: 'test', ...defineRuleGroup({ section: '§0', title: 'engine test', rules }) };
  const result = await runRules(
    [group],
    { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: KEY, profile },
    { ...DEFAULT_ENGINE_OPTIONS, ...options },
  );
  expect(JSON.stringify(result)).not.toContain(KEY);
  return Object.fromEntries(result.results.map((r) => [r.ruleId, r]));
}

const base = { clause: '§4.9 rule 1', quote: 'a sentence long enough', level: 'MUST' as const };

describe('engine verdicts', () => {
  test('PASS, FAIL, ERROR, SKIP, OBSERVED and NOT-TESTED are told apart', async () => {
    const results = await run(
      [
        rule({
          ...base,
          id: 't.pass',
          judge: () => [],
          drive: async (ctx) =>
            expectSuccess(await ctx.client.postRaw('resources.list', { json: {} }), { step: 'list' }),
        }),
        rule({
          ...base,
          id: 't.fail',
          judge: () => [],
          drive: async () => fail({ where: 'response.status', message: 'must be 204', expected: 204, actual: 200 }),
        }),
        rule({
          ...base,
          id: 't.server-error',
          judge: () => [],
          drive: async (ctx) =>
            expectSuccess(await ctx.client.postRaw('resources.show-teams', { json: {} }), { step: 'show-teams' }),
        }),
        rule({ ...base, id: 't.bug', judge: () => [], drive: () => Promise.reject(new TypeError('x is undefined')) }),
        rule({ ...base, id: 't.needs', needs: ['restrictedKey'], judge: () => [], drive: () => Promise.resolve() }),
        rule({
          ...base,
          id: 't.precondition',
          judge: () => [],
          drive: () => Promise.reject(new HarnessError('DC_ERR_PRECONDITION', 'no data')),
        }),
        rule({
          ...base,
          id: 't.observed',
          level: 'OBSERVED',
          judge: () => [],
          drive: async (ctx) => {
            ctx.observe('status', 200);
            fail({ where: 'x', message: 'must not matter for an open point' });
          },
        }),
        rule({
          ...base,
          id: 't.budget',
          judge: () => [],
          drive: () => Promise.reject(new HarnessError('DC_ERR_BUDGET', 'spent')),
        }),
      ],
      { concurrency: 3 },
    );
    expect(results['t.pass']!.verdict).toBe('PASS');
    expect(results['t.pass']!.requestCount).toBe(1);
    expect(results['t.fail']!.verdict).toBe('FAIL');
    expect(results['t.fail']!.violations[0]).toMatchObject({ where: 'response.status', expected: 204, actual: 200 });
    expect(results['t.server-error']!).toMatchObject({ verdict: 'ERROR', errorCode: 'DC_ERR_SERVER_5XX' });
    expect(results['t.bug']!).toMatchObject({ verdict: 'ERROR', errorCode: 'DC_ERR_HARNESS' });
    expect(results['t.needs']!.verdict).toBe('SKIP');
    expect(results['t.needs']!.reason).toMatch(/restricted/);
    expect(results['t.precondition']!).toMatchObject({ verdict: 'SKIP', reason: 'no data' });
    expect(results['t.observed']!.verdict).toBe('OBSERVED');
    expect(results['t.observed']!.observations.map((o) => o.subject)).toContain('status');
    expect(results['t.budget']!.verdict).toBe('NOT-TESTED');
  });

  test('mutating rules are skipped in read-only runs and without permission', async () => {
    const mutating = rule({
      ...base,
      id: 't.mutates',
      mutates: 'reversible',
      judge: () => [],
      drive: () => Promise.resolve(),
    });
    expect((await run([mutating], { readOnly: true, allowMutations: true }))['t.mutates']!.verdict).toBe('SKIP');
    expect((await run([mutating], { allowMutations: false }))['t.mutates']!).toMatchObject({
      reason: expect.stringMatching(/allow-mutations/) as unknown,
      skipCause: 'options',
    });
    expect((await run([mutating], { readOnly: true, allowMutations: true }))['t.mutates']!.skipCause).toBe('options');
    const needsKey = rule({
      ...base,
      id: 't.needs-key',
      needs: ['restrictedKey'],
      judge: () => [],
      drive: () => Promise.resolve(),
    });
    expect((await run([needsKey]))['t.needs-key']!.skipCause).toBe('profile');
    expect((await run([mutating], { allowMutations: true }))['t.mutates']!.verdict).toBe('PASS');
  });

  test('a check that ignores its abort signal is still stopped at its deadline, as an ERROR', async () => {
    const deaf = rule({ ...base, id: 't.deaf', judge: () => [], drive: () => new Promise<void>(() => undefined) });
    // Without the engine's own deadline this run would never end (the check never settles).
    const results = await run([deaf], { ruleTimeoutMs: 50 });
    expect(results['t.deaf']!).toMatchObject({ verdict: 'ERROR', errorCode: 'DC_ERR_TIMEOUT' });
  });

  test('a rule that outlives its deadline is an ERROR with a timeout code', async () => {
    const slow = rule({
      ...base,
      id: 't.slow',
      judge: () => [],
      drive: (ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new HarnessError('DC_ERR_ABORTED', 'aborted'))),
        ),
    });
    expect((await run([slow], { ruleTimeoutMs: 50 }))['t.slow']!).toMatchObject({
      verdict: 'ERROR',
      errorCode: 'DC_ERR_TIMEOUT',
    });
  });

  test('side-by-side rules never hold the same mutable resource; one that finds none free waits for it', async () => {
    const held: Array<[string, string]> = [];
    const inUse = new Set<string>();
    let overlap = false;
    const make = (id: string): Rule =>
      rule({
        ...base,
        id,
        mutates: 'reversible',
        judge: () => [],
        drive: async (ctx) => {
          const r = await ctx.claimResource();
          held.push([id, r ?? 'none']);
          if (r && inUse.has(r)) overlap = true;
          if (r) inUse.add(r);
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (r) inUse.delete(r);
        },
      });
    // Three rules, two resources, all at once: the third waits for one to come back instead of being skipped.
    const results = await run([make('t.a'), make('t.b'), make('t.c')], { concurrency: 3, allowMutations: true });
    expect(overlap).toBe(false);
    expect(held.filter(([, r]) => r === 'none')).toEqual([]);
    expect(Object.values(results).map((r) => r.verdict)).toEqual(['PASS', 'PASS', 'PASS']);
  });

  test('waiting for a resource does not count against the rule deadline', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const holder = rule({
      ...base,
      id: 't.holder',
      mutates: 'reversible',
      judge: () => [],
      drive: async (ctx) => {
        await ctx.claimResource((id) => id === '10');
        await sleep(800);
      },
    });
    // 300 ms of its own, ~500 ms waiting, 300 ms of its own: 1.1 s in all, 0.6 s against a 1 s deadline.
    const waiter = rule({
      ...base,
      id: 't.waiter',
      mutates: 'reversible',
      judge: () => [],
      drive: async (ctx) => {
        await sleep(300);
        const r = await ctx.claimResource((id) => id === '10');
        if (r !== '10') fail({ where: 'claim', message: 'must get the resource', actual: r });
        await sleep(300);
      },
    });
    const results = await run([holder, waiter], { concurrency: 2, allowMutations: true, ruleTimeoutMs: 1000 });
    expect(results['t.holder']!.verdict).toBe('PASS');
    expect(results['t.waiter']!.verdict).toBe('PASS');
  });

  test('irreversible rules run last, one at a time, taking fresh resources before ones already revoked', async () => {
    const order: string[] = [];
    let running = 0;
    let sideBySide = false;
    const make = (id: string, mutates: Rule['mutates']): Rule =>
      rule({
        ...base,
        id,
        mutates,
        judge: () => [],
        drive: async (ctx) => {
          running += 1;
          if (mutates === 'irreversible' && running > 1) sideBySide = true;
          const r = await ctx.claimResource();
          order.push(`${id}:${r ?? 'none'}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
          running -= 1;
        },
      });
    const results = await run(
      [
        make('t.i1', 'irreversible'),
        make('t.i2', 'irreversible'),
        make('t.i3', 'irreversible'),
        make('t.r', 'reversible'),
      ],
      { concurrency: 4, allowMutations: true },
    );
    expect(sideBySide).toBe(false);
    // The reversible rule is not starved by the irreversible ones listed before it. It hands 10 back
    // restored, first in line; the irreversible ones take 10, then 11 (still fresh), then 10 again.
    expect(order).toEqual(['t.r:10', 't.i1:10', 't.i2:11', 't.i3:10']);
    expect(Object.values(results).every((r) => r.verdict === 'PASS')).toBe(true);
  });

  test('a FAIL is driven again before it is reported; one that cannot be undone, on another resource', async () => {
    const claimed: Record<string, Array<string | undefined>> = {};
    const failing = (id: string, mutates: 'none' | 'irreversible') =>
      rule({
        ...base,
        id,
        mutates,
        judge: () => [],
        drive: async (ctx) => {
          (claimed[id] ??= []).push(mutates === 'irreversible' ? await ctx.claimResource() : undefined);
          fail({ where: 'x', message: 'must hold' });
        },
      });
    const results = await run([failing('t.reads', 'none'), failing('t.revokes', 'irreversible')], {
      allowMutations: true,
    });
    expect(claimed).toEqual({ 't.reads': [undefined, undefined], 't.revokes': ['10', '11'] });
    expect(results['t.reads']).toMatchObject({ verdict: 'FAIL', confirmed: true });
    expect(results['t.revokes']).toMatchObject({ verdict: 'FAIL', confirmed: true });
  });

  test('a FAIL that cannot be undone, with no resource left that suits the rule, is FLAKY: it could not be driven again', async () => {
    // Each resource the rule has changed no longer suits it; its first attempt changes both.
    const changed = new Set<string>();
    const results = await run(
      [
        rule({
          ...base,
          id: 't.revokes-all',
          mutates: 'irreversible',
          judge: () => [],
          drive: async (ctx) => {
            for (;;) {
              const id = await ctx.claimResource((resourceId) => !changed.has(resourceId));
              precondition(id, 'no resource holds what the rule needs');
              changed.add(id);
              if (changed.size === ctx.profile.mutableResources.length) break;
            }
            fail({ where: 'x', message: 'must hold' });
          },
        }),
      ],
      { allowMutations: true },
    );
    expect(results['t.revokes-all']).toMatchObject({ verdict: 'FLAKY' });
    expect(results['t.revokes-all']?.reason).toMatch(
      /could not be driven again.*no resource holds what the rule needs/,
    );
  });

  test('a rule SKIPped for a precondition or a blocking step says why, once, with its cause', async () => {
    const results = await run([
      rule({
        ...base,
        id: 't.blocked',
        judge: () => [],
        drive: async (ctx) =>
          owned(ctx, 'list-roles.plain-array', () => fail({ where: 'list-roles', message: 'must be a plain array' })),
      }),
      rule({
        ...base,
        id: 't.no-data',
        judge: () => [],
        drive: () => Promise.reject(new HarnessError('DC_ERR_PRECONDITION', 'no data')),
      }),
    ]);
    expect(results['t.blocked']).toMatchObject({
      verdict: 'SKIP',
      skipCause: 'blocked',
      blockedBy: 'list-roles.plain-array',
      reason: 'blocked by list-roles.plain-array: list-roles: must be a plain array',
    });
    expect(results['t.no-data']).toMatchObject({ verdict: 'SKIP', skipCause: 'precondition' });
    // The owner was not selected: it FAILs all the same, with the departure the blocked rule saw.
    expect(results['list-roles.plain-array']).toMatchObject({
      verdict: 'FAIL',
      selected: false,
      violations: [{ where: 'list-roles', message: 'must be a plain array', foundBy: 't.blocked' }],
    });
  });

  test('a rule that judges the error answers of the run starts after every other rule and sees each 4xx', async () => {
    const seen: string[][] = [];
    const askers = ['t.ask-1', 't.ask-2', 't.ask-3', 't.ask-4', 't.ask-5'].map((id) =>
      rule({
        ...base,
        id,
        judge: () => [],
        drive: async (ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          await ctx.client.post('resources.list-roles', { resource_ids: [id] });
          await ctx.client.postRaw('resources.list', { json: {} });
        },
      }),
    );
    const judge = rule({
      ...base,
      id: 't.judge',
      judges: 'error answers of the run',
      judge: () => [],
      drive: (ctx) => {
        seen.push(ctx.errorAnswers().kept.map((a) => `${a.ruleId} ${a.exchange.response.status}`));
        return Promise.resolve();
      },
    });
    // Listed first, with room to run beside the others: it must still wait for them.
    const results = await run([judge, ...askers], { concurrency: 8 });
    expect(results['t.judge']!.verdict).toBe('PASS');
    expect(seen.map((answers) => [...answers].sort())).toEqual([askers.map((r) => `${r.id} 404`).sort()]);
  });

  test("a driven rule that judges the error answers of the run has its judge read them, every rule's, not its own log", async () => {
    const askers = ['t.ask-1', 't.ask-2'].map((id) =>
      rule({
        ...base,
        id,
        judge: () => [],
        drive: async (ctx) => {
          await ctx.client.post('resources.list-roles', { resource_ids: [id] }, { step: `asked by ${id}` });
        },
      }),
    );
    const judge = rule({
      ...base,
      id: 't.judge',
      judges: 'error answers of the run',
      // Its own request is answered 200: the error answers it judges are the other rules'.
      drive: async (ctx) => {
        await ctx.client.postRaw('resources.list', { json: {} }, { step: 'its own request' });
      },
      judge: (log) =>
        log.length === 0
          ? { noEvidence: 'no error answer' }
          : log.map((o) => ({
              where: `${o.step}: ${o.status}`,
              message: 'must be seen',
              expected: 'seen',
              actual: o.text,
            })),
    });
    const results = await run([judge, ...askers], { concurrency: 4 });
    expect(results['t.judge']!.verdict).toBe('FAIL');
    expect(results['t.judge']!.violations.map((v) => v.where).sort()).toEqual([
      'asked by t.ask-1: 404',
      'asked by t.ask-2: 404',
    ]);
  });
});
