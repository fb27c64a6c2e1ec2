/**
 * Server text is hostile: it may carry characters that XML 1.0 cannot hold
 * (C0 controls other than tab, line feed and carriage return; U+FFFE, U+FFFF;
 * unpaired surrogates) and that HTML treats as parse errors. Controls become
 * their Unicode "control pictures" (U+2400 block), so a reader still sees
 * which byte the server sent; the rest become U+FFFD.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
const NOT_A_CHARACTER = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;

export function printable(text: string): string {
  return text.replace(CONTROL, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0))).replace(NOT_A_CHARACTER, '\uFFFD');
}
