/**
 * Every exchange of a run as HAR 1.2 (reports/exchanges.har), for a browser's
 * devtools or any HAR viewer. Exchanges arrive already redacted from the
 * client; bodies are cut at a size a viewer opens comfortably, and past a
 * number of entries only a count is kept, so a run over a million resources
 * does not write gigabytes.
 */
import type { Exchange } from '../core/exchange.ts';

const BODY_LIMIT = 16 * 1024;
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
}

/** An entry as another run's exchanges.har holds it (merge): kept as it is. */
export interface RecordedHarEntry {
  readonly startedDateTime: string;
}

export class HarRecorder {
  private readonly entries: RecordedHarEntry[] = [];
  private left = 0;

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
    const cut = (text: string) => (text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text);
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
      comment: `${ruleId} (${e.attempts} attempt${e.attempts === 1 ? '' : 's'})`,
      _rule: ruleId,
      ...(e.step !== undefined ? { _step: e.step } : {}),
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
