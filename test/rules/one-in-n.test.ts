/**
 * Departures one time in N: how many judged requests see one with 95%
 * confidence, how a repeated rule spreads them over its runs, how often a
 * FAIL is driven again to confirm it, and when two attempts show the same
 * departure although they name different values.
 */
import { describe, expect, test } from 'vitest';
import { describeRepeats } from '../../src/cli/rules-command.ts';
import { confidenceOf, confirmationAttempts, repetitionsPerRun, trialsNeeded } from '../../src/rules/one-in-n.ts';
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
    // Whatever the runs, the runs together make enough.
    for (const runs of [1, 2, 7, 12, 25, 100]) {
      expect(runs * repetitionsPerRun({ judgedPerRun: 1 }, runs)).toBeGreaterThanOrEqual(trialsNeeded());
    }
  });

  test("a FAIL is driven again until the departure could repeat at that rate: once for a rule that doesn't repeat", () => {
    expect(confirmationAttempts(undefined, 10)).toBe(1);
    // Each attempt is one run of the counterexample, with its repetitions.
    expect(confirmationAttempts({ judgedPerRun: 1 }, 10)).toBe(10);
    expect(confirmationAttempts({ judgedPerRun: 1 }, 100)).toBe(29);
  });

  test('`rules` says how often and how sure', () => {
    expect(describeRepeats({ judgedPerRun: 1 }, 10)).toBe('repeats:3x, 30 judged, one-in-10 seen at 95.7%');
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
