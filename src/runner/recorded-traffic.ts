/**
 * Traffic recorded as HAR, read back as the evidence judges read: each
 * answered entry as an Observed exchange, with the rule, step and property
 * run the suite's own HAR tags it with (`_rule`, `_step`, `_run`), whether it
 * was another rule's answer shared (`_shared`) and whether its body is cut
 * (`_cut`: a judge cannot read a cut body whole). Entries that got no answer
 * (status 0) hold nothing to judge, nor do another client's requests that
 * call no operation of the API.
 */
import { parseJsonText } from '../core/json-text.ts';
import { credentialOfHeader, recordedSpan, type Observed } from '../rules/judges/observed.ts';
import type { FileType } from '../schemas/files.ts';

export interface RecordedExchange {
  /** Its place among the HAR's entries, from 0: the reports find its request and answer there. */
  entry: number;
  /** The rule whose requests (or shared reads) it was; undefined for traffic the suite did not tag. */
  rule: string | undefined;
  /** The property run it belongs to. */
  run: number | undefined;
  shared: boolean;
  /** The recording holds only the first part of the answer's body. */
  cut: boolean;
  observed: Observed;
}

/** The operation a request was for: the last segment of its path (`…/resources.list`). */
function operationOf(url: string): string {
  const path = url.replace(/[?#].*$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * An untagged entry that is no call of an operation (`POST {base_url}/api/directory/<operation>`, §4):
 * another client's HAR holds a browser's CORS preflights, its pages and
 * scripts, and calls to other services, none of which the API answered.
 */
function notAnOperation(entry: FileType<'HarFile'>['log']['entries'][number]): boolean {
  if (entry._rule !== undefined) return false;
  const method = entry.request.method;
  return (
    (method !== undefined && method.toUpperCase() !== 'POST') ||
    !/\/api\/directory\/[^/?#]+(?:[?#]|$)/.test(entry.request.url)
  );
}

/**
 * The answered entries of a HAR, in its order, as judges read them;
 * `restrictedAs`: what the recording's Authorization headers carry for the
 * restricted key (another client's recording has no placeholder of ours).
 */
export function recordedExchanges(har: FileType<'HarFile'>, restrictedAs?: string): RecordedExchange[] {
  return har.log.entries.flatMap((entry, index): RecordedExchange[] => {
    if (entry.response.status === 0 || notAnOperation(entry)) return [];
    const operation = operationOf(entry.request.url);
    const text = entry.response.content?.text ?? '';
    const at = recordedSpan({ startedAt: entry.startedDateTime, durationMs: entry.time ?? 0 });
    return [
      {
        entry: index,
        rule: entry._rule,
        run: entry._run,
        shared: entry._shared === true,
        cut: entry._cut === true,
        observed: {
          operation,
          step: entry._step ?? operation,
          request: parseJsonText(entry.request.postData?.text ?? ''),
          status: entry.response.status,
          body: parseJsonText(text),
          text,
          earlierStatuses: entry._earlierStatuses ?? [],
          credential: credentialOfHeader(
            entry.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value,
            restrictedAs,
          ),
          ...(at ? { at } : {}),
        },
      },
    ];
  });
}
