/**
 * Departures one time in N: how many judged requests see one with 95%
 * confidence, how a repeated rule spreads them over its runs, what `rules`
 * says of it, and when two attempts show the same departure although they
 * name different values.
 */
import { describe, expect, test } from 'vitest';
import { describeRepeats } from '../../src/cli/rules-command.ts';
import { confidenceOf, repetitionsPerRun, trialsNeeded } from '../../src/rules/one-in-n.ts';
import { sameDeparture } from '../../src/runner/same-departure.ts';

describe('one time in ten, with 95% confidence', () => {
  test('29 judged requests see it, 28 do not quite', () => {
    expect(trialsNeeded()).toBe(29);
    expect(confidenceOf(29)).toBeGreaterThanOrEqual(0.95);
    expect(confidenceOf(28)).toBeLessThan(0.95);
    expect(trialsNeeded(5, 0.95)).toBe(14);
  });

  test('a repeated rule spreads them over its runs; a rule that does not repeat sends once', () => {
    expect(repetitionsPerRun(undefined, 10)).toBe(1);
    expect(repetitionsPerRun({ judgedPerRun: 1 }, 10)).toBe(3);
    expect(repetitionsPerRun({ judgedPerRun: 1 }, 8)).toBe(4);
    expect(repetitionsPerRun({ judgedPerRun: 1 }, 40)).toBe(1);
    expect(repetitionsPerRun({ judgedPerRun: 3 }, 5)).toBe(2);
    // A quick look sends each run's judged request once: it fits a rate-limited bucket, and may miss one in ten.
    expect(repetitionsPerRun({ judgedPerRun: 1 }, 3, 'quick')).toBe(1);
    expect(repetitionsPerRun({ judgedPerRun: 1 }, 3, 'deep')).toBe(10);
    // Whatever the runs, the runs together make enough.
    for (const runs of [1, 2, 7, 12, 25, 100]) {
      expect(runs * repetitionsPerRun({ judgedPerRun: 1 }, runs)).toBeGreaterThanOrEqual(trialsNeeded());
    }
  });

  test('`rules` says how often and how sure', () => {
    expect(describeRepeats({ judgedPerRun: 1 }, 10)).toBe(
      'repeats:3x, 30 judged, one-in-10 seen at 95.7%; a FAIL confirmed by its rate: ' +
        'FAIL at 1 in 10 or more, FLAKY at 1 in 90 or less (false FAIL 0.1%, within 290 judged)',
    );
    expect(describeRepeats({ judgedPerRun: 1 }, 3, 'quick')).toMatch(/^repeats:1x, 3 judged, one-in-10 seen at 27%; /);
  });
});

describe('the same departure, whatever value the attempt names', () => {
  const at = (value: string) => ({
    where: `counterexample ${value}: limit ${value}: response.status`,
    message: `must reject limit ${value} with a 4xx status (answers: 200)`,
  });

  test("a counterexample's value in the place and the message is aside", () => {
    expect(sameDeparture([at('{}')], [at('true')], { first: '{}', again: 'true' })).toBe(true);
  });

  test('another place is another departure', () => {
    const elsewhere = { where: 'counterexample true: limit true: response.body', message: 'must be JSON' };
    expect(sameDeparture([at('{}')], [elsewhere], { first: '{}', again: 'true' })).toBe(false);
  });
});

describe('the same departure of a repeated judged request, whatever value its step names', () => {
  const tampered = (name: string, answers: number) => ({
    where: `a next_token altered by "${name}": response.status`,
    message: `must reject a next_token altered by "${name}" with 422 (answers: ${answers})`,
  });

  test('a value shrinking tried beside the counterexample departs the same way', () => {
    const first = [tampered('base64 offset 334', 400)];
    expect(sameDeparture(first, [tampered('base64 offset 12', 400)])).toBe(false);
    expect(sameDeparture(first, [tampered('base64 offset 12', 400)], {}, { anyValue: true })).toBe(true);
  });

  test('another field of the judged request is another departure', () => {
    const body = { where: 'a next_token altered by "flip": response.body', message: 'must be JSON' };
    expect(sameDeparture([tampered('flip', 400)], [body], {}, { anyValue: true })).toBe(false);
  });
});

describe('the same departure, driven again on another resource', () => {
  const after = (command: string, field: string) => ({
    where: `list-roles after revoke(${command}): role 2000000000000000003${field}`,
    message: 'must show the roles and teams §4.1 leaves after the revocations so far',
  });

  test('a drawn sequence shows it after another command: the command’s arguments are aside', () => {
    const first = [after('roles [2], team_ids [0] of those held', '.team_ids')];
    const again = [after('roles [0], team_ids [0] of those held', '.team_ids')];
    expect(sameDeparture(first, again)).toBe(false);
    expect(sameDeparture(first, again, {}, { anotherResource: true })).toBe(true);
  });

  test('another kind of difference is another departure', () => {
    const first = [after('roles [2], team_ids *', '.team_ids')];
    expect(sameDeparture(first, [after('roles [2], team_ids *', '')], {}, { anotherResource: true })).toBe(false);
  });
});
