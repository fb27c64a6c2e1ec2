/**
 * A HAR's entries as the reports keep exchanges, each text of them redacted:
 * a HAR recorded by another client than the suite holds the key itself
 * (the suite's own holds placeholders), and no report may. The secrets are
 * read from the HAR: every credential-like request header's value, and the
 * credential of an Authorization header, whatever its scheme.
 */
import { headerPlaceholder, secretHeader } from '../core/connection.ts';
import type { AnsweredExchange } from '../core/exchange.ts';
import { Redactor } from '../client/redact.ts';
import type { FileType } from '../schemas/files.ts';

type HarEntry = FileType<'HarFile'>['log']['entries'][number];

const PATH = '/api/directory/';

/** What the reports may show of a HAR. */
export interface RedactedHar {
  /** The entry at `index` (from 0) as an exchange, redacted; undefined past the last. */
  exchange(index: number): AnsweredExchange | undefined;
  /** The target the traffic went to: its first URL up to the operations' path. */
  readonly baseUrl: string;
  redact(text: string): string;
  redactValue<T>(value: T): T;
}

export function redactedHar(har: FileType<'HarFile'>): RedactedHar {
  const entries = har.log.entries;
  const redactor = redactorOf(entries);
  return {
    exchange: (index) => {
      const entry = entries[index];
      return entry ? exchangeOf(entry, redactor) : undefined;
    },
    baseUrl: baseUrlOf(entries, redactor),
    redact: (text) => redactor.redact(text),
    redactValue: (value) => redactor.redactValue(value),
  };
}

/** The HAR's secrets: each credential-like request header's value, and an Authorization's credential apart. */
function redactorOf(entries: readonly HarEntry[]): Redactor {
  const redactor = new Redactor();
  for (const entry of entries) learnSecrets(redactor, entry.request.headers);
  return redactor;
}

/**
 * The secrets of one request's headers, taught to `redactor`: each
 * credential-like header's value, and an Authorization's credential apart
 * (the proxy teaches its redactor each request's as it passes).
 */
export function learnSecrets(redactor: Redactor, headers: ReadonlyArray<{ name: string; value: string }>): void {
  for (const { name, value } of headers) {
    // The suite's own HAR holds placeholders already.
    if (!secretHeader(name) || value.includes('$DIRECTORY_')) continue;
    if (name.toLowerCase() !== 'authorization') {
      redactor.add(value, headerPlaceholder(name));
      continue;
    }
    // The scheme stays readable ("Bearer $DIRECTORY_API_KEY"); the credential after it is the secret.
    redactor.add(value.replace(/^\S+\s+/, ''), '$DIRECTORY_API_KEY');
  }
}

/** A HAR entry as a report's exchange, every text of it redacted. */
function exchangeOf(entry: HarEntry, redactor: Redactor): AnsweredExchange {
  const url = redactor.redact(entry.request.url);
  const path = url.replace(/[?#].*$/, '');
  return {
    operation: path.slice(path.lastIndexOf('/') + 1),
    ...(entry.startedDateTime !== undefined ? { startedAt: entry.startedDateTime } : {}),
    request: {
      method: 'POST',
      url,
      headers: Object.fromEntries(entry.request.headers.map((h) => [h.name, redactor.redact(h.value)])),
      body: redactor.redact(entry.request.postData?.text ?? ''),
    },
    response: {
      status: entry.response.status,
      headers: {},
      body: redactor.redact(entry.response.content?.text ?? ''),
      truncated: entry._cut === true,
    },
    durationMs: entry.time ?? 0,
    attempts: 1 + (entry._earlierStatuses?.length ?? 0),
    ...(entry._rule !== undefined ? { rule: entry._rule } : {}),
    ...(entry._step !== undefined ? { step: entry._step } : {}),
  };
}

/** The target the traffic went to: its URLs up to the operations' path. */
function baseUrlOf(entries: readonly HarEntry[], redactor: Redactor): string {
  const url = entries[0]?.request.url;
  if (url === undefined) return '(no exchange recorded)';
  const at = url.indexOf(PATH);
  return redactor.redact(at >= 0 ? url.slice(0, at) : new URL(url).origin);
}
