/**
 * Pairwise coverage of an operation's input model: per pair of factors, how
 * many pairs of classes the target can serve and how many the rows judged
 * exercised (per triple at `--depth deep`, per class at `quick`). The
 * pairwise rule records it in its observations; `rules --coverage` prints it
 * for a profile, a seed and a depth before any run.
 */
import fc from 'fast-check';
import { coveringArray, type CoveringArray, type Interaction } from '../../arbitraries/index.ts';
import type { Depth } from '../../core/types.ts';
import type { TargetProfile } from '../../target/profile.ts';
import { strengthAtDepth } from '../depth.ts';
import { INPUT_MODELS } from './index.ts';
import type { FixedField, InputModel, Unservable } from './model.ts';

export interface PairCoverage {
  operation: string;
  strength: 1 | 2 | 3;
  rows: number;
  rowsJudged: number;
  pairs: { exercised: number; servable: number };
  byFactorPair: Record<string, { exercised: number; servable: number }>;
  /** The factors the array varies, each with the classes this target can be sent. */
  factors: Array<{ name: string; classes: string[] }>;
  fixed: FixedField[];
  notServable: Unservable[];
}

/** The covering array the pairwise rule drives for `model` with `seed`, as strong as `depth` asks. */
export function drawCoveringArray(
  model: InputModel,
  seed: number,
  depth: Depth = 'default',
): CoveringArray | undefined {
  const strength = strengthAtDepth(depth);
  return fc.sample(coveringArray(model.factors, { allowed: model.allowed, strength }), { seed, numRuns: 1 })[0];
}

/** What the rows `judged` (by index) exercised of what the target can serve. */
export function pairCoverage(model: InputModel, array: CoveringArray, judged: readonly boolean[]): PairCoverage {
  const key = (i: Interaction): string => i.map((x) => x.factor).join(' × ');
  const byFactorPair: PairCoverage['byFactorPair'] = {};
  for (const i of array.interactions) (byFactorPair[key(i)] ??= { exercised: 0, servable: 0 }).servable += 1;
  array.covers.forEach((interactions, r) => {
    if (!judged[r]) return;
    for (const i of interactions) (byFactorPair[key(i)] ??= { exercised: 0, servable: 0 }).exercised += 1;
  });
  const exercised = Object.values(byFactorPair).reduce((n, p) => n + p.exercised, 0);
  return {
    operation: model.operation,
    strength: array.strength,
    rows: array.rows.length,
    rowsJudged: judged.filter(Boolean).length,
    pairs: { exercised, servable: array.interactions.length },
    byFactorPair,
    factors: model.factors.map((f) => ({ name: f.name, classes: [...f.classes] })),
    fixed: model.fixed,
    notServable: model.unservable,
  };
}

/** What the interactions of a strength are called. */
const INTERACTIONS = { 1: 'classes', 2: 'pairs', 3: 'triples' } as const;
const STRENGTH_NAME = { 1: 'each class once', 2: 'pairwise', 3: 'three-way' } as const;

/** The coverage every row of the seed's array gives at `depth` when all are judged, for each operation with a model, as lines of text. */
export function renderCoverage(profile: TargetProfile, seed: number, depth: Depth = 'default'): string[] {
  return Object.values(INPUT_MODELS).flatMap((modelOf) => renderModel(modelOf(profile), seed, depth));
}

/** A share of pairs as `exercised/servable (percent)`. */
export function shareOf(p: { exercised: number; servable: number }): string {
  return `${p.exercised}/${p.servable} (${p.servable === 0 ? 100 : Math.round((100 * p.exercised) / p.servable)}%)`;
}

function renderModel(model: InputModel, seed: number, depth: Depth): string[] {
  const array = drawCoveringArray(model, seed, depth);
  if (array === undefined) return [`${model.operation}: no covering array was drawn`];
  const c = pairCoverage(
    model,
    array,
    array.rows.map(() => true),
  );
  return [
    `${c.operation}: ${model.factors.length} factors, ${c.rows} rows (seed ${seed}, ${STRENGTH_NAME[c.strength]}${depth === 'default' ? '' : `: --depth ${depth}`}), ${INTERACTIONS[c.strength]} covered ${shareOf(c.pairs)} of those this profile can serve`,
    ...model.factors.map((f) => `  factor ${f.name}: ${f.classes.join(', ')} (from ${model.sources[f.name] ?? '?'})`),
    ...model.fixed.map((f) => `  not varied ${f.field}: ${f.why}`),
    ...Object.entries(c.byFactorPair).map(([pair, p]) => `  ${pair}: ${shareOf(p)}`),
    ...(c.notServable.length === 0
      ? ['  every class is servable with this profile']
      : c.notServable.map((u) => `  not servable ${u.factor} = ${u.class}: ${u.why}`)),
  ];
}
