/**
 * Answers to reads that rules share: the run keeps the first successful
 * answer to each exact request (credential, Service-Version, operation and
 * body) and hands it to every other read that sends the same one, so a walk
 * done once serves every rule that needs it. Callers opt in per request, for
 * reads whose answer only the suite's own requests could change: a list of
 * resources without their teams (no documented operation changes it), or the
 * state of a resource the suite holds, which every mutating request naming
 * that resource forgets. Failures and non-2xx answers are never kept.
 *
 * What is kept is bounded by the length of the answers' bodies: past the
 * bound, the answers read least recently are dropped, and a read of one is
 * sent again. A whole run against the embedded server keeps under a million
 * characters in all and loses no shared read to the bound; a walk over a
 * million resources would otherwise keep every page it read, parsed, for the
 * rest of the run (over a gigabyte), and a larger bound only kept its pages
 * long enough to age into the collector's old generation (the suite's peak
 * memory on that walk rose with the bound).
 */
import { READ_OPERATIONS } from '../schemas/operations.ts';
import type { Delivery, SendRequest, TransportRequest } from './transport.ts';

/** Characters of kept bodies, all answers together (parsed, an answer weighs about three times its text). */
export const SHARED_READS_CHARS = 1024 * 1024;

export class SharedReads {
  private readonly answers = new Map<string, Promise<Delivery | undefined>>();
  /** The body length of each kept answer that came, least recently read first. */
  private readonly kept = new Map<string, number>();
  private keptChars = 0;
  /** Keys of kept answers about each resource, so a change to it forgets them. */
  private readonly byResource = new Map<string, Set<string>>();
  /** Changes the suite sent, by resource named, and those that named none it could tell (see changesTo). */
  private readonly changes = new Map<string, number>();
  private changesToAll = 0;
  /** Answers handed to a read without a request. */
  hits = 0;

  /**
   * The kept answer to `key`, or the one `send` gets (kept when it is a 2xx).
   * `shared` is true when no request was sent for this read.
   */
  async read(
    key: string,
    resources: readonly string[],
    send: () => Promise<Delivery>,
  ): Promise<{ delivery: Delivery; shared: boolean }> {
    const kept = this.answers.get(key);
    if (kept) {
      const delivery = await kept;
      if (delivery && this.answers.get(key) === kept) {
        this.hits += 1;
        this.touch(key);
        return { delivery, shared: true };
      }
    }
    const pending = send();
    const keeping = pending.then(
      (delivery) =>
        delivery.outcome.ok && delivery.outcome.status >= 200 && delivery.outcome.status < 300 ? delivery : undefined,
      () => undefined,
    );
    this.answers.set(key, keeping);
    for (const id of resources) {
      const keys = this.byResource.get(id) ?? new Set<string>();
      keys.add(key);
      this.byResource.set(id, keys);
    }
    void keeping.then((delivery) => {
      if (this.answers.get(key) !== keeping) return;
      const chars = delivery?.outcome.ok ? delivery.outcome.text.length : undefined;
      // One answer takes a quarter of the bound at most: a few very large pages do not evict the rest.
      if (chars === undefined || chars > SHARED_READS_CHARS / 4) this.answers.delete(key);
      else this.keep(key, chars);
    });
    return { delivery: await pending, shared: false };
  }

  /**
   * How many changes the suite has sent naming any of `resources` (all
   * resources when a change named none it could tell), taken before a read
   * is sent: unchanged when it is answered, no change came between.
   */
  changesTo(resources: readonly string[]): number {
    return resources.reduce((n, id) => n + (this.changes.get(id) ?? 0), this.changesToAll);
  }

  /**
   * A read sent afresh got `delivery`: the newest answer to `key` replaces
   * the one kept, so a later shared read never gets an older state than the
   * run has already seen (a server may serve a read that lags a write: the
   * answer a moment later is the one to keep). A read of named resources is
   * kept even when none was, unless the suite changed one of them while it
   * was in flight (`changesBefore`, from `changesTo` when it was sent): the
   * state a rule reads after its last change is what restoring it reads
   * first, and is not sent again.
   */
  refresh(key: string, resources: readonly string[], delivery: Delivery, changesBefore?: number): void {
    if (!delivery.outcome.ok || delivery.outcome.status < 200 || delivery.outcome.status >= 300) return;
    const unchanged =
      changesBefore !== undefined && resources.length > 0 && this.changesTo(resources) === changesBefore;
    if (!this.answers.has(key) && !unchanged) return;
    const chars = delivery.outcome.text.length;
    if (chars > SHARED_READS_CHARS / 4) {
      this.drop(key);
      return;
    }
    this.answers.set(key, Promise.resolve(delivery));
    for (const id of resources) {
      const keys = this.byResource.get(id) ?? new Set<string>();
      keys.add(key);
      this.byResource.set(id, keys);
    }
    this.keep(key, chars);
  }

  /** A request that may change these resources (or, when they are unknown, any): their answers are stale. */
  forget(resources: readonly string[] | 'all'): void {
    if (resources === 'all') this.changesToAll += 1;
    else for (const id of resources) this.changes.set(id, (this.changes.get(id) ?? 0) + 1);
    const ids = resources === 'all' ? [...this.byResource.keys()] : resources;
    for (const id of ids) {
      for (const key of this.byResource.get(id) ?? []) this.drop(key);
      this.byResource.delete(id);
    }
  }

  private keep(key: string, chars: number): void {
    const previous = this.kept.get(key);
    if (previous !== undefined) this.keptChars -= previous;
    this.kept.delete(key);
    this.kept.set(key, chars);
    this.keptChars += chars;
    // The least recently read first; the one just kept last of all.
    for (const [oldest] of this.kept) {
      if (this.keptChars <= SHARED_READS_CHARS) break;
      this.drop(oldest);
    }
  }

  /** Read again: last to be dropped. */
  private touch(key: string): void {
    const chars = this.kept.get(key);
    if (chars === undefined) return;
    this.kept.delete(key);
    this.kept.set(key, chars);
  }

  private drop(key: string): void {
    this.answers.delete(key);
    const chars = this.kept.get(key);
    if (chars === undefined) return;
    this.kept.delete(key);
    this.keptChars -= chars;
  }
}

/**
 * The shared-reads link of the client's chain. A read the caller lets share
 * (`request.shared`) is answered from the run's kept answers when it has one,
 * marked as another request's; a mutation makes what was read about the
 * resources it names stale, before it is sent and after it is answered.
 */
export function shareReads(store: SharedReads): (next: SendRequest) => SendRequest {
  return (next) =>
    (request: TransportRequest): Promise<Delivery> => {
      if (!READ_OPERATIONS.has(request.operation)) return forgetAround(store, request, next);
      if (!request.shared) return refreshing(store, request, next);
      return shareRead(store, request, next);
    };
}

async function forgetAround(store: SharedReads, request: TransportRequest, next: SendRequest): Promise<Delivery> {
  // A change the suite sends makes what was read about its resources stale, before and after.
  const named = resourcesNamed(request.body) ?? 'all';
  store.forget(named);
  try {
    return await next(request);
  } finally {
    store.forget(named);
  }
}

function keyOf(request: TransportRequest): string {
  return `${request.recordedHeaders.authorization ?? '(none)'} ${request.headers['service-version'] ?? ''} ${request.operation} ${request.text}`;
}

async function shareRead(store: SharedReads, request: TransportRequest, next: SendRequest): Promise<Delivery> {
  const { delivery, shared } = await store.read(keyOf(request), resourcesNamed(request.body) ?? [], () =>
    next(request),
  );
  return shared ? { ...delivery, shared: true } : delivery;
}

/**
 * A read sent afresh: its answer, newer than any kept for the same request, replaces that one; a read
 * of named resources that none of the suite's changes crossed is kept for the shared reads after it.
 */
async function refreshing(store: SharedReads, request: TransportRequest, next: SendRequest): Promise<Delivery> {
  const resources = resourcesNamed(request.body) ?? [];
  const changesBefore = store.changesTo(resources);
  const delivery = await next(request);
  store.refresh(keyOf(request), resources, delivery, changesBefore);
  return delivery;
}

/** The resources a request body names (`resource_id`, `resource_ids`); undefined when it cannot be told. */
export function resourcesNamed(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { resource_id: one, resource_ids: many } = body as { resource_id?: unknown; resource_ids?: unknown };
  const ids = [...(typeof one === 'string' ? [one] : []), ...(Array.isArray(many) ? many : [])];
  return ids.every((id): id is string => typeof id === 'string') ? ids : undefined;
}
