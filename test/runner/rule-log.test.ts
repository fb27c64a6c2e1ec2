/**
 * The engine folds each exchange into the rule's judge as it comes
 * (src/runner/rule-log.ts), one exchange late, so what came before an answer
 * that showed another rule's departure can still be judged alone; a
 * property's runs are judged one at a time.
 */
import { describe, expect, test } from 'vitest';
import type { ApiResponse, Exchange } from '../../src/core/exchange.ts';
import { fold, ofLog, type Judge } from '../../src/rules/judges/fold.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { ExchangeLog } from '../../src/runner/rule-log.ts';
import type { TargetProfile } from '../../src/target/profile.ts';

const PROFILE: TargetProfile = { kinds: [], roles: [], teams: [], mutableResources: [] };

function answered(step: string): { exchange: Exchange; answer: ApiResponse } {
  const exchange = {
    operation: 'resources.list',
    step,
    request: { method: 'POST' as const, url: 'http://127.0.0.1/x', headers: {}, body: '{}' },
    response: { status: 200, headers: {}, body: '{}', truncated: false },
    durationMs: 1,
    attempts: 1,
  };
  return { exchange, answer: { status: 200, headers: {}, text: '{}', json: {}, exchange } };
}

/** A judge that says which steps it took in, and tells the test each step as the fold takes it. */
function stepsJudge(taken: string[]): Judge {
  return fold<string[]>({
    initial: () => [],
    step(steps, o) {
      taken.push(o.step);
      steps.push(o.step);
      return steps;
    },
    end: (steps) => steps.map((s) => ({ where: s, message: 'seen', expected: null, actual: null })),
  });
}

const wheres = (j: unknown): unknown => (Array.isArray(j) ? j.map((v: { where: string }) => v.where) : j);

describe("an example rule's log", () => {
  test('each exchange is folded as it comes, one late, and every one by the end', () => {
    const taken: string[] = [];
    const log = new ExchangeLog({ judge: stepsJudge(taken), judges: 'whole log' }, PROFILE);
    for (const step of ['a', 'b', 'c']) {
      const { exchange, answer } = answered(step);
      log.add(exchange, answer);
    }
    expect(taken).toEqual(['a', 'b']);
    expect(wheres(log.end())).toEqual(['a', 'b', 'c']);
  });

  test('what came before the answer that showed another rule’s departure is judged alone', () => {
    const log = new ExchangeLog({ judge: stepsJudge([]), judges: 'whole log' }, PROFILE);
    const heard: Array<readonly Observed[]> = [];
    const listened = new ExchangeLog({ judge: stepsJudge([]), judges: 'whole log' }, PROFILE, (evidence) =>
      heard.push(evidence),
    );
    for (const l of [log, listened]) {
      for (const step of ['a', 'b', 'shows another rule’s departure']) {
        const { exchange, answer } = answered(step);
        l.add(exchange, answer);
      }
      l.found();
      const { exchange, answer } = answered('after');
      l.add(exchange, answer);
      expect(wheres(l.before()?.judgement)).toEqual(['a', 'b']);
    }
    listened.before()?.report();
    expect(heard.map((e) => e.map((o) => o.step))).toEqual([['a', 'b']]);
  });

  test('a judge of the whole log reads every exchange, and the evidence is heard when someone listens', () => {
    const heard: Array<readonly Observed[]> = [];
    const judge = ofLog((all) => all.map((o) => ({ where: o.step, message: 'seen', expected: null, actual: null })));
    const log = new ExchangeLog({ judge, judges: 'whole log' }, PROFILE, (evidence) => heard.push(evidence));
    for (const step of ['a', 'b']) {
      const { exchange, answer } = answered(step);
      log.add(exchange, answer);
    }
    expect(wheres(log.end())).toEqual(['a', 'b']);
    expect(heard.map((e) => e.map((o) => o.step))).toEqual([['a', 'b']]);
  });
});

describe("a property's log", () => {
  test('each run is judged alone, its exchanges tagged with its number; none outside a run', () => {
    const log = new ExchangeLog({ judge: stepsJudge([]), judges: 'each run' }, PROFILE);
    const before = answered('before the runs');
    log.add(before.exchange, before.answer);
    const judged: unknown[] = [];
    for (const run of [['a', 'b'], ['c']]) {
      log.startRun();
      for (const step of run) {
        const { exchange, answer } = answered(step);
        log.add(exchange, answer);
        expect(exchange.run).toBe(judged.length + 1);
      }
      judged.push(wheres(log.endRun()));
      log.dropRun();
    }
    expect(judged).toEqual([['a', 'b'], ['c']]);
    expect(before.exchange.run).toBeUndefined();
  });
});
