import fc from 'fast-check';

/**
 * Ways to alter a real next_token: any result differs from the token, so a
 * server must refuse it (§4.9 rule 6). The arbitrary yields a function, applied
 * to the token once it is known.
 *
 * A character flipped is never the last one before any `=` padding: in
 * base64 (how most servers write a token) the last character of a length
 * that is not a multiple of four carries bits no byte keeps, and a decoder
 * that ignores them, as Node's and most do, reads the same token. A server
 * that accepts it has not accepted a token built by hand.
 */
export function tamperedToken(): fc.Arbitrary<{ name: string; apply: (token: string) => string }> {
  const flip = fc.nat().map((n) => ({ name: `flip character ${n}`, apply: (t: string) => flipped(t, n) }));
  const cut = fc.integer({ min: 1, max: 8 }).map((n) => ({
    name: `drop the last ${n} characters`,
    apply: (t: string) => (t.length > n ? t.slice(0, t.length - n) : `${t}~`),
  }));
  const append = fc
    .string({ minLength: 1, maxLength: 4 })
    .map((s) => ({ name: `append ${JSON.stringify(s)}`, apply: (t: string) => t + s }));
  const offset = fc.nat({ max: 1000 }).map((n) => ({
    name: `base64 offset ${n}`,
    apply: () => Buffer.from(JSON.stringify({ offset: n })).toString('base64'),
  }));
  return fc.oneof(flip, cut, append, offset);
}

/** `token` with one character changed, the `n`-th (modulo) of those before its last one and any `=` padding. */
export function flipped(token: string, n: number): string {
  const significant = token.replace(/=+$/, '').length - 1;
  const i = significant > 0 ? n % significant : 0;
  const c = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + c + token.slice(i + 1);
}
