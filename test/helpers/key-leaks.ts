/**
 * Where a key shows in a text, in any form a server or the suite could have
 * put it in. Found by decoding, not by encoding the key the way the redactor
 * does: each run of base64 or hex characters is decoded (at each of its
 * alignments) and searched for the key's bytes, and percent escapes are
 * decoded; a form the redactor missed is found however it was made.
 */
export function keyLeaks(text: string, key: string): string[] {
  // JSON string escapes undone again and again (a key escaped inside a string inside a string), each level searched.
  const levels = [text];
  for (let i = 0; i < 4; i++) levels.push(jsonUnescaped(levels[levels.length - 1] ?? ''));
  return [
    ...new Set(
      levels.flatMap((level, depth) => leaksIn(level, key).map((f) => (depth ? `${f} (JSON-unescaped ${depth}x)` : f))),
    ),
  ];
}

/** One level of JSON string escapes undone wherever they stand (`\"`, `\\`, `\/`, `\n`…, `\u00e9`). */
function jsonUnescaped(text: string): string {
  const simple: Record<string, string> = {
    '"': '"',
    '\\': '\\',
    '/': '/',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
  };
  return text.replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, (_, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (simple[e] ?? e),
  );
}

function leaksIn(text: string, key: string): string[] {
  const found: string[] = [];
  const json = JSON.stringify(key).slice(1, -1);
  for (const form of [key, json, JSON.stringify(json).slice(1, -1)]) {
    if (text.includes(form)) found.push(`as typed or JSON-escaped: ${form}`);
  }
  const bytes = Buffer.from(key);
  // Percent escapes (and + for a space in a form) decoded, whatever the case of their hex digits.
  for (const run of text.match(/[^\s"'<>\\]*%[0-9A-Fa-f]{2}[^\s"'<>\\]*/g) ?? []) {
    for (const decoded of [percentDecoded(run), percentDecoded(run.replace(/\+/g, ' '))]) {
      if (decoded.includes(key)) found.push(`percent-encoded: ${run}`);
    }
  }
  for (const run of text.match(/[0-9A-Fa-f]{8,}/g) ?? []) {
    for (const shift of [0, 1]) {
      if (Buffer.from(run.slice(shift), 'hex').includes(bytes)) found.push(`in hex: ${run}`);
    }
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/');
    for (const shift of [0, 1, 2, 3]) {
      if (Buffer.from(standard.slice(shift), 'base64').includes(bytes)) found.push(`in base64: ${run}`);
    }
  }
  return found;
}

/** decodeURIComponent, escape by escape: a stray `%` or a cut UTF-8 sequence stays as it is. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
}
