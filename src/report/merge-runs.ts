import type { RunResult, RunSelection } from '../core/types.ts';
import { summarise } from '../core/summarise.ts';

/** One run from the runs of shards: results side by side, the summary computed again. */
export function mergeRuns(runs: readonly RunResult[]): RunResult {
  const first = runs[0]!;
  const results = runs.flatMap((r) => r.results);
  return {
    tool: first.tool,
    target: first.target,
    options: first.options,
    startedAt: runs.map((r) => r.startedAt).sort()[0]!,
    finishedAt: runs
      .map((r) => r.finishedAt)
      .sort()
      .at(-1)!,
    results,
    summary: summarise(results, first.options),
    requests: {
      total: results.reduce((sum, r) => sum + r.requestCount, 0),
      budget: first.requests?.budget ?? null,
    },
    // The whole run the shards were dealt from; no shard of it any longer.
    ...(first.selection ? { selection: withoutShard(first.selection) } : {}),
  };
}

function withoutShard(selection: RunSelection): RunSelection {
  const { shard: _shard, ...rest } = selection;
  return rest;
}
