import type { RunResult } from '../core/types.ts';
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
    summary: summarise(results, { strict: first.options.strict === true }),
  };
}
