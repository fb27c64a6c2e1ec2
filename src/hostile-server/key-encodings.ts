/**
 * The ways a careless server may echo a credential back: typed, escaped in a
 * JSON string (once, or inside a string inside a string, as a gateway
 * wrapping an upstream error writes it), percent-encoded (as a URI component, a whole URI or a form
 * value; with upper- or lower-case escapes), in hex, in base64 and base64url.
 * The echoing proxy writes the key in each; the suite must redact them all.
 */
export const KEY_ENCODINGS = {
  typed: (text: string) => text,
  json: (text: string) => JSON.stringify(text).slice(1, -1),
  // A gateway wrapping an upstream error as a string field: the key escaped in a string inside a string.
  'json-twice': (text: string) => JSON.stringify(JSON.stringify(text).slice(1, -1)).slice(1, -1),
  'json-thrice': (text: string) =>
    JSON.stringify(JSON.stringify(JSON.stringify(text).slice(1, -1)).slice(1, -1)).slice(1, -1),
  'uri-component': (text: string) => encodeURIComponent(text),
  'uri-component-lower': (text: string) => lowerEscapes(encodeURIComponent(text)),
  uri: (text: string) => encodeURI(text),
  'uri-lower': (text: string) => lowerEscapes(encodeURI(text)),
  form: (text: string) => new URLSearchParams({ k: text }).toString().slice(2),
  'form-lower': (text: string) => lowerEscapes(new URLSearchParams({ k: text }).toString().slice(2)),
  hex: (text: string) => Buffer.from(text).toString('hex'),
  'hex-upper': (text: string) => Buffer.from(text).toString('hex').toUpperCase(),
  base64: (text: string) => Buffer.from(text).toString('base64'),
  base64url: (text: string) => Buffer.from(text).toString('base64url'),
} as const satisfies Record<string, (text: string) => string>;

export type KeyEncoding = keyof typeof KEY_ENCODINGS;

export const KEY_ENCODING_NAMES = Object.keys(KEY_ENCODINGS).filter(
  (name): name is KeyEncoding => name in KEY_ENCODINGS,
);

function lowerEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
}
