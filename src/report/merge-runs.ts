import type { GateRecord, RunResult, RunSelection } from '../core/types.ts';
import { summarise } from '../core/summarise.ts';

/**
 * One run from the runs of shards: results side by side, the summary computed
 * again. Shards run in gate mode (--expectations) give one gate: what any shard
 * knew, found or saw expire, passed only when every shard's passed, and the
 * known failures excused in the merged summary as they were in each shard's.
 */
export function mergeRuns(runs: ReadonlyArray<Omit<RunResult, 'summary'>>): RunResult {
  const [first] = runs;
  if (first === undefined) throw new Error('merge needs the results of at least one run');
  const results = runs.flatMap((r) => r.results);
  const gate = mergeGates(runs.flatMap((r) => (r.gate ? [r.gate] : [])));
  const excused = gate ? { excused: new Set(gate.knownFailures.map((k) => k.rule)) } : {};
  const inputCoverage = runs.flatMap((r) => r.inputCoverage ?? []);
  return {
    tool: first.tool,
    target: first.target,
    options: first.options,
    startedAt: runs.map((r) => r.startedAt).sort()[0] ?? first.startedAt,
    finishedAt:
      runs
        .map((r) => r.finishedAt)
        .sort()
        .at(-1) ?? first.finishedAt,
    results,
    summary: summarise(results, { ...first.options, ...excused }),
    ...(gate ? { gate } : {}),
    requests: {
      total: results.reduce((sum, r) => sum + r.requestCount, 0),
      budget: first.requests?.budget ?? null,
    },
    // The whole run the shards were dealt from; no shard of it any longer.
    ...(first.selection ? { selection: withoutShard(first.selection) } : {}),
    ...(inputCoverage.length > 0 ? { inputCoverage } : {}),
  };
}

function withoutShard(selection: RunSelection): RunSelection {
  const { shard: _shard, ...rest } = selection;
  return rest;
}

function mergeGates(gates: readonly GateRecord[]): GateRecord | undefined {
  const [head] = gates;
  if (head === undefined) return undefined;
  const byRule = <T extends { rule: string }>(lists: ReadonlyArray<readonly T[]>): T[] => [
    ...new Map(lists.flat().map((e) => [e.rule, e])).values(),
  ];
  const union = (lists: ReadonlyArray<readonly string[]>): string[] => [...new Set(lists.flat())].sort();
  return {
    file: head.file,
    passed: gates.every((g) => g.passed),
    knownFailures: byRule(gates.map((g) => g.knownFailures)),
    unexpectedFailures: union(gates.map((g) => g.unexpectedFailures)),
    unexpectedPasses: union(gates.map((g) => g.unexpectedPasses)),
    expired: byRule(gates.map((g) => g.expired)),
  };
}
