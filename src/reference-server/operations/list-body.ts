/**
 * The resources.list body of a server without faults or variants, put
 * together from resources serialised once. Each resource is kept as the UTF-8
 * bytes of its JSON followed by a comma, per requested attribute set, written
 * one after the other into large slabs: the resources of a page were most
 * often cached together, in the order of the page, so the page is copied in
 * one piece or a few. No JSON text is built, joined or encoded per request
 * (joining a page's strings cost more than the rest of the operation), and
 * the body goes to the socket as it is.
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
const HEAD = '{"data":[';
const CLOSE_BRACKET = 0x5d;

/** Where a resource's bytes are: `slab[start, end)`, its comma last. */
export interface Fragment {
  slab: Buffer;
  start: number;
  end: number;
}

/**
 * Fills slabs front to back and never writes where it wrote before: a body
 * still waiting for its socket keeps its slab, and nothing else changes it.
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

const fragmentSlabs = new SlabWriter();
const bodySlabs = new SlabWriter();
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
  const { slab, at } = fragmentSlabs.reserve(bytes);
  slab.write(text, at, 'utf8');
  slab[at + bytes - 1] = 0x2c;
  const fragment = { slab, start: at, end: at + bytes };
  fragments.set(r, fragment);
  entries++;
  return fragment;
}

/**
 * The UTF-8 bytes of `{"data":[${resources.map(serialise).join(',')}]${tail}`;
 * `serialise` renders a resource the cache does not hold yet.
 */
export function listBody(
  resources: readonly Resource[],
  fragments: Map<Resource, Fragment>,
  serialise: (r: Resource) => string,
  tail: string,
): Buffer {
  const parts = new Array<Fragment>(resources.length);
  let size = 0;
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i]!;
    const fragment = fragments.get(r) ?? cache(fragments, r, serialise(r));
    parts[i] = fragment;
    size += fragment.end - fragment.start;
  }
  // The last fragment's comma becomes the closing bracket; with none, the bracket follows the head.
  const length = HEAD.length + size + (resources.length === 0 ? 1 : 0) + Buffer.byteLength(tail);
  const { slab, at: offset } = bodySlabs.reserve(length);
  const body = slab.subarray(offset, offset + length);
  let at = body.write(HEAD, 0, 'latin1');
  // Neighbours in one slab are copied as one run.
  let i = 0;
  while (i < parts.length) {
    const first = parts[i]!;
    let end = first.end;
    for (i++; i < parts.length && parts[i]!.slab === first.slab && parts[i]!.start === end; i++) end = parts[i]!.end;
    first.slab.copy(body, at, first.start, end);
    at += end - first.start;
  }
  if (resources.length === 0) at++;
  body[at - 1] = CLOSE_BRACKET;
  body.write(tail, at, 'utf8');
  return body;
}
