import type { Exchange } from '../core/exchange.ts';
import { singleQuote } from './shell-quote.ts';

/**
 * Placeholders the recorder writes instead of credentials (a credential-like
 * `--header` value is `$DIRECTORY_HEADER_<NAME>`). In a header they must stay
 * expandable, so the replay uses the user's own key. The lookahead
 * keeps `$DIRECTORY_API_KEY_X` from being read as one.
 */
const PLACEHOLDER =
  /(\$(?:DIRECTORY_API_KEY|DIRECTORY_RESTRICTED_API_KEY|DIRECTORY_HEADER_[A-Z0-9_]+))(?![A-Za-z0-9_])/;

/** Text that means the same inside double quotes in POSIX sh and in interactive bash (where `!` expands history). */
const SAME_IN_DOUBLE_QUOTES = /^[^"$`\\!]*$/;

/**
 * Headers curl adds on its own when the request names none. A recorded
 * request without them (a rule that drops Content-Type, say) replays
 * faithfully only if curl is told to leave them out.
 */
const CURL_DEFAULT_HEADERS = ['Accept', 'Content-Type'] as const;

/** Quotes `text` so the shell expands the placeholders in it and nothing else. */
export function quoteExpandingPlaceholders(text: string): string {
  // With a capturing group, split keeps the placeholders at the odd indexes.
  const pieces = text.split(PLACEHOLDER);
  if (pieces.length === 1) return singleQuote(text);
  const literals = pieces.filter((_, i) => i % 2 === 0);
  // The common case stays readable: "authorization: Bearer $DIRECTORY_API_KEY".
  if (literals.every((p) => SAME_IN_DOUBLE_QUOTES.test(p))) return `"${text}"`;
  return pieces.map((p, i) => (i % 2 === 1 ? `"${p}"` : p === '' ? '' : singleQuote(p))).join('');
}

/** curl drops a header given as "Name:"; an empty value is sent only as "Name;". */
function headerArgument(name: string, value: string): string {
  return quoteExpandingPlaceholders(value.trim() === '' ? `${name};` : `${name}: ${value}`);
}

/** curl's arguments for the recorded headers, credentials left to the shell's expansion. */
export function headerArguments(request: Exchange['request']): string[] {
  const args: string[] = [];
  const named = new Set(Object.keys(request.headers).map((n) => n.toLowerCase()));
  for (const [name, value] of Object.entries(request.headers)) {
    // curl asks for the codings it can undo and prints the answer decoded, as the suite read it.
    if (name.toLowerCase() === 'accept-encoding') args.push('--compressed');
    else args.push(`-H ${headerArgument(name, value)}`);
  }
  for (const name of CURL_DEFAULT_HEADERS)
    if (!named.has(name.toLowerCase())) args.push(`-H ${singleQuote(`${name}:`)}`);
  return args;
}

/** printf %b reads backslash escapes; every backslash is doubled and NUL becomes an octal escape. */
export function printfBinary(body: string): string {
  return body.replace(/\\/g, '\\\\').replace(/\0/g, '\\0000');
}

/**
 * A POSIX shell command that replays the request: the method, URL, every
 * recorded header (credentials stay `$DIRECTORY_API_KEY` and
 * `$DIRECTORY_RESTRICTED_API_KEY`, expanded by the shell) and the body byte
 * for byte. `-i` prints the status line, which is what most violations are about; an
 * Accept-Encoding becomes `--compressed`, so the answer prints decoded.
 */
export function toCurl(exchange: Exchange): string {
  const { request } = exchange;
  const args = [`curl -sS -i -X ${request.method} ${singleQuote(request.url)}`, ...headerArguments(request)];
  // A command-line argument cannot hold NUL: such a body goes through stdin.
  const binary = request.body.includes('\0');
  args.push(binary ? '--data-binary @-' : `--data-raw ${singleQuote(request.body)}`);
  const command = args.join(' \\\n  ');
  return binary ? `printf '%b' ${singleQuote(printfBinary(request.body))} | ${command}` : command;
}
