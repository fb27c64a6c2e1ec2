/**
 * What `--depth` changes (src/schemas/run-config.ts): how many runs each
 * property makes and how strong the covering arrays of the input models are.
 * A rule states its runs at the default depth (`runs`); the other depths are
 * derived from it here, so no rule writes three numbers.
 */
import type { Depth } from '../core/types.ts';

/**
 * A property's runs at `depth`, from its runs at the default depth: half of
 * them (at least one) when quick, twice as many when deep.
 */
export function runsAtDepth(runs: number, depth: Depth): number {
  if (depth === 'quick') return Math.max(1, Math.ceil(runs / 2));
  if (depth === 'deep') return runs * 2;
  return runs;
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
