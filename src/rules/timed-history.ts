/**
 * The history a linearizability check judges, rebuilt from a concurrent
 * run's timed exchanges (Observed's `at`: when each request went and its
 * answer came): each command, then the read after them. Shared by the
 * concurrent properties whose judges order by real time.
 */
import type { HistoryOperation } from './linearizability.ts';
import type { Observed } from './judges/observed.ts';

/**
 * Each command as an operation (its call from `callOf`; done when
 * `tookEffect` says its answer says so, else pending: it may take effect at
 * any point, or never), then the read with `read.answer`; or why the run
 * cannot be judged (a request without times, a command that names nothing).
 */
export function timedHistory<C, A>(
  commands: readonly Observed[],
  read: { o: Observed; call: C; answer: A },
  callOf: (o: Observed) => C | undefined,
  tookEffect: (o: Observed) => boolean,
): Array<HistoryOperation<C, A | { status: number }>> | string {
  const history: Array<HistoryOperation<C, A | { status: number }>> = [];
  for (const o of commands) {
    if (!o.at) return `${o.step} holds no time: its order in real time is not known`;
    const call = callOf(o);
    if (call === undefined) return `${o.step} named nothing the model can apply`;
    // A command repeated by the client may have taken effect at its first attempt, whose time is not kept.
    const invokedAt = o.earlierStatuses.length > 0 ? Number.NEGATIVE_INFINITY : o.at.sent;
    history.push(
      tookEffect(o)
        ? { label: o.step, call, invokedAt, response: { answer: { status: o.status }, at: o.at.answered } }
        : { label: o.step, call, invokedAt },
    );
  }
  const { at } = read.o;
  if (!at) return `${read.o.step} holds no time: its order in real time is not known`;
  history.push({
    label: 'read',
    call: read.call,
    invokedAt: at.sent,
    response: { answer: read.answer, at: at.answered },
  });
  return history;
}

/** When the commands of a history went, in ms from the first one sent: how a FAIL lists them. */
export function sentAtMs(history: ReadonlyArray<HistoryOperation<unknown, unknown>>): (t: number) => number | string {
  const start = Math.min(...history.map((op) => op.invokedAt).filter(Number.isFinite));
  return (t) => (Number.isFinite(t) ? Math.round((t - start) * 10) / 10 : 'at an earlier attempt, not recorded');
}

/** The orders a check tried, each up to where it went wrong, as a FAIL lists them. */
export function ordersTried(result: {
  tried: ReadonlyArray<{ order: readonly string[]; reason: string }>;
  triedCount: number;
}): { ordersTried: string[]; moreOrdersTried?: number } {
  return {
    ordersTried: result.tried.map((t) => `${t.order.join(' → ')}: ${t.reason}`),
    ...(result.triedCount > result.tried.length ? { moreOrdersTried: result.triedCount - result.tried.length } : {}),
  };
}
