/**
 * The judges of list answers and walks, on recorded exchanges with no
 * network: each returns the departures of its own rule's clause, nothing for
 * an answer that conforms, and nothing where no verdict can be drawn.
 */
import { describe, expect, test } from 'vitest';
import { LIST_ANSWER_JUDGES } from '../../src/rules/judges/list-answer.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { judgesOf } from '../../src/rules/judges/read-answers.ts';
import { WalkJudge } from '../../src/rules/judges/walk.ts';
import { catalogueOwners } from '../helpers/check-owners.ts';

function answer(request: unknown, status: number, body: unknown, step = 'resources.list'): Observed {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { operation: 'resources.list', step, request, status, body, text, earlierStatuses: [], credential: 'main' };
}

/** Whose each shared check is, as a run finds it: the rule whose record names it. */
const ownerOf = await catalogueOwners();

/** Which rules' judges find a departure in the exchange. */
function owners(exchange: Observed): string[] {
  return LIST_ANSWER_JUDGES.filter((j) => j.judge(exchange).length > 0).map(ownerOf);
}

const request = { kind_id: '1', pagination: { limit: 2, next_token: null } };
const r = (id: string) => ({ id });

describe('list answer judges', () => {
  test('a conforming page: no departure for any rule', () => {
    expect(owners(answer(request, 200, { data: [r('1'), r('2')], next_token: 'abc' }))).toEqual([]);
  });

  test('each departure goes to the one rule whose clause it breaks', () => {
    expect(owners(answer(request, 200, { data: [r('1')] }))).toEqual(['pagination.envelope']);
    expect(owners(answer(request, 200, { data: [r('1')], next_token: null, total_count: '3' }))).toEqual([
      'list.total-count-of-filtered-set',
    ]);
    expect(owners(answer(request, 200, { data: [r('1'), r('2'), r('3')], next_token: null }))).toEqual([
      'pagination.limit-respected',
    ]);
    const filtered = { ...request, filters: [{ key: 'resource.ids', value: ['1', '2'] }] };
    expect(owners(answer(filtered, 200, { data: [r('1'), r('9')], next_token: null }))).toEqual(['list.ids-filter']);
    expect(owners(answer(request, 400, { message: 'no' }))).toEqual(['pagination.envelope']);
  });

  test('an answer that is not JSON is the envelope’s departure, and says what came', () => {
    const exchange: Observed = { ...answer(request, 200, undefined), text: '<html>oops</html>' };
    const [envelope] = LIST_ANSWER_JUDGES;
    expect(envelope?.judge(exchange)).toEqual([
      expect.objectContaining({ where: 'resources.list: response.body', actual: '<html>oops</html>' }),
    ]);
  });

  test('401, 429 and 5xx draw no verdict from any judge', () => {
    for (const status of [401, 429, 500, 502, 503])
      expect(owners(answer(request, status, { message: 'x' }))).toEqual([]);
  });

  test('a request without a numeric limit or an ids filter leaves those judges silent', () => {
    const unlimited = { kind_id: '1', pagination: { limit: null, next_token: null } };
    expect(owners(answer(unlimited, 200, { data: [r('1'), r('2'), r('3')], next_token: null }))).toEqual([]);
  });
});

describe('the walk judge', () => {
  const page = (ids: string[], next: string | null) => answer(request, 200, { data: ids.map(r), next_token: next });

  test('a walk that moves forward: nothing', () => {
    const judge = new WalkJudge();
    expect(judge.page(page(['1', '2'], 't1'), 0, 'limit 2')).toEqual([]);
    expect(judge.page(page(['3', '4'], 't2'), 1, 'limit 2')).toEqual([]);
    expect(judge.page(page([], null), 2, 'limit 2')).toEqual([]);
  });

  test('a resource again on a later page names the page it was first on', () => {
    const judge = new WalkJudge();
    judge.page(page(['1', '2'], 't1'), 0, 'limit 2');
    expect(judge.page(page(['2', '3'], 't2'), 1, 'limit 2')).toEqual([
      {
        where: 'limit 2, page 2',
        message: 'must not repeat a resource already returned on an earlier page',
        expected: 'resource 2 once',
        actual: 'again (first on page 1)',
      },
    ]);
  });

  test('a token that comes back is a departure', () => {
    const judge = new WalkJudge();
    judge.page(page(['1', '2'], 't1'), 0, 'limit 2');
    expect(judge.page(page(['3', '4'], 't1'), 1, 'limit 2')).toEqual([
      expect.objectContaining({ where: 'limit 2, page 2.next_token', actual: 't1' }),
    ]);
  });
});

describe('read answer judges', () => {
  const read = (operation: string, status: number, body: unknown): Observed => ({
    operation,
    step: operation,
    request: {},
    status,
    body,
    text: JSON.stringify(body),
    earlierStatuses: [],
    credential: 'main',
  });
  const ownersOf = (o: Observed): string[] =>
    judgesOf(o.operation)
      .filter((j) => j.judge(o).length > 0)
      .map(ownerOf);

  test('list-roles: an envelope is the plain-array rule’s departure, a bad association the shape rule’s', () => {
    expect(ownersOf(read('resources.list-roles', 200, []))).toEqual([]);
    expect(ownersOf(read('resources.list-roles', 200, { data: [] }))).toEqual(['list-roles.plain-array']);
    expect(ownersOf(read('resources.list-roles', 200, [{ resource_id: 1 }]))).toEqual(['list-roles.association-shape']);
  });

  test('show-teams and show-activity-rates: a body off its schema is the shape rule’s departure', () => {
    expect(ownersOf(read('resources.show-teams', 200, []))).toEqual([]);
    expect(ownersOf(read('resources.show-teams', 200, [{ team: 'x' }]))).toEqual(['show-teams.response-shape']);
    expect(ownersOf(read('resources.show-activity-rates', 200, {}))).toEqual(['show-activity-rates.response-shape']);
    expect(ownersOf(read('resources.show-activity-rates', 404, { message: 'no' }))).toEqual([
      'show-activity-rates.response-shape',
    ]);
  });

  test('401, 429 and 5xx draw no verdict', () => {
    for (const status of [401, 429, 500, 503]) {
      expect(ownersOf(read('resources.show-teams', status, { message: 'x' }))).toEqual([]);
      expect(ownersOf(read('resources.list-roles', status, { message: 'x' }))).toEqual([]);
    }
  });
});
