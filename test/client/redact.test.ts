/**
 * The redactor finds a key in every form it can take in text: typed, in
 * basic credentials, escaped inside a JSON string, percent-encoded in a URL;
 * and inside a JSON value, in a string that itself holds an escaped key.
 */
import { expect, test } from 'vitest';
import { Redactor } from '../../src/client/redact.ts';

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
