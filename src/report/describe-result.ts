import type { Exchange } from '../core/exchange.ts';
import type { RuleResult, RunResult } from '../core/types.ts';
import { toCurl } from './curl.ts';
import { shellWord } from './shell-quote.ts';

/** Strings as they are (a message reads better without quotes), anything else as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/** At most `max` characters, saying how many were left out; never splits a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}\n… (${text.length - end} more characters)`;
}

/** The command that reruns one rule against the same target, with the property's seed and path when there are some. */
export function replayCommand(r: RuleResult, run: Pick<RunResult, 'options' | 'target'>): string {
  const args = [
    'npx directory-conformance run',
    ...(run.target.replayArgs ? [run.target.replayArgs] : []),
    `--rule ${shellWord(r.ruleId)}`,
  ];
  if (r.kind === 'property') {
    args.push(`--seed ${r.replay?.seed ?? run.options.seed}`);
    if (r.replay?.path) args.push(`--path ${shellWord(r.replay.path)}`);
    if (r.replay?.replayPath) args.push(`--replay-path ${shellWord(r.replay.replayPath)}`);
    // The depth decides the runs and the covering arrays the seed draws.
    if (run.options.depth !== undefined && run.options.depth !== 'default') args.push(`--depth ${run.options.depth}`);
    // Sequences are drawn within this bound: the path replays only under the same one.
    if (run.options.maxCommands !== undefined) args.push(`--max-commands ${run.options.maxCommands}`);
  }
  return args.join(' ');
}

/** One line on what came back: status and the start of the body, or the transport fault. */
export function responseLine(e: Exchange, maxBody = 500): string {
  if (!e.response) return `no response: ${e.error.code}: ${e.error.message}`;
  const body = e.response.body === '' ? '(empty body)' : clip(e.response.body, maxBody);
  return `${e.response.status} ${body}`;
}

export interface FailureTextOptions {
  /** Exchanges shown, counted from the last. */
  maxExchanges?: number;
  /** Longest expected or actual value shown. */
  maxValue?: number;
}

/**
 * Plain-text account of a FAIL or an ERROR for JUnit and terminals: what broke
 * (each violation, expected vs actual), how to replay it, then the last
 * exchanges as curl commands.
 */
export function failureText(
  r: RuleResult,
  run: Pick<RunResult, 'options' | 'target'>,
  opts: FailureTextOptions = {},
): string {
  const maxExchanges = opts.maxExchanges ?? 3;
  const maxValue = opts.maxValue ?? 2000;
  const lines = [`${r.ruleId} (${r.clause}, ${r.level}): ${r.sentence}`];
  if (r.verdict === 'ERROR')
    lines.push('', `Harness fault ${r.errorCode ?? 'DC_ERR_HARNESS'}: ${r.reason ?? 'no reason given'}`);
  else if (r.reason) lines.push('', r.reason);
  if (r.violations.length > 0) {
    lines.push('', `Violations (${r.violations.length}):`);
    for (const v of r.violations) {
      lines.push(`- ${v.where}: ${v.message}${v.foundBy ? ` (seen in the requests of ${v.foundBy})` : ''}`);
      if (v.expected !== undefined) lines.push(`    expected: ${clip(show(v.expected), maxValue)}`);
      if (v.actual !== undefined) lines.push(`    actual:   ${clip(show(v.actual), maxValue)}`);
    }
  }
  lines.push('', `Replay: ${replayCommand(r, run)}`);
  if (r.replay) {
    const p = r.replay;
    lines.push(
      `Property: seed ${p.seed}${p.path ? `, path ${p.path}` : ''}, ${p.numRuns} runs${p.numShrinks !== undefined ? `, ${p.numShrinks} shrinks` : ''}`,
    );
    if (p.counterexample) lines.push(`Counterexample: ${clip(p.counterexample, maxValue)}`);
  }
  const last = r.exchanges.slice(-maxExchanges);
  if (last.length > 0) {
    lines.push('', `Last ${last.length} of ${r.exchanges.length} exchanges (replay with curl):`);
    for (const e of last) lines.push(`$ ${toCurl(e)}`, `  -> ${responseLine(e)}`);
  }
  return lines.join('\n');
}
