import fc from 'fast-check';

export interface SnowflakeConstraints {
  /** Digits, 1 to 20 (default 19, as most snowflakes are). */
  minLength?: number;
  maxLength?: number;
}

/** A Snowflake: a string of decimal digits (spec §2.1). */
export function snowflake(constraints: SnowflakeConstraints = {}): fc.Arbitrary<string> {
  const { minLength = 19, maxLength = 19 } = constraints;
  return fc
    .tuple(
      fc.integer({ min: 1, max: 9 }),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: minLength - 1, maxLength: maxLength - 1 }),
    )
    .map(([head, tail]) => `${head}${tail.join('')}`);
}
