/**
 * A client that is not the suite: `fetch`, each exchange written down as a
 * HAR 1.2 entry as a browser's devtools or a proxy records it, with the key
 * itself in its Authorization header and none of the suite's tags (`_rule`,
 * `_step`, `_run`): the traffic `judge` must read without help.
 */
export interface PlainHarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    postData: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    headers: Array<{ name: string; value: string }>;
    content: { mimeType: string; text: string };
  };
}

export class PlainHarClient {
  readonly entries: PlainHarEntry[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** One request, recorded; its answer parsed when it is JSON. */
  post(operation: string, body: unknown): Promise<{ status: number; json: unknown }> {
    return this.send('POST', `/api/directory/${operation}`, JSON.stringify(body));
  }

  /** What a browser sends before a cross-origin POST (a CORS preflight), recorded as devtools records it. */
  preflight(operation: string): Promise<{ status: number; json: unknown }> {
    return this.send('OPTIONS', `/api/directory/${operation}`);
  }

  /** A page of the client itself, from the same host: no operation of the API. */
  page(path: string): Promise<{ status: number; json: unknown }> {
    return this.send('GET', path);
  }

  private async send(method: string, path: string, text = ''): Promise<{ status: number; json: unknown }> {
    const url = `${this.baseUrl}${path}`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${this.apiKey}` };
    const started = new Date();
    const res = await fetch(url, {
      method,
      headers,
      ...(method === 'GET' || method === 'OPTIONS' ? {} : { body: text }),
    });
    const answer = await res.text();
    this.entries.push({
      startedDateTime: started.toISOString(),
      time: Date.now() - started.getTime(),
      request: {
        method,
        url,
        httpVersion: 'HTTP/1.1',
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        postData: { mimeType: 'application/json', text },
      },
      response: {
        status: res.status,
        statusText: res.statusText,
        headers: [...res.headers].map(([name, value]) => ({ name, value })),
        content: { mimeType: res.headers.get('content-type') ?? '', text: answer },
      },
    });
    let json: unknown;
    try {
      json = JSON.parse(answer);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  }

  /** The recording, as a HAR file's text. */
  har(): string {
    return JSON.stringify({ log: { version: '1.2', creator: { name: 'plain', version: '1' }, entries: this.entries } });
  }
}
