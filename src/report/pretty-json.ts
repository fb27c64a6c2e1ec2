/**
 * Indents a JSON text without parsing its values: JSON.parse followed by
 * JSON.stringify would turn 12345678901234567890 into 12345678901234567000 and
 * 1e999 into null, and a report must show what the server sent. Text that is
 * not JSON comes back unchanged.
 */
export function prettyJson(text: string): string {
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = (): string => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charAt(i);
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const next = nextSignificant(text, i + 1);
      if (text[next] === close) {
        out += c + close;
        i = next;
      } else {
        depth += 1;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth -= 1;
      out += newline() + c;
    } else if (c === ',') {
      out += c + newline();
    } else if (c === ':') {
      out += ': ';
    } else {
      out += c;
    }
  }
  return out;
}

function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length && /[ \t\n\r]/.test(text.charAt(i))) i += 1;
  return i;
}
