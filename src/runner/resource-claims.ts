import type { ProfileResource } from '../target/profile.ts';

/**
 * Mutable resources are handed out one rule at a time, so rules that run side
 * by side never change each other's state.
 */
export class ResourceClaims {
  private readonly free: ProfileResource[];

  constructor(resources: ProfileResource[]) {
    this.free = [...resources];
  }

  claim(predicate?: (resourceId: string, kindId: string) => boolean): string | undefined {
    const index = this.free.findIndex((r) => !predicate || predicate(r.id, r.kindId));
    if (index < 0) return undefined;
    const [taken] = this.free.splice(index, 1);
    this.taken.set(taken!.id, taken!);
    return taken!.id;
  }

  release(ids: string[]): void {
    for (const id of ids) {
      const resource = this.taken.get(id);
      if (resource) {
        this.taken.delete(id);
        this.free.push(resource);
      }
    }
  }

  private readonly taken = new Map<string, ProfileResource>();
}
