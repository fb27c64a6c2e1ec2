import fc from 'fast-check';

type Tampering = { name: string; apply: (token: string) => string };

/** The kinds of alteration: a character flipped, the end cut, characters appended, a token built by hand. */
function kinds(): [fc.Arbitrary<Tampering>, fc.Arbitrary<Tampering>, fc.Arbitrary<Tampering>, fc.Arbitrary<Tampering>] {
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
  return [flip, cut, append, offset];
}

/**
 * Ways to alter a real next_token: any result differs from the token, so a
 * server must refuse it (§4.9 rule 6). The arbitrary yields a function, applied
 * to the token once it is known.
 */
export function tamperedToken(): fc.Arbitrary<Tampering> {
  return fc.oneof(...kinds());
}

/**
 * One alteration of each kind: a run that sends its judged request several
 * times sends each kind in turn, so a server that accepts one kind only is
 * found in every run, not only in the runs that happen to draw that kind.
 */
export function tamperingsOfEachKind(): fc.Arbitrary<Tampering[]> {
  return fc.tuple(...kinds());
}
