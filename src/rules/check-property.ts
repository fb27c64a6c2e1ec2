/**
 * The one way properties run against a target: fast-check with the run's
 * seed, numRuns and path, so a failure replays with `--seed S --path P`.
 * A departure is shrunk to a minimal counterexample; a harness fault (or a
 * departure from another rule's clause, which a shared step has reported to
 * its owner) stops the exploration at once and is rethrown as it is, never
 * shrunk and never reported as this rule's failure.
 */
import fc from 'fast-check';
import { HarnessError, isHarnessError } from '../core/errors.ts';
import { ConformanceFailure, isConformanceFailure } from '../core/errors.ts';
import type { CheckContext } from './types.ts';

export interface PropertyOptions<T> {
  /**
   * The answer to a value depends only on the value (no state carried between
   * runs): a value already checked and passed is not sent again, and another
   * is drawn in its place (the run is discarded, as `fc.pre` discards one),
   * so every run the rule counts on is made with a new value (a rule that
   * repeats its judged request reaches its count, src/rules/one-in-n.ts). A
   * domain with fewer values than runs ends once each has passed.
   */
  distinct?: boolean;
  /**
   * Values every run checks first, one of each class the property is about,
   * so a run with few runs never leaves a class to chance; they count
   * against the runs, the rest are drawn at random. A run with `drawnOnly`
   * leaves them out.
   */
  examples?: readonly T[];
}

export async function checkProperty<T>(
  ctx: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<void> {
  let interruption: unknown;
  const passed = new Set<string>();
  /** Values drawn again after they passed, each discarded for a new one. */
  let drawnAgain = 0;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (interruption === undefined && ctx.options.interrupt?.aborted) {
      interruption = new HarnessError('DC_ERR_INTERRUPTED', 'the run was interrupted before the property had its runs');
    }
    if (interruption !== undefined) return;
    const key = options.distinct ? fc.stringify(value) : undefined;
    if (key !== undefined && passed.has(key)) {
      drawnAgain += 1;
      fc.pre(false);
    }
    try {
      await predicate(value);
      if (key !== undefined) passed.add(key);
    } catch (error) {
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      // Only a departure from this rule's own clause is shrunk: a harness fault, or another rule's
      // departure that a shared step reported (DepartureOfAnotherRule), stops the exploration as it is.
      if (isHarnessError(error) || !isConformanceFailure(error)) {
        interruption = error;
        return;
      }
      throw error;
    }
  });
  const path = ctx.options.path;
  const details = await fc.check(property, {
    seed: ctx.options.seed,
    numRuns: ctx.options.numRuns,
    // Left out when the run measures what drawn runs alone find.
    ...(options.examples && !ctx.options.drawnOnly ? { examples: options.examples.map((e): [T] => [e]) } : {}),
    ...(path ? { path, endOnFailure: true } : {}),
  });
  if (interruption !== undefined) throw interruption;
  if (!details.failed) return;
  // fast-check gave up drawing (too many runs discarded) when the domain had no new value left: what ran passed.
  if (details.counterexample === null && drawnAgain > 0 && passed.size > 0) return;
  const counterexample = details.counterexample ? fc.stringify(details.counterexample[0]) : undefined;
  // A command sequence carries its own replay path in its printed form.
  const replayPath = /\/\*replayPath="([^"]*)"\*\//.exec(counterexample ?? '')?.[1];
  ctx.setReplay({
    seed: details.seed,
    ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
    ...(replayPath ? { replayPath } : {}),
    ...(counterexample !== undefined ? { counterexample } : {}),
    numShrinks: details.numShrinks,
    numRuns: ctx.options.numRuns,
  });
  const error = details.errorInstance;
  const violations = isConformanceFailure(error)
    ? error.violations.map((v) => ({ ...v, where: `counterexample ${counterexample ?? ''}: ${v.where}` }))
    : [
        {
          where: `counterexample ${counterexample ?? ''}`,
          message: 'must hold for every generated value',
          actual: String(error),
        },
      ];
  throw new ConformanceFailure(violations);
}
