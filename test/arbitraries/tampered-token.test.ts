/**
 * A tampered token is another token, not the same one written otherwise: a
 * flipped character of a base64 token changes the bytes it decodes to, so a
 * server that decodes leniently (the spare bits of the last character
 * ignored, as Node does) still must refuse it, and a server is never failed
 * for accepting the token it gave.
 */
import { expect, test } from 'vitest';
import { flipped } from '../../src/arbitraries/tamperedToken.ts';

test('every flip of a base64 or base64url token of any length decodes to other bytes', () => {
  for (let length = 1; length <= 40; length++) {
    const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 37 + 11) % 256));
    for (const encoding of ['base64', 'base64url'] as const) {
      const token = bytes.toString(encoding);
      for (let n = 0; n < token.length + 3; n++) {
        const other = flipped(token, n);
        expect(other).not.toBe(token);
        expect(Buffer.from(other, encoding).equals(bytes), `${encoding} ${token} flipped at ${n}: ${other}`).toBe(
          false,
        );
      }
    }
  }
});

test('a token of one character is still changed', () => {
  expect(flipped('A', 5)).toBe('B');
  expect(flipped('x', 0)).toBe('A');
});
