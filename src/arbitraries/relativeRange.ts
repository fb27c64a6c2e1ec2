import fc from 'fast-check';

/**
 * A range in days from the start of a window: `from` is its start date, `to`
 * its end date (the spec does not show whether the end day is included, so
 * the days a range surely covers are `from` … `to - 1`).
 */
export interface DaySpan {
  from: number;
  to: number;
}

/** How a step's range stands to the ranges earlier steps of the same sequence used. */
export const RELATIONS = ['fresh', 'same', 'inside', 'overlapping', 'adjacent', 'spanning'] as const;
export type Relation = (typeof RELATIONS)[number];

/**
 * Where a step's range lies, drawn relative to the ranges used before it:
 * the same range, inside one (a day in from both its ends), overlapping one
 * end of it, adjacent to it (from its end date, or the day after), spanning
 * two of them, or anywhere in the window (`fresh`, and every relation of a
 * sequence's first range). Placed by `placeRange`, a pure function of the
 * ranges used so far, so a sequence shrunk by fast-check places its steps
 * again relative to those that remain.
 */
export interface Placement {
  relation: Relation;
  /** The earlier range it stands to, counted back from the last one used (0: the last). */
  ref: number;
  /** The second earlier range of `spanning`, counted back the same way. */
  other: number;
  /** Where it starts: in the window (`fresh`), inside or across the earlier range. */
  at: number;
  /** How long it is, in days (a margin around the ranges it spans). */
  length: number;
  /** Before the earlier range (its start side) rather than after it. */
  before: boolean;
}

export interface RelativeRangeConstraints {
  /** Days of the window the ranges are placed in (default 40). */
  windowDays?: number;
  /** Longest drawn length in days (default 20). */
  maxLength?: number;
  /**
   * How often each relation is drawn, by weight (default: fresh 2, same 1,
   * inside 3, overlapping 2, adjacent 3, spanning 1): a step kind weighs the
   * relations its second steps are about (an unassignment inside, an
   * assignment adjacent).
   */
  weights?: Partial<Record<Relation, number>>;
}

/** Relations by weight: most steps land on what an earlier step touched. */
const WEIGHTS: Readonly<Record<Relation, number>> = {
  fresh: 2,
  same: 1,
  inside: 3,
  overlapping: 2,
  adjacent: 3,
  spanning: 1,
};

/** A placement relative to earlier ranges (see `Placement`); `fresh` first, so shrinking goes towards it. */
export function relativeRange(constraints: RelativeRangeConstraints = {}): fc.Arbitrary<Placement> {
  const windowDays = constraints.windowDays ?? 40;
  const maxLength = constraints.maxLength ?? 20;
  // Mostly the range just used, and after it: what a second step most often does to the first's data.
  const back = fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.nat({ max: 3 }) });
  return fc.record({
    relation: fc.oneof(
      ...RELATIONS.map((relation) => ({
        weight: constraints.weights?.[relation] ?? WEIGHTS[relation],
        arbitrary: fc.constant(relation),
      })),
    ),
    ref: back,
    other: fc.nat(3),
    at: fc.nat(windowDays - 2),
    length: fc.integer({ min: 2, max: maxLength }),
    before: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  });
}

/** Which earlier range `back` (counted back from the last) names among `count` used ones. */
export function earlierIndex(back: number, count: number): number {
  return count - 1 - (back % count);
}

const clamp = (n: number, min: number, max: number): number => Math.min(max, Math.max(min, n));

/**
 * Whether a range placed beside `ref` goes before it: the side drawn, unless
 * the window leaves it fewer days than it needs (`needBefore` days before the
 * earlier range, `needAfter` days after it) and the other side has them. Clamped
 * to the window's edge, a range drawn to reach past the earlier one would
 * stop at its end, and stand to it as nothing the step was drawn to be.
 */
function sideWithRoom(
  before: boolean,
  ref: DaySpan,
  needBefore: number,
  needAfter: number,
  windowDays: number,
): boolean {
  const roomBefore = ref.from >= needBefore;
  const roomAfter = ref.to + needAfter <= windowDays;
  return before ? roomBefore || !roomAfter : !roomAfter && roomBefore;
}

/** The range a placement stands for, given the ranges used before it, inside a window of `windowDays`. */
export function placeRange(p: Placement, used: readonly DaySpan[], windowDays: number): DaySpan {
  const ref = used.length > 0 ? used[earlierIndex(p.ref, used.length)] : undefined;
  let span: DaySpan;
  if (ref === undefined || p.relation === 'fresh') span = { from: p.at, to: p.at + p.length };
  else if (p.relation === 'same') span = ref;
  else if (p.relation === 'inside') {
    const room = ref.to - ref.from - 2;
    if (room < 1) span = ref;
    else {
      const from = ref.from + 1 + (p.at % room);
      span = { from, to: from + 1 + (p.length % (ref.to - 1 - from)) };
    }
  } else if (p.relation === 'overlapping') {
    // A day the two certainly share and two past the earlier end: a range that shares only an end day,
    // or reaches a day past one, may not overlap at all where end days are excluded.
    const into = p.at % Math.max(1, ref.to - ref.from - 1);
    const out = 2 + (p.length % 7);
    span = sideWithRoom(p.before, ref, 1, 2, windowDays)
      ? { from: ref.from - out, to: ref.to - 1 - into }
      : { from: ref.from + 1 + into, to: ref.to + out };
  } else if (p.relation === 'adjacent') {
    // From the earlier end date, or (two times in three) the day after it: ends that are included or
    // not both get a neighbour.
    const gap = p.at % 3 === 0 ? 0 : 1;
    span = sideWithRoom(p.before, ref, gap + 1, gap + 1, windowDays)
      ? { from: ref.from - gap - p.length, to: ref.from - gap }
      : { from: ref.to + gap, to: ref.to + gap + p.length };
  } else {
    const second = used[earlierIndex(p.other, used.length)] ?? ref;
    span = {
      from: Math.min(ref.from, second.from) - (p.at % 3),
      to: Math.max(ref.to, second.to) + (p.length % 3),
    };
  }
  const from = clamp(span.from, 0, windowDays - 1);
  return { from, to: clamp(span.to, from + 1, windowDays) };
}

/** Two ranges share a day or meet end to end (a day apart at most). */
export function touches(a: DaySpan, b: DaySpan): boolean {
  return a.from <= b.to + 1 && b.from <= a.to + 1;
}

/**
 * A placement as a step names it, the relation last so a place can name it
 * beside what follows: `at 3, 5 days, by -1: inside` is inside the second
 * latest range.
 */
export function describePlacement(p: Placement): string {
  if (p.relation === 'fresh') return `at ${p.at}, ${p.length} days`;
  if (p.relation === 'same') return `by -${p.ref}: same`;
  if (p.relation === 'spanning') return `margins ${p.at % 3}, ${p.length % 3}, by -${p.ref} and -${p.other}: spanning`;
  const side = p.before && (p.relation === 'adjacent' || p.relation === 'overlapping') ? ' before' : '';
  return `at ${p.at}, ${p.length} days, by -${p.ref}: ${p.relation}${side}`;
}

/** The commands of a sequence `fc.commands` drew: it hands each one in a wrapper (its `cmd`). */
export function drawnCommands(sequence: Iterable<unknown>): unknown[] {
  return [...sequence].map((c) => (typeof c === 'object' && c !== null && 'cmd' in c ? c.cmd : c));
}
