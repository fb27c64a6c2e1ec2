/**
 * What `--depth` changes (src/schemas/run-config.ts): how many runs each
 * property makes and how strong the covering arrays of the input models are.
 * A rule states its runs at the default depth (`runs`); the other depths are
 * derived from it here, so no rule writes three numbers.
 */
import type { Depth } from '../core/types.ts';

/**
 * How many times a concurrent property's runs grow when deep: a race shows
 * in some interleavings only, so a run that looks hard tries many more of
 * them than the serial properties' twice.
 */
export const CONCURRENT_DEEP_FACTOR = 4;

/**
 * A property's runs at `depth`, from its runs at the default depth: half of
 * them (at least one) when quick, twice as many when deep. A concurrent
 * property (`concurrent` on its definition) makes none when quick (the
 * engine leaves it out: `leftOutAtDepth`), its own few by default, and
 * CONCURRENT_DEEP_FACTOR times as many when deep.
 */
export function runsAtDepth(runs: number, depth: Depth, rule: { concurrent?: true } = {}): number {
  if (rule.concurrent) {
    if (depth === 'quick') return 0;
    return depth === 'deep' ? runs * CONCURRENT_DEEP_FACTOR : runs;
  }
  if (depth === 'quick') return Math.max(1, Math.ceil(runs / 2));
  if (depth === 'deep') return runs * 2;
  return runs;
}

/**
 * Why a rule does not run at `depth`, or undefined when it does: a quick run
 * leaves out the concurrent properties, whose few runs would cost requests
 * on a mutable resource and show a race only by chance.
 */
export function leftOutAtDepth(rule: { concurrent?: true }, depth: Depth): string | undefined {
  if (rule.concurrent && depth === 'quick') {
    return 'left out at --depth quick: requests at the same time run at --depth default (a few runs) or deep (many)';
  }
  return undefined;
}

/**
 * The strength of an input model's covering array at `depth`: each class of
 * every factor at least once (quick), every pair of classes of two factors
 * (default), every triple of three factors (deep).
 */
export function strengthAtDepth(depth: Depth): 1 | 2 | 3 {
  if (depth === 'quick') return 1;
  if (depth === 'deep') return 3;
  return 2;
}
