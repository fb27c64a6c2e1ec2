/** The linearizability checker on hand-built histories: no network, no clock. */
import { describe, expect, test } from 'vitest';
import { checkLinearizable, type HistoryOperation, type SequentialModel } from '../../src/rules/linearizability.ts';

type RegisterCall = { write: number } | 'read';
type Answer = number | 'ok';

const register: SequentialModel<number, RegisterCall, Answer> = {
  init: 0,
  step: (state, call) =>
    typeof call === 'object' ? { state: call.write, expected: 'ok' } : { state, expected: state },
  key: String,
};

const op = <C extends RegisterCall | 'increment'>(
  label: string,
  call: C,
  invokedAt: number,
  at?: number,
  answer?: Answer,
): HistoryOperation<C, Answer> => ({
  label,
  call,
  invokedAt,
  ...(at !== undefined && answer !== undefined ? { response: { answer, at } } : {}),
});

describe('a register', () => {
  test('serial writes and a read of the last one: the order is the order of time', () => {
    const result = checkLinearizable(
      [op('w1', { write: 1 }, 0, 1, 'ok'), op('w2', { write: 2 }, 2, 3, 'ok'), op('r', 'read', 4, 5, 2)],
      register,
    );
    expect(result).toMatchObject({ outcome: 'linearizable', labels: ['w1', 'w2', 'r'] });
  });

  test('a read of a value overwritten before the read began is explained by no order', () => {
    const result = checkLinearizable(
      [op('w1', { write: 1 }, 0, 1, 'ok'), op('w2', { write: 2 }, 2, 3, 'ok'), op('r', 'read', 4, 5, 1)],
      register,
    );
    expect(result.outcome).toBe('not-linearizable');
    if (result.outcome !== 'not-linearizable') return;
    // Real time leaves one order, and it says where it went wrong.
    expect(result.tried).toEqual([{ order: ['w1', 'w2', 'r'], reason: 'answered 1, the model expected 2' }]);
  });

  test('writes that overlap in time may land in either order', () => {
    const overlapping = (seen: number) => [
      op('w1', { write: 1 }, 0, 10, 'ok'),
      op('w2', { write: 2 }, 1, 9, 'ok'),
      op('r', 'read', 11, 12, seen),
    ];
    expect(checkLinearizable(overlapping(1), register)).toMatchObject({
      outcome: 'linearizable',
      labels: ['w2', 'w1', 'r'],
    });
    expect(checkLinearizable(overlapping(2), register)).toMatchObject({
      outcome: 'linearizable',
      labels: ['w1', 'w2', 'r'],
    });
    // Neither order gives 3: both are tried and reported.
    const none = checkLinearizable(overlapping(3), register);
    expect(none.outcome).toBe('not-linearizable');
    if (none.outcome === 'not-linearizable') {
      expect(none.tried.map((t) => t.order.join(' '))).toEqual(['w1 w2 r', 'w2 w1 r']);
    }
  });

  test('a read that overlaps a write may see the value before or after it, never another', () => {
    const history = (seen: number) => [
      op('w1', { write: 1 }, 0, 1, 'ok'),
      op('w2', { write: 2 }, 2, 10, 'ok'),
      op('r', 'read', 3, 4, seen),
    ];
    expect(checkLinearizable(history(1), register).outcome).toBe('linearizable');
    expect(checkLinearizable(history(2), register).outcome).toBe('linearizable');
    expect(checkLinearizable(history(0), register).outcome).toBe('not-linearizable');
  });
});

describe('an order known without times (precededBy)', () => {
  // Two branches, all four writes overlapping in time; each branch sent its second write after its first was answered.
  const branches = (seen: number) => {
    const history = [
      op('B1.1', { write: 1 }, 0, 10, 'ok'),
      { ...op('B1.2', { write: 2 }, 0, 10, 'ok'), precededBy: [0] },
      op('B2.1', { write: 3 }, 0, 10, 'ok'),
      { ...op('B2.2', { write: 4 }, 0, 10, 'ok'), precededBy: [2] },
      op('r', 'read', 11, 12, seen),
    ];
    return checkLinearizable(history, register);
  };

  test("a branch's last write may be the last of all", () => {
    expect(branches(2).outcome).toBe('linearizable');
    expect(branches(4).outcome).toBe('linearizable');
  });

  test("a branch's first write cannot come after its second", () => {
    expect(branches(1).outcome).toBe('not-linearizable');
    expect(branches(3).outcome).toBe('not-linearizable');
  });

  test('a pending predecessor may take effect or not: it orders nothing', () => {
    const history = [
      op('B1.1 (pending)', { write: 1 }, 0),
      { ...op('B1.2', { write: 2 }, 0, 10, 'ok'), precededBy: [0] },
    ];
    expect(checkLinearizable([...history, op('r', 'read', 11, 12, 2)], register).outcome).toBe('linearizable');
  });
});

describe('a pending operation', () => {
  test('may have taken effect or not', () => {
    const history = (seen: number) => [
      op('w1', { write: 1 }, 0, 1, 'ok'),
      op('w2 (pending)', { write: 2 }, 2),
      op('r', 'read', 5, 6, seen),
    ];
    expect(checkLinearizable(history(2), register)).toMatchObject({
      outcome: 'linearizable',
      labels: ['w1', 'w2 (pending)', 'r'],
    });
    // Never took effect: left out of the order.
    expect(checkLinearizable(history(1), register)).toMatchObject({ outcome: 'linearizable', labels: ['w1', 'r'] });
  });

  test('takes effect once: seen, it cannot be unseen', () => {
    const result = checkLinearizable(
      [
        op('w1', { write: 1 }, 0, 1, 'ok'),
        op('w2 (pending)', { write: 2 }, 2),
        op('r1', 'read', 5, 6, 2),
        op('r2', 'read', 7, 8, 1),
      ],
      register,
    );
    expect(result.outcome).toBe('not-linearizable');
  });

  test('cannot take effect before it was sent', () => {
    const result = checkLinearizable([op('r', 'read', 0, 1, 2), op('w2 (pending)', { write: 2 }, 2)], register);
    expect(result.outcome).toBe('not-linearizable');
  });
});

describe('a counter', () => {
  type CounterCall = 'increment' | 'read';
  const counter: SequentialModel<number, CounterCall, Answer> = {
    init: 0,
    step: (state, call) =>
      call === 'increment'
        ? { state: state + 1, expected: 'ok' }
        : {
            state,
            judge: (answer) => (answer === state ? undefined : `shows ${String(answer)}, must show ${state}`),
          },
    key: String,
  };

  test('two increments that overlap, both answered: the read must show both', () => {
    const history = (seen: number) => [
      op('inc A', 'increment', 0, 5, 'ok'),
      op('inc B', 'increment', 1, 6, 'ok'),
      op('read', 'read', 7, 8, seen),
    ];
    expect(checkLinearizable(history(2), counter).outcome).toBe('linearizable');
    // The lost update: one increment's effect is gone, and no order explains it.
    const lost = checkLinearizable(history(1), counter);
    expect(lost.outcome).toBe('not-linearizable');
    if (lost.outcome === 'not-linearizable') {
      expect(lost.tried).toEqual([
        { order: ['inc A', 'inc B', 'read'], reason: 'shows 1, must show 2' },
        // The other order reaches the same node, which the memo has already ruled out.
        {
          order: ['inc B', 'inc A'],
          reason: 'the same operations done, in the same state, as an order ruled out above',
        },
      ]);
    }
  });

  test('the memo visits each (done set, state) once: many overlapping increments stay cheap', () => {
    const incs = Array.from({ length: 12 }, (_, i) => op(`inc ${i}`, 'increment', 0, 100, 'ok'));
    const result = checkLinearizable([...incs, op('read', 'read', 101, 102, 11)], counter);
    expect(result.outcome).toBe('not-linearizable');
    // 2^12 sets of increments done, each with one state: far below the 12! orders.
    expect(result.steps).toBeLessThanOrEqual(2 ** 12 + 1);
  });

  test('a bound on the search gives an undecided answer, never a verdict', () => {
    const incs = Array.from({ length: 12 }, (_, i) => op(`inc ${i}`, 'increment', 0, 100, 'ok'));
    const result = checkLinearizable([...incs, op('read', 'read', 101, 102, 11)], counter, {
      maxSteps: 50,
    });
    expect(result.outcome).toBe('undecided');
  });
});
