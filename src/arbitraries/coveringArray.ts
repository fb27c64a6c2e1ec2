import fc from 'fast-check';

/** One input of an operation and the classes of values it takes. */
export interface CoveringFactor {
  name: string;
  classes: readonly string[];
}

/** One class of each of `strength` factors: what a row of the array exercises together. */
export type Interaction = ReadonlyArray<{ factor: string; class: string }>;

export interface CoveringArrayConstraints {
  /** 1: every class of each factor; 2: every pair of classes of two factors (pairwise, the default); 3: every triple. */
  strength?: 1 | 2 | 3;
  /**
   * Whether a partial row (undefined where a factor is not set yet) can still
   * be sent: false for classes that exclude each other. An interaction no row
   * can take is not to be covered: it is left out of the array's
   * interactions (an array may then have no row at all).
   */
  allowed?: (row: ReadonlyArray<string | undefined>) => boolean;
  /** Candidate rows drawn for each row kept, the one covering most is kept (default 24). */
  candidates?: number;
}

export interface CoveringArray {
  factors: readonly CoveringFactor[];
  strength: 1 | 2 | 3;
  /** Each row: one class per factor, in the order of `factors`. */
  rows: ReadonlyArray<readonly string[]>;
  /** For each row, the interactions it was the first to cover. */
  covers: ReadonlyArray<readonly Interaction[]>;
  /** Every interaction the constraints allow (each covered by exactly one row's `covers`). */
  interactions: readonly Interaction[];
}

/**
 * A covering array over `factors`, built greedily in the AETG way: each row
 * starts from an interaction not covered yet, fills the other factors one by
 * one (in a random order) with the class that covers most uncovered
 * interactions, and of `candidates` such rows the one covering most is kept.
 * Every choice is drawn from fast-check's randomness, so a seed replays the
 * same rows. It does not shrink: a smaller array covers less.
 */
export function coveringArray(
  factors: readonly CoveringFactor[],
  constraints: CoveringArrayConstraints = {},
): fc.Arbitrary<CoveringArray> {
  return new CoveringArrayArbitrary(factors, constraints);
}

class CoveringArrayArbitrary extends fc.Arbitrary<CoveringArray> {
  constructor(
    private readonly factors: readonly CoveringFactor[],
    private readonly constraints: CoveringArrayConstraints,
  ) {
    super();
  }

  generate(mrng: fc.Random): fc.Value<CoveringArray> {
    return new fc.Value(
      build(this.factors, this.constraints, (n) => mrng.nextInt(0, n - 1)),
      undefined,
    );
  }

  canShrinkWithoutContext(_value: unknown): _value is CoveringArray {
    return false;
  }

  shrink(): fc.Stream<fc.Value<CoveringArray>> {
    return fc.Stream.nil();
  }
}

/** A tuple of factor indexes (ascending) with a class index each, as a key. */
type Tuple = { factors: number[]; classes: number[] };
const keyOf = (factors: readonly number[], classes: readonly number[]): string =>
  factors.map((f, i) => `${f}:${classes[i]}`).join('|');

const COMBINATIONS = new Map<string, number[][]>();

/** Every way to take `k` of `n` indexes, ascending (kept: the builder asks for the same few again and again). */
function combinations(n: number, k: number): number[][] {
  const key = `${n},${k}`;
  const known = COMBINATIONS.get(key);
  if (known) return known;
  const made = combinationsOf(n, k);
  COMBINATIONS.set(key, made);
  return made;
}

function combinationsOf(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first <= n - k; first++) {
    for (const rest of combinations(n - first - 1, k - 1)) out.push([first, ...rest.map((r) => r + first + 1)]);
  }
  return out;
}

function build(
  factors: readonly CoveringFactor[],
  constraints: CoveringArrayConstraints,
  random: (n: number) => number,
): CoveringArray {
  // Fewer factors than the strength asked: every tuple of them is the whole row, so the array covers
  // every combination of all of them (a triple-wise array over two factors is the pairwise one).
  const asked = constraints.strength ?? 2;
  const strength = factors.length < asked ? (factors.length === 2 ? 2 : 1) : asked;
  const candidates = constraints.candidates ?? 24;
  const allowed = constraints.allowed ?? (() => true);
  const n = factors.length;
  if (n === 0) throw new Error('a covering array needs at least one factor');
  for (const f of factors) if (f.classes.length === 0) throw new Error(`factor ${f.name} has no class`);

  const named = (row: ReadonlyArray<number | undefined>): Array<string | undefined> =>
    row.map((c, f) => (c === undefined ? undefined : defined(factors[f]).classes[c]));

  // Every interaction the constraints allow, by key.
  const tuples = new Map<string, Tuple>();
  for (const fs of combinations(n, strength)) {
    const expand = (i: number, classes: number[]): void => {
      if (i === fs.length) {
        const row: Array<number | undefined> = Array.from({ length: n }, () => undefined);
        fs.forEach((f, j) => (row[f] = classes[j]));
        if (allowed(named(row))) tuples.set(keyOf(fs, classes), { factors: fs, classes: [...classes] });
        return;
      }
      for (let c = 0; c < defined(factors[defined(fs[i])]).classes.length; c++) expand(i + 1, [...classes, c]);
    };
    expand(0, []);
  }
  const uncovered = new Set(tuples.keys());
  const pending = [...uncovered];

  /** Interactions of `row` (all its factors set among `set`) that include factor `f` and are not covered yet. */
  const gain = (row: ReadonlyArray<number | undefined>, f: number): number => {
    // Pairwise (the arrays of a default run): each other factor set makes one pair with f, keyed as keyOf does.
    if (strength === 2) {
      let pairs = 0;
      const own = `${f}:${row[f]}`;
      for (let i = 0; i < row.length; i++) {
        const c = row[i];
        if (i === f || c === undefined) continue;
        if (uncovered.has(i < f ? `${i}:${c}|${own}` : `${own}|${i}:${c}`)) pairs++;
      }
      return pairs;
    }
    const others = row.map((c, i) => (c !== undefined && i !== f ? i : -1)).filter((i) => i >= 0);
    let count = 0;
    for (const group of combinations(others.length, strength - 1)) {
      const fs = [...group.map((g) => defined(others[g])), f].sort((a, b) => a - b);
      if (
        uncovered.has(
          keyOf(
            fs,
            fs.map((i) => defined(row[i])),
          ),
        )
      )
        count++;
    }
    return count;
  };
  const coveredBy = (row: readonly number[]): string[] =>
    combinations(n, strength)
      .map((fs) =>
        keyOf(
          fs,
          fs.map((f) => defined(row[f])),
        ),
      )
      .filter((k) => uncovered.has(k));

  /** `row` with its open factors filled in, in factor order, as the constraints allow; false when none can be. */
  const fill = (row: Array<number | undefined>, f: number): boolean => {
    if (f === n) return true;
    if (row[f] !== undefined) return fill(row, f + 1);
    for (let c = 0; c < defined(factors[f]).classes.length; c++) {
      row[f] = c;
      if (allowed(named(row)) && fill(row, f + 1)) return true;
    }
    row[f] = undefined;
    return false;
  };
  /** A row for the first interaction left that some allowed row holds; those none holds leave the array. */
  const completedRow = (left: Set<string>): { row: number[]; keys: string[] } | undefined => {
    for (const key of [...left]) {
      const t = defined(tuples.get(key));
      const row: Array<number | undefined> = Array.from({ length: n }, () => undefined);
      t.factors.forEach((f, j) => (row[f] = t.classes[j]));
      if (fill(row, 0)) {
        const full = row.map((c) => c ?? 0);
        return { row: full, keys: coveredBy(full) };
      }
      left.delete(key);
      tuples.delete(key);
    }
    return undefined;
  };

  const rows: string[][] = [];
  const covers: Interaction[][] = [];
  while (uncovered.size > 0) {
    let best: { row: number[]; keys: string[] } | undefined;
    for (let attempt = 0; attempt < candidates; attempt++) {
      // A start among the interactions not covered yet (the list is pruned as it is read).
      let start: Tuple | undefined;
      while (start === undefined) {
        const i = random(pending.length);
        const key = defined(pending[i]);
        if (uncovered.has(key)) start = tuples.get(key);
        else {
          pending[i] = defined(pending[pending.length - 1]);
          pending.pop();
        }
      }
      const row: Array<number | undefined> = Array.from({ length: n }, () => undefined);
      start.factors.forEach((f, j) => (row[f] = start.classes[j]));
      const rest = [...Array(n).keys()].filter((f) => row[f] === undefined);
      for (let i = rest.length - 1; i > 0; i--) {
        const j = random(i + 1);
        [rest[i], rest[j]] = [defined(rest[j]), defined(rest[i])];
      }
      let complete = true;
      for (const f of rest) {
        const count = defined(factors[f]).classes.length;
        const offset = random(count);
        let chosen: { c: number; gain: number } | undefined;
        for (let k = 0; k < count; k++) {
          const c = (offset + k) % count;
          row[f] = c;
          if (!allowed(named(row))) continue;
          const g = gain(row, f);
          if (chosen === undefined || g > chosen.gain) chosen = { c, gain: g };
        }
        row[f] = chosen?.c;
        if (chosen === undefined) {
          complete = false;
          break;
        }
      }
      if (!complete) continue;
      const full = row.map((c) => c ?? 0);
      const keys = coveredBy(full);
      if (best === undefined || keys.length > best.keys.length) best = { row: full, keys };
    }
    // The greedy rows found none: each interaction left is completed by a search instead, or, when no row the
    // constraints allow holds it (a thin profile leaves classes that exclude each other), it is not to be covered.
    best ??= completedRow(uncovered);
    if (best === undefined) continue;
    rows.push(best.row.map((c, f) => defined(defined(factors[f]).classes[c])));
    covers.push(best.keys.map((k) => interactionOf(defined(tuples.get(k)), factors)));
    for (const k of best.keys) uncovered.delete(k);
  }
  return {
    factors,
    strength,
    rows,
    covers,
    interactions: [...tuples.values()].map((t) => interactionOf(t, factors)),
  };
}

function interactionOf(t: Tuple, factors: readonly CoveringFactor[]): Interaction {
  return t.factors.map((f, i) => ({
    factor: defined(factors[f]).name,
    class: defined(defined(factors[f]).classes[defined(t.classes[i])]),
  }));
}

/** A value the builder's own indexes always find: an index out of range is a bug here, said at once. */
function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('covering array: an index out of range');
  return value;
}
