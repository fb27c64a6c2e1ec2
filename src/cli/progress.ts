/**
 * Progress on long runs. In a terminal: one live line (rules done / total,
 * current rule, requests per second, failures so far). Elsewhere (CI): a plain
 * line per finished rule group, and a heartbeat when nothing was printed for a
 * few seconds, so a run is never silent.
 */
import type { RuleResult } from '../core/types.ts';
import type { Rule, RuleGroup } from '../rules/types.ts';

export interface ProgressSink {
  /** Replaces the live line (terminal only). */
  live?(text: string): void;
  line(text: string): void;
}

export class Progress {
  private done = 0;
  private failures = 0;
  private requests = 0;
  private current = '';
  private lastPrint = performance.now();
  private readonly started = performance.now();
  private readonly remaining = new Map<string, number>();
  private readonly groupResults = new Map<string, RuleResult[]>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly total: number,
    groups: readonly RuleGroup[],
    private readonly sink: ProgressSink,
    heartbeatMs = 5_000,
  ) {
    for (const g of groups) this.remaining.set(g.title, g.rules.length);
    this.timer = setInterval(() => this.heartbeat(heartbeatMs), Math.min(1_000, heartbeatMs));
    this.timer.unref();
  }

  ruleStarted(rule: Rule): void {
    this.current = rule.id;
    this.render();
  }

  ruleEnded(result: RuleResult): void {
    this.done += 1;
    this.requests += result.requestCount;
    if (result.verdict === 'FAIL' || result.verdict === 'FLAKY' || result.verdict === 'ERROR') this.failures += 1;
    const list = [...(this.groupResults.get(result.group) ?? []), result];
    this.groupResults.set(result.group, list);
    const left = (this.remaining.get(result.group) ?? 1) - 1;
    this.remaining.set(result.group, left);
    if (!this.sink.live && left === 0) this.print(groupLine(result.group, list));
    this.render();
  }

  stop(): void {
    clearInterval(this.timer);
    this.sink.live?.('');
  }

  private rate(): string {
    const seconds = (performance.now() - this.started) / 1000;
    return seconds > 0 ? (this.requests / seconds).toFixed(0) : '0';
  }

  private render(): void {
    this.sink.live?.(`[${this.done}/${this.total}] ${this.current}  ${this.rate()} req/s  ${this.failures} failing`);
  }

  private heartbeat(ms: number): void {
    if (this.sink.live) return this.render();
    if (performance.now() - this.lastPrint >= ms)
      this.print(`… ${this.done}/${this.total} rules done, running ${this.current}, ${this.rate()} req/s`);
  }

  private print(text: string): void {
    this.lastPrint = performance.now();
    this.sink.line(text);
  }
}

function groupLine(group: string, results: RuleResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const summary = [...counts].map(([v, n]) => `${n} ${v}`).join(', ');
  const failing = results
    .filter((r) => r.verdict === 'FAIL' || r.verdict === 'FLAKY' || r.verdict === 'ERROR')
    .map((r) => `${r.verdict} ${r.ruleId}`);
  return `${results[0]?.section ?? ''} ${group}: ${summary}${failing.length ? ` — ${failing.join(', ')}` : ''}`;
}
