/**
 * What a list request asks for beside its kind, in a few words: the name the
 * judges give a walk's page (`resources.list page 2 (with_teams, limit 5)`),
 * and by which a reproducer finds the page a violation names again. In core,
 * so that the judges and the reports read one description.
 */

/** A field of a JSON object, undefined for anything else. */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Reflect.get(value, name) : undefined;
}

/** One filter as a page's name shows it: its key, with the attribute and text of a starts_with filter. */
function filterShown(filter: unknown): string {
  const key = field(filter, 'key');
  const value = field(filter, 'value');
  if (Array.isArray(value)) return `${String(key)} (${value.length})`;
  const attribute = field(value, 'attribute');
  const text = field(value, 'value');
  return typeof attribute === 'string' && typeof text === 'string'
    ? `${String(key)} ${attribute} ${JSON.stringify(text)}`
    : String(key);
}

/**
 * What a list request asks for beside its kind, in a few words: the inputs a
 * walk differs from the others by (its filters, orders, attributes, flags,
 * count, date and page size), e.g. "with_teams, limit 5".
 */
export function listRequestShown(request: unknown): string {
  const record = typeof request === 'object' && request !== null && !Array.isArray(request) ? request : {};
  const shown = Object.entries(record).flatMap(([key, value]): string[] => {
    if (key === 'kind_id') return [];
    if (key === 'pagination') return [`limit ${JSON.stringify(field(value, 'limit') ?? null)}`];
    if (key === 'filters' && Array.isArray(value)) return value.map(filterShown);
    if (key === 'orders' && Array.isArray(value)) {
      return [
        `orders ${value.map((o) => `${String(field(o, 'attribute'))} ${String(field(o, 'direction'))}`).join(', ')}`,
      ];
    }
    if (key === 'attributes' && Array.isArray(value)) return [`attributes ${value.map(String).join(', ')}`];
    return [value === true ? key : `${key} ${JSON.stringify(value)}`];
  });
  return shown.length > 0 ? shown.join(', ') : 'no option';
}
