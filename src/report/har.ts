/**
 * Every exchange of a run as HAR 1.2 (reports/exchanges.har), for a browser's
 * devtools or any HAR viewer. Exchanges arrive already redacted from the
 * client; bodies are cut at a size a viewer opens comfortably, and past a
 * number of entries only a count is kept, so a run over a million resources
 * does not write gigabytes.
 */
import type { Exchange } from '../core/exchange.ts';

/**
 * A body is kept whole up to the recording's own cut (64 KiB), so the run can
 * be judged again from it, while the bodies kept so far stay under a budget;
 * past it, a body is cut at what a viewer opens comfortably. Either cut is
 * marked (`_cut`): a judge cannot read a cut body.
 */
const WHOLE_BODY_LIMIT = 64 * 1024;
const BODY_BUDGET = 32 * 1024 * 1024;
const VIEWER_BODY_LIMIT = 16 * 1024;
const ENTRY_LIMIT = 50_000;

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment: string;
  /** HAR allows fields starting with `_`: the rule that sent the request and its step, for judging it again. */
  _rule: string;
  _step?: string;
  /** A property's run the exchange belongs to. */
  _run?: number;
  /** Another rule's request whose answer this rule used: sent once, listed for each rule that judged it. */
  _shared?: true;
  /** The statuses of earlier attempts of the request, oldest first (the client repeats some). */
  _earlierStatuses?: number[];
  /** The answer's body is cut here (`content.text` is its first part): a judge cannot read it whole. */
  _cut?: true;
}

/** An entry as another run's exchanges.har holds it (merge): kept as it is. */
export interface RecordedHarEntry {
  readonly startedDateTime?: string;
}

export class HarRecorder {
  private readonly entries: RecordedHarEntry[] = [];
  private left = 0;
  private bodyChars = 0;

  constructor(private readonly fallbackStart: string) {}

  /** Entries of other runs' HAR files (shards being merged), in the order given, and how many they left out. */
  addRecorded(entries: readonly RecordedHarEntry[], leftOut = 0): void {
    const room = Math.max(0, ENTRY_LIMIT - this.entries.length);
    this.entries.push(...entries.slice(0, room));
    this.left += leftOut + Math.max(0, entries.length - room);
  }

  add(ruleId: string, e: Exchange): void {
    if (this.entries.length >= ENTRY_LIMIT) {
      this.left += 1;
      return;
    }
    const headers = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));
    const limit = this.bodyChars < BODY_BUDGET ? WHOLE_BODY_LIMIT : VIEWER_BODY_LIMIT;
    const cut = (text: string) => (text.length > limit ? text.slice(0, limit) : text);
    this.bodyChars += Math.min(limit, e.request.body.length) + Math.min(limit, e.response?.body.length ?? 0);
    const entry: HarEntry = {
      startedDateTime: e.startedAt ?? this.fallbackStart,
      time: e.durationMs,
      request: {
        method: e.request.method,
        url: e.request.url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headers(e.request.headers),
        queryString: [],
        postData: { mimeType: 'application/json', text: cut(e.request.body) },
        headersSize: -1,
        bodySize: Buffer.byteLength(e.request.body),
      },
      response: e.response
        ? {
            status: e.response.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headers(e.response.headers),
            content: {
              size: Buffer.byteLength(e.response.body),
              mimeType: e.response.headers['content-type'] ?? 'application/octet-stream',
              text: cut(e.response.body),
            },
            redirectURL: e.response.headers.location ?? '',
            headersSize: -1,
            bodySize: -1,
          }
        : {
            // No answer (a reset, a timeout): HAR's convention for a request that got none.
            status: 0,
            statusText: `${e.error.code}: ${e.error.message}`,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            content: { size: 0, mimeType: 'x-unknown' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
      cache: {},
      timings: { send: 0, wait: e.durationMs, receive: 0 },
      comment: e.shared
        ? `${ruleId} (shared: the answer to an earlier request, not sent again)`
        : `${ruleId} (${e.attempts} attempt${e.attempts === 1 ? '' : 's'})`,
      _rule: ruleId,
      ...(e.step !== undefined ? { _step: e.step } : {}),
      ...(e.run !== undefined ? { _run: e.run } : {}),
      ...(e.shared ? { _shared: true as const } : {}),
      ...(e.earlierAttempts?.some((a) => a.status !== undefined)
        ? { _earlierStatuses: e.earlierAttempts.flatMap((a) => (a.status === undefined ? [] : [a.status])) }
        : {}),
      ...(e.response && (e.response.truncated || e.response.body.length > limit) ? { _cut: true as const } : {}),
    };
    this.entries.push(entry);
  }

  render(tool: { name: string; version: string }): string {
    return JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: tool.name, version: tool.version },
        entries: this.entries,
        ...(this.left > 0 ? { comment: `${this.left} later exchanges not kept` } : {}),
      },
    });
  }
}
