import { describe, expect, test } from 'vitest';
import { embeddedTiming } from '../../src/core/timing.ts';
import type { ApiResponse } from '../../src/client/directory-client.ts';
import type { AnsweredExchange, Exchange } from '../../src/core/exchange.ts';
import { startReferenceServer, type FaultName } from '../../src/reference-server/index.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import type { NeedEnv, Provisions } from '../../src/rules/needs.ts';
import type { BaseCheckContext, ErrorAnswersSeen } from '../../src/rules/types.ts';
import { judgeLog } from '../../src/rules/judges/fold.ts';
import { ErrorAnswers } from '../../src/runner/error-answers.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

const SILENT = '{"field":"x"}';
const SPOKEN = '{"message":"no"}';

const REQUEST = {
  method: 'POST',
  url: 'http://127.0.0.1/api/directory/resources.list',
  headers: {},
  body: '{}',
} as const;

function exchange(status: number, body = SPOKEN): AnsweredExchange {
  return {
    operation: 'resources.list',
    request: { ...REQUEST },
    response: { status, headers: {}, body, truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

function failed(): Exchange {
  return {
    operation: 'resources.list',
    request: { ...REQUEST },
    error: { code: 'DC_ERR_NETWORK', message: 'reset' },
    durationMs: 1,
    attempts: 1,
  };
}

describe('the error answers of a run', () => {
  test('keeps every 4xx but 429, and nothing else', () => {
    const answers = new ErrorAnswers();
    for (const status of [200, 204, 400, 401, 404, 422, 429, 500, 503]) answers.add('r', exchange(status));
    answers.add('r', failed());
    expect(answers.seen().kept.map((a) => a.exchange.response.status)).toEqual([400, 401, 404, 422]);
  });

  test('past its cap keeps only the answers without a message and counts those with one', () => {
    const answers = new ErrorAnswers(2);
    for (let i = 0; i < 6; i++) answers.add(`r${i}`, exchange(422, i % 2 === 0 ? SPOKEN : SILENT));
    expect(answers.seen()).toMatchObject({ withMessageNotKept: 2, withoutMessageNotKept: 0 });
    expect(answers.seen().kept.map((a) => a.ruleId)).toEqual(['r0', 'r1', 'r3', 'r5']);
  });

  test('read by a judge, a body the transcript cut short is left out', () => {
    const answers = new ErrorAnswers();
    answers.add('r', { ...exchange(400), step: 'whole' });
    const cut = exchange(400, '{"mess');
    answers.add('r', { ...cut, response: { ...cut.response, truncated: true } });
    expect(answers.observed().map((o) => [o.step, o.status, o.text])).toEqual([['whole', 400, SPOKEN]]);
  });

  test('past its second cap only counts, so memory stays bounded', () => {
    const answers = new ErrorAnswers(2);
    for (let i = 0; i < 7; i++) answers.add(`r${i}`, exchange(422, SILENT));
    expect(answers.seen().kept).toHaveLength(4);
    expect(answers.seen()).toMatchObject({ withMessageNotKept: 0, withoutMessageNotKept: 3 });
  });
});

const CATALOGUE = await loadCatalogue();
const MESSAGE_PRESENT = allRules(CATALOGUE).find((r) => r.id === 'errors.message-present')!;

/** A check context whose server answers every request 422 with a message, and whose run received `seen`. */
const PROFILE = { kinds: [{ id: '1', name: 'k', supportsRoles: false }], roles: [], teams: [], mutableResources: [] };
/** errors.message-present needs nothing of the target. */
const NO_NEEDS: NeedEnv = { profile: PROFILE, allowMutations: false, restricted: undefined };

function contextWith(seen: ErrorAnswersSeen, observations: Record<string, unknown>): BaseCheckContext & Provisions {
  const res: ApiResponse = {
    status: 422,
    headers: {},
    text: SPOKEN,
    json: JSON.parse(SPOKEN) as unknown,
    exchange: exchange(422),
  };
  const client = { post: () => Promise.resolve(res), postRaw: () => Promise.resolve(res) };
  const ctx = {
    ruleId: MESSAGE_PRESENT.id,
    client,
    anonymous: client,
    profile: PROFILE,
    observe: (subject: string, value: unknown) => (observations[subject] = value),
    errorAnswers: () => seen,
  };
  return ctx as unknown as BaseCheckContext & Provisions;
}

describe('errors.message-present judges every 4xx of the run', () => {
  const judge = (answers: ErrorAnswers) => {
    if (!MESSAGE_PRESENT.judge) throw new Error('errors.message-present has no judge');
    return judgeLog(MESSAGE_PRESENT.judge, answers.observed(), PROFILE);
  };

  test('its judge reads the kept answers: each one without a message is a violation naming it and its request', () => {
    const answers = new ErrorAnswers();
    answers.add('r', { ...exchange(404, SILENT), step: 'an unknown id' });
    answers.add('r', exchange(400, SILENT));
    answers.add('r', exchange(422));
    expect(judge(answers)).toEqual([
      expect.objectContaining({
        where: 'resources.list answered 404 (to an unknown id)',
        message: 'must contain a message describing the problem (2 of 3 error answers have none)',
        actual: SILENT,
      }),
      expect.objectContaining({ where: 'resources.list answered 400' }),
    ]);
  });

  test('a §4.3 warning is not an error, and no 4xx at all is no evidence', () => {
    const warning = new ErrorAnswers();
    warning.add('r', {
      ...exchange(409, '{"warning_type":"assign-conflicting-resource-teams"}'),
      operation: 'resources.assign-team',
    });
    expect(judge(warning)).toEqual({ noEvidence: 'no request of the run was answered with a 4xx' });
    const spoken = new ErrorAnswers();
    spoken.add('r', exchange(400));
    expect(judge(spoken)).toEqual([]);
  });

  test('its driver records how many 4xx the run had, those counted past the caps included', async () => {
    const observations: Record<string, unknown> = {};
    const kept = [{ ruleId: 'r', exchange: exchange(422) }];
    await MESSAGE_PRESENT.check(
      contextWith({ kept, withMessageNotKept: 7, withoutMessageNotKept: 3 }, observations),
      NO_NEEDS,
    );
    expect(observations['4xx answers of the run']).toBe(11);
    expect(observations['4xx answers counted past the kept ones']).toEqual({ withMessage: 7, withoutMessage: 3 });
  });
});

describe('errors.message-present without a kind to list', () => {
  const run = async (faults: FaultName[]) => {
    const server = await startReferenceServer({ timing: embeddedTiming(), resources: 40, faults });
    try {
      // No kind named: the rule provokes its refusals with show-teams for a resource of the profile.
      const profile = { ...server.profile, kinds: [], listKindId: undefined };
      const result = await runRules(
        CATALOGUE.map((g) => ({ ...g, rules: g.rules.filter((r) => r.id === MESSAGE_PRESENT.id) })).filter(
          (g) => g.rules.length > 0,
        ),
        { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile, timing: server.timing },
        DEFAULT_ENGINE_OPTIONS,
      );
      return result.results[0]!;
    } finally {
      await server.close();
    }
  };

  test('still runs and judges the refusals it provoked', async () => {
    const result = await run([]);
    expect(result.verdict).toBe('PASS');
    expect(result.exchanges.map((e) => e.operation)).toContain('resources.show-teams');
  });

  test('and fails a server whose 400 has no message', async () => {
    const result = await run(['errors-400-without-message']);
    expect(result.verdict).toBe('FAIL');
    expect(result.violations[0]!.where).toContain('resources.show-teams answered 400');
  });
});
