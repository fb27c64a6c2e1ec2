/**
 * The message an error answer carries (§7: "a message describing the
 * problem"), under the names error formats commonly give it: what the errors
 * rules judge, and what a FAIL's reproducer script judges again.
 */

/** The message of an error body as a transcript recorded it (text), if it has one. */
export function recordedErrorMessage(bodyText: string): string | undefined {
  try {
    return messageIn(JSON.parse(bodyText));
  } catch {
    return undefined;
  }
}

/** A message describing the problem (§7), under the names error formats commonly give it. */
export function messageIn(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'detail', 'title', 'error', 'error_description']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'object' && value !== null) {
      const nested = (value as Record<string, unknown>).message;
      if (typeof nested === 'string' && nested.trim() !== '') return nested;
    }
  }
  return undefined;
}
