/**
 * Which walks of a collection saw each resource id, in little memory: a walk
 * over a million resources must remember every id it saw (a repeat is a
 * departure), and the ids of several walks are compared. In Sets of strings
 * that cost over a hundred bytes an id, a Set per walk; here each id is kept
 * once for all the walks, with a bit per walk, in about twenty bytes with
 * its index.
 *
 * A Snowflake (1 to 20 decimal digits, what the schema allows) is packed in
 * three 32-bit words: its digits four bits each, its length, the walks that
 * saw it; a fourth word, when asked for, holds a note (the page it was first
 * seen on). Entries are appended in the order ids are first seen, and found
 * through an open-addressing index of entry numbers. Any other id (a server
 * breaking the schema) is kept as a string, apart.
 */

const DIGITS_MASK = 0xffff;
const LENGTH_SHIFT = 16;
const LENGTH_MASK = 0x1f << LENGTH_SHIFT;
const WALKS_SHIFT = 21;
/** Walks one table tells apart. */
export const MAX_WALKS = 32 - WALKS_SHIFT;

export class SeenIds {
  /** Words an entry: three, and one more for the note. */
  private readonly words: number;
  private entries: Uint32Array;
  private count = 0;
  /** Entry number + 1 per slot, 0 for an empty slot; a power of two long. */
  private index = new Uint32Array(2048);
  /** Ids that are not Snowflakes; `after` is how many entries were seen before each. */
  private readonly others = new Map<string, { walks: number; note: number; after: number }>();
  /** Scratch for the id being looked up. */
  private readonly key = new Uint32Array(3);

  constructor(options: { notes?: boolean } = {}) {
    this.words = options.notes ? 4 : 3;
    this.entries = new Uint32Array(this.words * 1024);
  }

  /**
   * Marks `id` as seen by `walk` (one bit, below 1 << MAX_WALKS) and returns
   * the walks that had seen it before (0: none). `note` is kept from the
   * first time the id is seen, by a table made with `notes`.
   */
  see(id: string, walk: number, note = 0): number {
    if (!this.pack(id)) {
      const other = this.others.get(id);
      if (other === undefined) {
        this.others.set(id, { walks: walk, note, after: this.count });
        return 0;
      }
      const before = other.walks;
      other.walks |= walk;
      return before;
    }
    const at = this.find();
    if (at >= 0) {
      const w2 = this.entries[at + 2]!;
      this.entries[at + 2] = w2 | (walk << WALKS_SHIFT);
      return w2 >>> WALKS_SHIFT;
    }
    this.append(walk, note);
    return 0;
  }

  /** Whether the table keeps a note per id. */
  get keepsNotes(): boolean {
    return this.words === 4;
  }

  /** The walks that saw `id` (0: none). */
  walksOf(id: string): number {
    if (!this.pack(id)) return this.others.get(id)?.walks ?? 0;
    const at = this.find();
    return at < 0 ? 0 : (this.entries[at + 2] ?? 0) >>> WALKS_SHIFT;
  }

  /** The note kept when `id` was first seen (0 in a table without notes); undefined for an id never seen. */
  noteOf(id: string): number | undefined {
    if (!this.pack(id)) {
      const other = this.others.get(id);
      return other === undefined ? undefined : this.words === 4 ? other.note : 0;
    }
    const at = this.find();
    return at < 0 ? undefined : this.words === 4 ? this.entries[at + 3] : 0;
  }

  /**
   * Clears `walk`'s bit from every id, so the bit can stand for another walk
   * (a table tells MAX_WALKS walks apart; a judge of many walks reuses them).
   * The ids stay, seen by no walk if no other one saw them.
   */
  forget(walk: number): void {
    const keep = ~(walk << WALKS_SHIFT);
    for (let at = 2; at < this.count * this.words; at += this.words) this.entries[at] = (this.entries[at] ?? 0) & keep;
    for (const other of this.others.values()) other.walks &= ~walk;
  }

  /** Ids whose walks, of those in `mask`, are exactly `walks`. */
  countOf(mask: number, walks: number): number {
    let n = 0;
    for (let at = 0; at < this.count * this.words; at += this.words)
      if ((((this.entries[at + 2] ?? 0) >>> WALKS_SHIFT) & mask) === walks) n++;
    for (const other of this.others.values()) if ((other.walks & mask) === walks) n++;
    return n;
  }

  /** Up to `n` ids whose walks, of those in `mask`, are exactly `walks`, in the order they were first seen. */
  idsOf(mask: number, walks: number, n: number): string[] {
    // Entry i was the i-th Snowflake seen; an other id seen after `after` of them comes just before
    // entry `after` (others among themselves: as the Map keeps them, in the order seen).
    const found: Array<{ id: string; order: number }> = [];
    for (let at = 0, order = 0; at < this.count * this.words && found.length < n; at += this.words, order++) {
      if ((((this.entries[at + 2] ?? 0) >>> WALKS_SHIFT) & mask) === walks) found.push({ id: this.unpack(at), order });
    }
    for (const [id, other] of this.others)
      if ((other.walks & mask) === walks) found.push({ id, order: other.after - 0.5 });
    // A stable sort: others with the same `after` stay in the order seen.
    return found
      .sort((a, b) => a.order - b.order)
      .slice(0, n)
      .map((f) => f.id);
  }

  /** `id` into `key` when it is a Snowflake; false otherwise. */
  private pack(id: string): boolean {
    const length = id.length;
    if (length === 0 || length > 20) return false;
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    for (let i = 0; i < length; i++) {
      const digit = id.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return false;
      if (i < 8) w0 |= digit << (4 * i);
      else if (i < 16) w1 |= digit << (4 * (i - 8));
      else w2 |= digit << (4 * (i - 16));
    }
    this.key[0] = w0;
    this.key[1] = w1;
    this.key[2] = w2 | (length << LENGTH_SHIFT);
    return true;
  }

  private unpack(at: number): string {
    const length = ((this.entries[at + 2] ?? 0) & LENGTH_MASK) >>> LENGTH_SHIFT;
    let id = '';
    for (let i = 0; i < length; i++) {
      const word = this.entries[at + (i >> 3)] ?? 0;
      id += String.fromCharCode(48 + ((word >>> (4 * (i & 7))) & 0xf));
    }
    return id;
  }

  private slotOf(w0: number, w1: number, w2: number): number {
    let h = Math.imul(w0 ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ w1, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16) ^ w2, 0x27d4eb2f);
    return (h ^ (h >>> 15)) & (this.index.length - 1);
  }

  /**
   * Where the entry of `key` starts in `entries`, or -1. The lookups of `see` (this, `append`, `place`) read
   * the typed arrays at indexes below their length with `!`: each lookup is per id of a million-id walk, and
   * `?? 0` there cost 3 to 10% of a lookup in a micro-benchmark.
   */
  private find(): number {
    const w0 = this.key[0]!;
    const w1 = this.key[1]!;
    const w2 = this.key[2]!;
    const last = this.index.length - 1;
    for (let slot = this.slotOf(w0, w1, w2); ; slot = (slot + 1) & last) {
      const entry = this.index[slot]!;
      if (entry === 0) return -1;
      const at = (entry - 1) * this.words;
      if (
        this.entries[at] === w0 &&
        this.entries[at + 1] === w1 &&
        (this.entries[at + 2]! & (DIGITS_MASK | LENGTH_MASK)) === w2
      )
        return at;
    }
  }

  private append(walk: number, note: number): void {
    if ((this.count + 1) * this.words > this.entries.length) {
      const grown = new Uint32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    const at = this.count * this.words;
    this.entries[at] = this.key[0]!;
    this.entries[at + 1] = this.key[1]!;
    this.entries[at + 2] = this.key[2]! | (walk << WALKS_SHIFT);
    if (this.words === 4) this.entries[at + 3] = note;
    this.count++;
    // At most three quarters full: past that, twice the slots.
    if (this.count * 4 > this.index.length * 3) this.reindex(this.index.length * 2);
    else this.place(this.count);
  }

  private place(entry: number): void {
    const at = (entry - 1) * this.words;
    const last = this.index.length - 1;
    let slot = this.slotOf(
      this.entries[at]!,
      this.entries[at + 1]!,
      this.entries[at + 2]! & (DIGITS_MASK | LENGTH_MASK),
    );
    while (this.index[slot] !== 0) slot = (slot + 1) & last;
    this.index[slot] = entry;
  }

  private reindex(slots: number): void {
    this.index = new Uint32Array(slots);
    for (let entry = 1; entry <= this.count; entry++) this.place(entry);
  }
}
