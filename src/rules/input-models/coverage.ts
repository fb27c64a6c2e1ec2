/**
 * Pairwise coverage of an operation's input model: per pair of factors, how
 * many pairs of classes the target can serve and how many the rows judged
 * exercised. The pairwise rule records it in its observations; `rules
 * --coverage` prints it for a profile and a seed before any run.
 */
import fc from 'fast-check';
import { coveringArray, type CoveringArray, type Interaction } from '../../arbitraries/index.ts';
import type { TargetProfile } from '../../target/profile.ts';
import { INPUT_MODELS } from './index.ts';
import type { FixedField, InputModel, Unservable } from './model.ts';

export interface PairCoverage {
  operation: string;
  strength: 2 | 3;
  rows: number;
  rowsJudged: number;
  pairs: { exercised: number; servable: number };
  byFactorPair: Record<string, { exercised: number; servable: number }>;
  /** The factors the array varies, each with the classes this target can be sent. */
  factors: Array<{ name: string; classes: string[] }>;
  fixed: FixedField[];
  notServable: Unservable[];
}

/** The covering array the pairwise rule drives for `model` with `seed`. */
export function drawCoveringArray(model: InputModel, seed: number): CoveringArray | undefined {
  return fc.sample(coveringArray(model.factors, { allowed: model.allowed }), { seed, numRuns: 1 })[0];
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

/** The coverage every row of the seed's array gives when all are judged, for each operation with a model, as lines of text. */
export function renderCoverage(profile: TargetProfile, seed: number): string[] {
  return Object.values(INPUT_MODELS).flatMap((modelOf) => renderModel(modelOf(profile), seed));
}

/** A share of pairs as `exercised/servable (percent)`. */
export function shareOf(p: { exercised: number; servable: number }): string {
  return `${p.exercised}/${p.servable} (${p.servable === 0 ? 100 : Math.round((100 * p.exercised) / p.servable)}%)`;
}

function renderModel(model: InputModel, seed: number): string[] {
  const array = drawCoveringArray(model, seed);
  if (array === undefined) return [`${model.operation}: no covering array was drawn`];
  const c = pairCoverage(
    model,
    array,
    array.rows.map(() => true),
  );
  return [
    `${c.operation}: ${model.factors.length} factors, ${c.rows} rows (seed ${seed}, pairwise), pairs covered ${shareOf(c.pairs)} of those this profile can serve`,
    ...model.factors.map((f) => `  factor ${f.name}: ${f.classes.join(', ')}`),
    ...model.fixed.map((f) => `  not varied ${f.field}: ${f.why}`),
    ...Object.entries(c.byFactorPair).map(([pair, p]) => `  ${pair}: ${shareOf(p)}`),
    ...(c.notServable.length === 0
      ? ['  every class is servable with this profile']
      : c.notServable.map((u) => `  not servable ${u.factor} = ${u.class}: ${u.why}`)),
  ];
}
