/**
 * The first place two JSON values differ, by JSON path: what a model expected
 * and what the server showed, walked in the expected value's order (object
 * keys as the model lists them, then keys only the server shows).
 */
import type { StateDifference } from '../../core/types.ts';

/** `.name` when the key reads as an identifier, `["key"]` otherwise. */
function keyStep(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function difference(path: string, expected: unknown, shown: unknown): StateDifference | undefined {
  if (Array.isArray(expected) && Array.isArray(shown)) {
    for (let i = 0; i < Math.max(expected.length, shown.length); i++) {
      if (i >= expected.length) return { path: `${path}[${i}]`, shown: shown[i] };
      if (i >= shown.length) return { path: `${path}[${i}]`, expected: expected[i] };
      const inner = difference(`${path}[${i}]`, expected[i], shown[i]);
      if (inner) return inner;
    }
    return undefined;
  }
  if (isRecord(expected) && isRecord(shown)) {
    for (const key of [...Object.keys(expected), ...Object.keys(shown).filter((k) => !(k in expected))]) {
      const at = `${path}${keyStep(key)}`;
      if (!(key in shown)) return { path: at, expected: expected[key] };
      if (!(key in expected)) return { path: at, shown: shown[key] };
      const inner = difference(at, expected[key], shown[key]);
      if (inner) return inner;
    }
    return undefined;
  }
  if (JSON.stringify(expected) === JSON.stringify(shown)) return undefined;
  return {
    path,
    ...(expected !== undefined ? { expected } : {}),
    ...(shown !== undefined ? { shown } : {}),
  };
}

/** Undefined when the two are equal as JSON. */
export function firstDifference(expected: unknown, shown: unknown): StateDifference | undefined {
  return difference('$', expected, shown);
}
