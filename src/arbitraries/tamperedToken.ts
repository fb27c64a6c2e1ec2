import fc from 'fast-check';

/**
 * Ways to alter a real next_token: any result differs from the token, so a
 * server must refuse it (§4.9 rule 6). The arbitrary yields a function, applied
 * to the token once it is known.
 */
export function tamperedToken(): fc.Arbitrary<{ name: string; apply: (token: string) => string }> {
  const flip = fc.nat().map((n) => ({
    name: `flip character ${n}`,
    apply: (t: string) => {
      const i = n % t.length;
      const c = t[i] === 'A' ? 'B' : 'A';
      return t.slice(0, i) + c + t.slice(i + 1);
    },
  }));
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
