import type { RunResult, RunSelection } from '../core/types.ts';

/** The options that chose the rules, as they were typed: `--section 4.9 --level MUST`. */
function selectionArgs(s: RunSelection): string[] {
  return [
    ...(s.sections ?? []).map((x) => `--section ${x}`),
    ...(s.rules ?? []).map((x) => `--rule ${x}`),
    ...(s.levels ?? []).map((x) => `--level ${x}`),
    ...(s.shard ? [`--shard ${s.shard.index}/${s.shard.count}`] : []),
  ];
}

/**
 * What a run was asked for, in words every report uses: "15 of 72 rules
 * (--section 4.9)" or "all 72 rules". The figures of a run are over its
 * selection, never the catalogue, so each report names it.
 */
export function describeSelection(run: Pick<RunResult, 'selection' | 'results'>): string {
  const selected = run.results.length;
  const s = run.selection;
  if (!s) return `${selected} rules`;
  const args = selectionArgs(s);
  if (args.length === 0 && selected === s.catalogueSize) return `all ${selected} rules of the catalogue`;
  return `${selected} of the ${s.catalogueSize} rules of the catalogue${args.length > 0 ? ` (${args.join(' ')})` : ''}`;
}
