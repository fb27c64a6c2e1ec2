/**
 * A duration as a user types it (`--max-time 15m`): a whole number and a
 * unit, ms, s, m or h (the run configuration's schema lets no other form
 * through).
 */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** The duration in milliseconds, or undefined when `text` is not one. */
export function durationMs(text: string): number | undefined {
  const match = /^([1-9][0-9]*)(ms|s|m|h)$/.exec(text);
  const [, amount, unit] = match ?? [];
  const scale = unit === undefined ? undefined : UNIT_MS[unit];
  return amount === undefined || scale === undefined ? undefined : Number(amount) * scale;
}
