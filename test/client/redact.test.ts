/**
 * The redactor finds a key in every form it can take in text: typed, in
 * basic credentials, escaped inside a JSON string, percent-encoded in a URL
 * or a form, in hex, in base64 of any text that holds it; and inside a JSON
 * value, in a string that itself holds an escaped key.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { Redactor } from '../../src/client/redact.ts';
import { KEY_ENCODINGS, KEY_ENCODING_NAMES } from '../../src/hostile-server/key-encodings.ts';
import { keyLeaks } from '../helpers/key-leaks.ts';

const KEY = 'k3y"q\\b/s+p&a=e%25 é';

function redactor(): Redactor {
  const r = new Redactor();
  r.add(KEY, '$DIRECTORY_API_KEY');
  return r;
}

test('every form of the key is replaced by the placeholder', () => {
  const json = JSON.stringify(KEY).slice(1, -1);
  const forms = [
    KEY,
    Buffer.from(`:${KEY}`).toString('base64'),
    json,
    json.replace(/\//g, '\\/'),
    json.replace('é', '\\u00e9'),
    encodeURIComponent(KEY),
    encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    encodeURIComponent(KEY).replace(/%20/g, '+'),
  ];
  for (const form of forms) expect(redactor().redact(`before ${form} after`)).toBe('before $DIRECTORY_API_KEY after');
});

test('a key escaped in a JSON string inside a JSON string, and deeper, in each way serialisers escape, is redacted', () => {
  // A gateway wrapping an upstream error whose message echoed the credential: {"detail": "{\"auth\": \"Bearer …\"}"}
  const styles = [
    (t: string) => JSON.stringify(t).slice(1, -1),
    (t: string) => JSON.stringify(t).slice(1, -1).replace(/\//g, '\\/'),
    (t: string) => JSON.stringify(t).slice(1, -1).replace('é', '\\u00e9'),
  ];
  for (const style of styles) {
    let form = KEY;
    for (let depth = 1; depth <= 3; depth++) {
      form = style(form);
      // Written into a JSON body once more, as the server sends it: escaped depth + 1 times in all.
      const text = JSON.stringify({ detail: `{"auth": "Bearer ${form}"}` });
      const out = redactor().redact(text);
      expect(keyLeaks(out, KEY), `escaped ${depth} times: ${out}`).toEqual([]);
      expect(out).toContain('$DIRECTORY_API_KEY');
    }
  }
  // The leak finder sees such a key when nothing redacts it: the check above can fail.
  const twice = styles[0]!(styles[0]!(KEY));
  expect(keyLeaks(`{"detail": "${twice}"}`, KEY)).not.toEqual([]);
});

test('a JSON value keeps no form of the key, even a body text holding it escaped', () => {
  const body = JSON.stringify({ message: `refused for Bearer ${KEY}` });
  const value = { actual: `401 ${body}`, [KEY]: [KEY, 1, null] };
  const text = JSON.stringify(redactor().redactValue(value));
  expect(text).not.toContain('k3y');
  expect(JSON.parse(text)).toEqual({
    actual: '401 {"message":"refused for Bearer $DIRECTORY_API_KEY"}',
    $DIRECTORY_API_KEY: ['$DIRECTORY_API_KEY', 1, null],
  });
});

test('characters that mean something in a regular expression are matched as themselves', () => {
  const key = 'a.b*c?d(e)f[g]h{i}j|k^l$m\\n/o+p';
  const r = new Redactor();
  r.add(key, '$K');
  for (const form of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)])
    expect(r.redact(`x${form}y`)).toBe('x$Ky');
  // Look-alikes the pattern would match were the characters not escaped stay as they are.
  const alike = 'aXbbbcdefghijkl';
  expect(r.redact(alike)).toBe(alike);
});

test('a text with no form of any key is returned as it is, and a redactor without keys changes nothing', () => {
  const text = JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ id: String(i), label: 'k3y' })) });
  expect(redactor().redact(text)).toBe(text);
  expect(new Redactor().redact(`${KEY} k3y`)).toBe(`${KEY} k3y`);
});

test('each encoding of a text that holds the key, at any offset, keeps no trace of the key', () => {
  for (const encoding of KEY_ENCODING_NAMES) {
    for (const before of ['', ':', 'u:', 'user:', 'Bearer ', '{"token":"']) {
      const encoded = KEY_ENCODINGS[encoding](`${before}${KEY}"}`);
      const redacted = redactor().redact(`seen ${encoded} here`);
      expect(keyLeaks(redacted, KEY), `${encoding} after ${JSON.stringify(before)}`).toEqual([]);
      expect(redacted).toContain('$DIRECTORY_API_KEY');
    }
  }
});

/** Printable ASCII, the characters an API key can carry in a header; no space at either end (a header's value is trimmed). */
const printableKey = fc
  .string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 8,
    maxLength: 40,
  })
  .filter((k) => k.trim() === k);

test('property: a key of any printable characters, echoed in any encoding inside any text, is redacted', () => {
  fc.assert(
    fc.property(
      printableKey,
      fc.constantFrom(...KEY_ENCODING_NAMES),
      fc.string({ maxLength: 7 }),
      fc.string({ maxLength: 7 }),
      (key, encoding, before, after) => {
        const r = new Redactor();
        r.add(key, '$K');
        const redacted = r.redact(`<${KEY_ENCODINGS[encoding](`${before}${key}${after}`)}>`);
        expect(keyLeaks(redacted, key)).toEqual([]);
      },
    ),
    { numRuns: 500 },
  );
});

test('the base64 run that holds a middle of the key is replaced whole; a short piece of it is left alone', () => {
  const r = redactor();
  // The base64 forms of a key are the stable middles: the edges of a longer text's encoding are not searched for.
  const text = Buffer.from(`x${KEY}`).toString('base64');
  expect(r.redact(text)).toBe('$DIRECTORY_API_KEY');
  expect(r.redact(text.slice(0, 6))).toBe(text.slice(0, 6));
});
