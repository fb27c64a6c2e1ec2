/** JSON.parse's result is `any`: read as `unknown`, a value must be checked before it is used. */
const parse: (text: string) => unknown = JSON.parse;

/** The value a JSON text holds, or undefined when the text is empty or not JSON. */
export function parseJsonText(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}
