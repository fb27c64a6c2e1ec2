/**
 * A linearizability checker (Wing and Gong's search, with the memo of
 * Lowe's variant): given a history of operations that overlapped in time,
 * each with the moment it was invoked, the moment its answer came (or none:
 * pending) and the answer, is there a serial order that a sequential model
 * explains? The order must respect real time (an operation answered before
 * another was invoked comes first); operations that overlap may come in
 * either order, so a choice the spec leaves to the server is never held
 * against it. A pending operation may take effect at any point after its
 * invocation, or never.
 *
 * Pure: no network, no clock. The search is bounded (`maxSteps`); a history
 * of a few commands per branch keeps it small, and a memo on (the set of
 * operations done, the model's state) never explores one node twice.
 */

/** One operation of a history. */
export interface HistoryOperation<C, A> {
  /** How the report names it (a branch and a command: "B1.2 assignRate(…)"). */
  label: string;
  call: C;
  /** When it was sent (any monotonic clock, the same for the whole history). */
  invokedAt: number;
  /** Its answer and when it came; absent while pending (no answer, or one that does not say whether it took effect). */
  response?: { answer: A; at: number };
  /**
   * Operations (indexes into the history) known to have been answered before
   * this one was sent when the times do not say it: a history rebuilt from
   * recorded exchanges without their times, where a branch sent its commands
   * one after the other. Each that was answered comes first, as real time would say.
   */
  precededBy?: readonly number[];
}

/** What the model says of one call in one state: the next state, and what the answer must be. */
export type ModelStep<S, A> =
  | { state: S; expected: A }
  /** `judge` returns why the answer does not fit, or undefined when it does. */
  | { state: S; judge: (answer: A) => string | undefined };

export interface SequentialModel<S, C, A> {
  init: S;
  step(state: S, call: C): ModelStep<S, A>;
  /** A key of a state: two states with one key are the same to the model (the memo's key). */
  key(state: S): string;
  /** How an answer is compared with `expected` (default: JSON text). */
  equals?(expected: A, actual: A): boolean;
}

/** A serial order that went wrong, and where. */
export interface TriedOrder {
  /** The labels taken in order, the last one the operation whose answer the model did not explain. */
  order: string[];
  /** Why the model did not explain that operation's answer. */
  reason: string;
}

export type LinearizabilityResult =
  | {
      outcome: 'linearizable';
      /** Indexes into the history, in the order found; pending operations left out took no effect. */
      order: number[];
      labels: string[];
      steps: number;
    }
  | {
      outcome: 'not-linearizable';
      /** Orders tried, each up to where it went wrong (at most `maxTried` of them). */
      tried: TriedOrder[];
      /** How many orders went wrong in all (`tried` keeps the first). */
      triedCount: number;
      steps: number;
    }
  | {
      /** The bound was reached before an order was found or every order ruled out. */
      outcome: 'undecided';
      steps: number;
    };

export interface CheckOptions {
  /** Nodes the search may visit before it gives up (undecided). */
  maxSteps?: number;
  /** Tried orders kept for the report. */
  maxTried?: number;
}

const defaultEquals = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Does some serial order of `history`, applied to `model`, explain every answer? */
export function checkLinearizable<S, C, A>(
  history: ReadonlyArray<HistoryOperation<C, A>>,
  model: SequentialModel<S, C, A>,
  options: CheckOptions = {},
): LinearizabilityResult {
  const maxSteps = options.maxSteps ?? 100_000;
  const maxTried = options.maxTried ?? 20;
  const equals = model.equals ?? defaultEquals;
  const n = history.length;
  /** The operation at an index the search computed itself (always in range). */
  const opAt = (i: number): HistoryOperation<C, A> => {
    const op = history[i];
    if (op === undefined) throw new Error(`linearizability: no operation ${i}`);
    return op;
  };
  const done: boolean[] = new Array<boolean>(n).fill(false);
  const order: number[] = [];
  const dead = new Set<string>();
  const tried: TriedOrder[] = [];
  let triedCount = 0;
  let steps = 0;
  let exhausted = false;

  const note = (reason: string, last?: number): void => {
    triedCount += 1;
    if (tried.length < maxTried) {
      const labels = order.map((i) => opAt(i).label);
      tried.push({ order: last === undefined ? labels : [...labels, opAt(last).label], reason });
    }
  };

  /** May `j` come next: no operation left undone was answered before `j` was invoked. */
  const mayComeNext = (j: number): boolean => {
    const { invokedAt, precededBy = [] } = opAt(j);
    for (let i = 0; i < n; i++) {
      if (i === j || done[i]) continue;
      const response = opAt(i).response;
      if (response !== undefined && (response.at < invokedAt || precededBy.includes(i))) return false;
    }
    return true;
  };

  const allAnswered = (): boolean => history.every((op, i) => done[i] || op.response === undefined);

  const search = (state: S): boolean => {
    if (allAnswered()) return true;
    if (steps >= maxSteps) {
      exhausted = true;
      return false;
    }
    const memo = `${done.map((d) => (d ? '1' : '0')).join('')}|${model.key(state)}`;
    if (dead.has(memo)) {
      note('the same operations done, in the same state, as an order ruled out above');
      return false;
    }
    steps += 1;
    for (let j = 0; j < n; j++) {
      if (done[j] || !mayComeNext(j)) continue;
      const op = opAt(j);
      const next = model.step(state, op.call);
      if (op.response !== undefined) {
        const reason =
          'expected' in next
            ? equals(next.expected, op.response.answer)
              ? undefined
              : `answered ${JSON.stringify(op.response.answer)}, the model expected ${JSON.stringify(next.expected)}`
            : next.judge(op.response.answer);
        if (reason !== undefined) {
          note(reason, j);
          continue;
        }
      }
      done[j] = true;
      order.push(j);
      if (search(next.state)) return true;
      order.pop();
      done[j] = false;
      if (exhausted) return false;
    }
    dead.add(memo);
    return false;
  };

  if (search(model.init)) {
    return { outcome: 'linearizable', order: [...order], labels: order.map((i) => opAt(i).label), steps };
  }
  if (exhausted) return { outcome: 'undecided', steps };
  return { outcome: 'not-linearizable', tried, triedCount, steps };
}
