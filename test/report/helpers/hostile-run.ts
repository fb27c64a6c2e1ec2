/**
 * Puts one piece of text in every field of a run that a server (or a user's
 * command line) can fill, so a test can render the same run with harmless and
 * with hostile text and compare the structure of the two reports.
 */
import fc from 'fast-check';
import type { Exchange } from '../../../src/core/exchange.ts';
import type { RunResult } from '../../../src/core/types.ts';

/** Markup, CDATA and comment terminators, script closers, quote characters, controls, surrogates. */
const PAYLOADS = [
  '</script>',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  ']]>',
  '<![CDATA[',
  '<!--',
  '-->',
  '"',
  "'",
  '&',
  '&amp;',
  '&#0;',
  '<',
  '>',
  '\u0000',
  '\u0008',
  '\uFFFE',
  '\uD800',
  '\uDC00',
  '\r\n',
  '</textarea>',
  '</title>',
  '</style>',
  '${x}',
  '`',
  '\u2028',
];

/** Non-empty (an empty reason or body is a different case, not a different text). */
export function hostileText(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.constantFrom(...PAYLOADS),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 8 }),
  );
  return fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
}

function exchangeWith(e: Exchange, text: string): Exchange {
  const request = {
    ...e.request,
    url: `${e.request.url}?${text}`,
    headers: { ...e.request.headers, 'x-echo': text },
    body: text,
  };
  return e.response
    ? { ...e, request, response: { ...e.response, headers: { ...e.response.headers, 'x-echo': text }, body: text } }
    : { ...e, request, error: { code: e.error.code, message: text } };
}

export function withServerText(run: RunResult, text: string): RunResult {
  return {
    ...run,
    target: { ...run.target, baseUrl: text, serviceVersion: text, profileName: text, replayArgs: text },
    results: run.results.map((r) => ({
      ...r,
      ...(r.reason !== undefined ? { reason: text } : {}),
      violations: r.violations.map((v) => ({ ...v, where: text, message: text, actual: text })),
      observations: r.observations.map(() => ({ subject: text, value: { echoed: text } })),
      exchanges: r.exchanges.map((e) => exchangeWith(e, text)),
      ...(r.replay ? { replay: { ...r.replay, counterexample: text } } : {}),
    })),
  };
}
