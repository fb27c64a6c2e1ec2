/**
 * Progress on long runs. In a terminal: one live line (rules done / total,
 * current rule, requests per second, failures so far). Elsewhere (CI), or
 * with --verbose: a line per rule, in the order the rules started (the
 * catalogue's, but for the rules the engine keeps for last), each printed
 * once it and every rule started before it have ended, so the output reads
 * the same whatever the concurrency; and a heartbeat when nothing was printed
 * for a few seconds, so a run is never silent.
 */
import type { RuleResult } from '../core/types.ts';
import type { Rule } from '../rules/types.ts';

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
  private readonly since = performance.now();
  /** Rules started, in order, and the result of each that ended; lines up to `printed` are out. */
  private readonly started: string[] = [];
  private readonly ended = new Map<string, RuleResult>();
  private printed = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly total: number,
    private readonly sink: ProgressSink,
    heartbeatMs = 5_000,
  ) {
    this.timer = setInterval(() => this.heartbeat(heartbeatMs), Math.min(1_000, heartbeatMs));
    this.timer.unref();
  }

  ruleStarted(rule: Rule): void {
    this.current = rule.id;
    this.started.push(rule.id);
    this.render();
  }

  ruleEnded(result: RuleResult): void {
    this.done += 1;
    this.requests += result.requestCount;
    if (result.verdict === 'FAIL' || result.verdict === 'FLAKY' || result.verdict === 'ERROR') this.failures += 1;
    this.ended.set(result.ruleId, result);
    if (!this.sink.live) this.printInOrder();
    this.render();
  }

  /** Every line whose rule, and every rule started before it, has ended. */
  private printInOrder(): void {
    for (;;) {
      const id = this.started[this.printed];
      const result = id === undefined ? undefined : this.ended.get(id);
      if (result === undefined) return;
      this.printed += 1;
      this.print(ruleLine(result, this.printed, this.total));
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.sink.live?.('');
  }

  private rate(): string {
    const seconds = (performance.now() - this.since) / 1000;
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

/** `[  3/80] PASS       pagination.limit-respected (§4.9 rule 2, 3 req, 12 ms)`, and what failed or why not run. */
export function ruleLine(r: RuleResult, n: number, total: number): string {
  const v = r.violations[0];
  const detail = r.verdict === 'FAIL' && v ? ` — ${v.where}: ${v.message}` : r.reason ? ` — ${r.reason}` : '';
  return `[${String(n).padStart(String(total).length)}/${total}] ${r.verdict.padEnd(10)} ${r.ruleId} (${r.clause}, ${r.requestCount} req, ${r.durationMs} ms)${detail}`;
}
