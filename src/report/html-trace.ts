/**
 * The HTML of a model-based FAIL's failing sequence: each step's command with
 * the ids it sent, its request and the reads that judged it, the state the
 * model expected beside what the server showed, and their first difference.
 */
import type { Exchange } from '../core/exchange.ts';
import type { TraceStep } from '../core/types.ts';
import { clip, show } from './describe-result.ts';
import { escapeHtml as esc } from './html-escape.ts';

/** Longest state shown on each side; results.json keeps all of it. */
const MAX_STATE = 3000;

function state(label: string, cls: string, value: unknown): string {
  return `<div><b>${label}</b><pre class="${cls}">${esc(clip(JSON.stringify(value, null, 1) ?? show(value), MAX_STATE))}</pre></div>`;
}

function step(s: TraceStep, n: number, renderExchange: (e: Exchange) => string): string {
  const judged =
    s.expected !== undefined || s.shown !== undefined
      ? `<div class="states">${state('the model expected', 'model-expected', s.expected)}${state('the server showed', 'server-shown', s.shown)}</div>`
      : '';
  const d = s.difference;
  const difference = d
    ? `<p class="difference">first difference at <code class="path">${esc(d.path)}</code>: expected <code>${esc(d.expected === undefined ? '(nothing)' : show(d.expected))}</code>, shown <code>${esc(d.shown === undefined ? '(nothing)' : show(d.shown))}</code></p>`
    : '';
  return `<li class="trace-step${d ? ' departs' : ''}" data-step="${n}"><code class="command">${esc(s.command)}</code>
${s.exchanges.map(renderExchange).join('\n')}
${judged}${difference}</li>`;
}

/** Empty for a rule without a trace. */
export function renderTrace(trace: readonly TraceStep[] | undefined, renderExchange: (e: Exchange) => string): string {
  if (!trace || trace.length === 0) return '';
  const steps = trace.length === 1 ? '1 step' : `${trace.length} steps`;
  return `<div class="trace"><h4>The failing sequence, ${steps}</h4><ol>${trace.map((s, i) => step(s, i + 1, renderExchange)).join('\n')}</ol></div>`;
}
