/**
 * In-memory state with ordered indexes. Pages are read from an index sorted by
 * the requested order (id last, as the tie-breaker) with a binary search to
 * the keyset position, so a page costs the same at any collection size.
 */
import { generateDetails, type Domain } from './generate-domain.ts';
import type { Kind, Resource, ResourceDetails, Role, Team } from './model.ts';

export interface OrderKey {
  attribute: string;
  descending: boolean;
  /** Variant 'locale-collation': compare with a case-insensitive locale collation instead of code units. */
  locale?: boolean;
}

const COLLATOR = new Intl.Collator('en', { sensitivity: 'base' });

export class Store {
  readonly resourcesById = new Map<string, Resource>();
  readonly kindsById = new Map<string, Kind>();
  readonly rolesById = new Map<string, Role>();
  readonly teamsById = new Map<string, Team>();
  private readonly byKind = new Map<string, Resource[]>();
  private readonly details = new Map<string, ResourceDetails>();
  private readonly sortedIndexes = new Map<string, Resource[]>();

  constructor(readonly domain: Domain) {
    for (const k of domain.kinds) {
      this.kindsById.set(k.id, k);
      this.byKind.set(k.id, []);
    }
    for (const r of domain.roles) this.rolesById.set(r.id, r);
    for (const t of domain.teams) this.teamsById.set(t.id, t);
    for (const r of domain.resources) {
      this.resourcesById.set(r.id, r);
      const ofKind = this.byKind.get(r.kindId);
      if (ofKind === undefined) throw new Error(`resource ${r.id} is of kind ${r.kindId}, not in the domain`);
      ofKind.push(r);
    }
    for (const list of this.byKind.values()) list.sort((a, b) => compareIds(a.id, b.id));
  }

  resourcesOfKind(kindId: string): Resource[] {
    return this.byKind.get(kindId) ?? [];
  }

  /** Resources of a kind sorted by the given orders, then id; built once per order and cached. */
  orderedResources(kindId: string, orders: OrderKey[]): Resource[] {
    if (orders.length === 0) return this.resourcesOfKind(kindId);
    const key = `${kindId}|${orders.map((o) => `${o.attribute}:${o.descending ? 'd' : 'a'}${o.locale ? 'l' : ''}`).join(',')}`;
    let index = this.sortedIndexes.get(key);
    if (!index) {
      index = [...this.resourcesOfKind(kindId)].sort((a, b) =>
        compareKeys(sortKey(a, orders), sortKey(b, orders), orders),
      );
      this.sortedIndexes.set(key, index);
    }
    return index;
  }

  detailsOf(resource: Resource): ResourceDetails {
    let d = this.details.get(resource.id);
    if (!d) {
      d = generateDetails(this.domain, resource);
      this.details.set(resource.id, d);
    }
    return d;
  }

  /** Details built so far (only they can hold values set through the API). */
  materialisedDetails(): IterableIterator<[string, ResourceDetails]> {
    return this.details.entries();
  }

  enabledTeamIds(): string[] {
    return this.domain.teams.filter((t) => t.enabled).map((t) => t.id);
  }
}

/** Snowflakes of equal length compare as strings; shorter ones are smaller. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export function sortKey(r: Resource, orders: OrderKey[]): string[] {
  return [...orders.map((o) => r.attributes[o.attribute] ?? ''), r.id];
}

/** Attribute values compare by code unit (binary collation); the id breaks ties, always ascending. */
export function compareKeys(a: readonly string[], b: readonly string[], orders: OrderKey[]): number {
  for (let i = 0; i < orders.length; i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    const order = orders[i]!;
    const c = order.locale ? COLLATOR.compare(x, y) : x === y ? 0 : x < y ? -1 : 1;
    if (c !== 0) return c * (order.descending ? -1 : 1);
  }
  return compareIds(a[orders.length] ?? '', b[orders.length] ?? '');
}

/** First position in `sorted` whose key is strictly after `last`. */
export function positionAfter(sorted: Resource[], last: readonly string[], orders: OrderKey[]): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(sortKey(sorted[mid]!, orders), last, orders) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
