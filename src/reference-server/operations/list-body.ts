/**
 * The resources.list body of a server without faults or variants, put
 * together from resources serialised once. Each resource is kept as the UTF-8
 * bytes of its JSON followed by a comma, per requested attribute set, written
 * one after the other into large slabs: the resources of a page were most
 * often cached together, in the order of the page, so the page is a piece of
 * a slab or a few, handed to the socket where they are. No JSON text is
 * built, joined or encoded per request (joining a page's strings cost more
 * than the rest of the operation), and no byte of a resource is copied.
 *
 * Only what the API cannot change is cached (teams and relations are never
 * served from here); the bound keeps memory flat however much of a large
 * collection is read (at most one page over it). Entries are keyed by the
 * resource object itself: a fresh string key per resource cost more to build
 * and hash than the lookup saved, and two servers in one process (other
 * seeds, same ids) never share an entry.
 */
import type { Resource } from '../model.ts';

const FRAGMENT_CACHE_SIZE = 20_000;
const SLAB_BYTES = 256 * 1024;
const HEAD = Buffer.from('{"data":[');
const COMMA = 0x2c;

/** Where a resource's bytes are: `slab[start, end)`, its comma last. */
export interface Fragment {
  slab: Buffer;
  start: number;
  end: number;
}

/**
 * Fills slabs front to back and never writes where it wrote before: a page
 * still waiting for its socket points into a slab, and nothing changes what
 * it points at (a cleared cache leaves the slab to the collector).
 */
class SlabWriter {
  private slab = Buffer.allocUnsafe(0);
  private used = 0;

  /** Room for `bytes` more bytes: the slab to write into and where. */
  reserve(bytes: number): { slab: Buffer; at: number } {
    if (this.used + bytes > this.slab.length) {
      this.slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, bytes));
      this.used = 0;
    }
    const at = this.used;
    this.used += bytes;
    return { slab: this.slab, at };
  }
}

const slabs = new SlabWriter();
const bySet = new Map<string, Map<Resource, Fragment>>();
/** Entries in all the maps above, each attribute set counting for one more. */
let entries = 0;

/** The fragments of one attribute set. */
export function fragmentsOf(attributes: readonly string[]): Map<Resource, Fragment> {
  // Dropped wholesale when full, before the page is read: cheaper than per-entry eviction on a Map.
  if (entries >= FRAGMENT_CACHE_SIZE) {
    bySet.clear();
    entries = 0;
  }
  const key = JSON.stringify(attributes);
  let fragments = bySet.get(key);
  if (fragments === undefined) {
    fragments = new Map();
    bySet.set(key, fragments);
    entries++;
  }
  return fragments;
}

function cache(fragments: Map<Resource, Fragment>, r: Resource, text: string): Fragment {
  const bytes = Buffer.byteLength(text) + 1;
  const { slab, at } = slabs.reserve(bytes);
  slab.write(text, at, 'utf8');
  slab[at + bytes - 1] = COMMA;
  const fragment = { slab, start: at, end: at + bytes };
  fragments.set(r, fragment);
  entries++;
  return fragment;
}

/**
 * The UTF-8 bytes of `{"data":[${resources.map(serialise).join(',')}]${tail}`,
 * in pieces to be sent one after the other; `serialise` renders a resource
 * the cache does not hold yet. The pieces are shared: never to be written to.
 */
export function listBody(
  resources: readonly Resource[],
  fragments: Map<Resource, Fragment>,
  serialise: (r: Resource) => string,
  tail: string,
): Buffer[] {
  const pieces: Buffer[] = [HEAD];
  let run: Fragment | undefined;
  let runEnd = 0;
  for (const r of resources) {
    const fragment = fragments.get(r) ?? cache(fragments, r, serialise(r));
    if (run !== undefined && fragment.slab === run.slab && fragment.start === runEnd) {
      runEnd = fragment.end;
      continue;
    }
    if (run !== undefined) pieces.push(run.slab.subarray(run.start, runEnd));
    run = fragment;
    runEnd = fragment.end;
  }
  // The last resource's comma stays out: the closing bracket takes its place.
  if (run !== undefined) pieces.push(run.slab.subarray(run.start, runEnd - 1));
  pieces.push(Buffer.from(`]${tail}`));
  return pieces;
}
