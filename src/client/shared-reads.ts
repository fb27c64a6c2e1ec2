/**
 * Answers to reads that rules share: the run keeps the first successful
 * answer to each exact request (credential, Service-Version, operation and
 * body) and hands it to every other read that sends the same one, so a walk
 * done once serves every rule that needs it. Callers opt in per request, for
 * reads whose answer only the suite's own requests could change: a list of
 * resources without their teams (no documented operation changes it), or the
 * state of a resource the suite holds, which every mutating request naming
 * that resource forgets. Failures and non-2xx answers are never kept.
 */
import type { ApiResponse } from './directory-client.ts';

export class SharedReads {
  private readonly answers = new Map<string, Promise<ApiResponse | undefined>>();
  /** Keys of kept answers about each resource, so a change to it forgets them. */
  private readonly byResource = new Map<string, Set<string>>();
  /** Answers handed to a read without a request. */
  hits = 0;

  /**
   * The kept answer to `key`, or the one `send` gets (kept when it is a 2xx).
   * `shared` is true when no request was sent for this read.
   */
  async read(
    key: string,
    resources: readonly string[],
    send: () => Promise<ApiResponse>,
  ): Promise<{ response: ApiResponse; shared: boolean }> {
    const kept = this.answers.get(key);
    if (kept) {
      const response = await kept;
      if (response && this.answers.get(key) === kept) {
        this.hits += 1;
        return { response, shared: true };
      }
    }
    const pending = send();
    const keeping = pending.then(
      (response) => (response.status >= 200 && response.status < 300 ? response : undefined),
      () => undefined,
    );
    this.answers.set(key, keeping);
    for (const id of resources) {
      const keys = this.byResource.get(id) ?? new Set<string>();
      keys.add(key);
      this.byResource.set(id, keys);
    }
    void keeping.then((response) => {
      if (!response && this.answers.get(key) === keeping) this.answers.delete(key);
    });
    return { response: await pending, shared: false };
  }

  /** A request that may change these resources (or, when they are unknown, any): their answers are stale. */
  forget(resources: readonly string[] | 'all'): void {
    const ids = resources === 'all' ? [...this.byResource.keys()] : resources;
    for (const id of ids) {
      for (const key of this.byResource.get(id) ?? []) this.answers.delete(key);
      this.byResource.delete(id);
    }
  }
}

/** The resources a request body names (`resource_id`, `resource_ids`); undefined when it cannot be told. */
export function resourcesNamed(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { resource_id: one, resource_ids: many } = body as { resource_id?: unknown; resource_ids?: unknown };
  const ids = [...(typeof one === 'string' ? [one] : []), ...(Array.isArray(many) ? many : [])];
  return ids.every((id): id is string => typeof id === 'string') ? ids : undefined;
}
