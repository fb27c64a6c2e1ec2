import type { Exchange } from '../client/exchange.ts';

/** Placeholders that stay expandable by the shell in a replayed command. */
const PLACEHOLDER = /\$(DIRECTORY_API_KEY|DIRECTORY_RESTRICTED_API_KEY)\b/;

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Double quotes, escaping everything the shell would expand except the placeholder variables. */
function withPlaceholder(text: string): string {
  const escaped = text.replace(/[\\"`]/g, (c) => `\\${c}`).replace(/\$(?!DIRECTORY_(?:RESTRICTED_)?API_KEY\b)/g, '\\$');
  return `"${escaped}"`;
}

/** A POSIX shell command that replays the request; credentials stay `$DIRECTORY_API_KEY`. */
export function toCurl(exchange: Exchange): string {
  const parts = ['curl', '-sS', '-X', 'POST', singleQuoted(exchange.request.url)];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    const header = `${name}: ${value}`;
    parts.push('-H', PLACEHOLDER.test(header) ? withPlaceholder(header) : singleQuoted(header));
  }
  parts.push('--data-raw', singleQuoted(exchange.request.body));
  return parts.join(' ');
}
