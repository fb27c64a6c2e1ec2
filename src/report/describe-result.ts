import type { PropertyReplay, RuleResult, RunResult } from '../rules/types.ts';
import { toCurl } from './curl.ts';

export function show(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/** The command that reruns one rule, with the property's seed and path when there are some. */
export function replayCommand(r: RuleResult, run: Pick<RunResult, 'options' | 'target'>): string {
  const replay: PropertyReplay | undefined = r.replay;
  const args = ['npx directory-conformance run', ...(run.target.replayArgs ? [run.target.replayArgs] : []), `--rule ${r.ruleId}`];
  if (r.kind === 'property') {
    args.push(`--seed ${replay?.seed ?? run.options.seed}`);
    if (replay?.path) args.push(`--path '${replay.path}'`);
  }
  return args.join(' ');
}

/** Plain-text account of a failure: replay first, then the evidence (fast-check's order). */
export function failureText(r: RuleResult, run: Pick<RunResult, 'options' | 'target'>, maxExchanges = 3): string {
  const lines = [`Replay: ${replayCommand(r, run)}`];
  if (r.replay?.counterexample) lines.push(`Counterexample (after ${r.replay.numShrinks ?? 0} shrinks): ${r.replay.counterexample}`);
  lines.push('', `${r.ruleId} (${r.clause}): ${r.sentence}`, '');
  for (const v of r.violations) {
    lines.push(`- ${v.where}: ${v.message}`);
    if (v.expected !== undefined) lines.push(`    expected: ${show(v.expected)}`);
    if (v.actual !== undefined) lines.push(`    actual:   ${show(v.actual)}`);
  }
  const last = r.exchanges.slice(-maxExchanges);
  if (last.length > 0) {
    lines.push('', `Last ${last.length} of ${r.exchanges.length} exchanges (replay with curl):`);
    for (const e of last) {
      lines.push(`$ ${toCurl(e)}`);
      lines.push(e.response ? `  -> ${e.response.status} ${e.response.body.slice(0, 500)}` : `  -> ${e.error?.code}: ${e.error?.message}`);
    }
  }
  return lines.join('\n');
}
