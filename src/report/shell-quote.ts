/** POSIX single quotes: nothing inside is expanded; an embedded quote closes, escapes and reopens. */
export function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A word left bare when the shell cannot misread it (ids, seeds, fast-check paths), quoted otherwise. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : singleQuote(text);
}
