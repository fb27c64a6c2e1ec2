/**
 * Typed views of JSON a check reads as the server sent it, before (or
 * instead of) a schema: rules about a field's exact value (a Redacted marker,
 * an open point they only record) must see what a schema would refuse.
 */

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object itself, or an empty one when the value is not a JSON object. */
export function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** The items of a JSON array as objects (an item that is not one reads as empty, so indices stay); [] for anything else. */
export function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(recordOf) : [];
}
