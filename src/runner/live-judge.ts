/**
 * Traffic judged as it passes (the proxy's): the same rules and readings as
 * `judge-untagged.ts`, applied to exchanges one at a time over a session that
 * may never end, in bounded memory. What `judgeUntagged` does with a whole
 * recording, this does by parts, keeping only what each rule concluded:
 *
 * - a rule judged by one answer (`answers`) judges each answer as it comes,
 *   and it is forgotten;
 * - a rule whose reading says its judge folds walks (`foldsWalks`: the
 *   walks rule of §4.9), a fold that keeps only
 *   its state (walks-once.ts), is fed the pages of every walk as the
 *   tokens link them, for the whole session, walk after walk as
 *   `walksAsNamed` reads a recording (the pages of a walk begun while another
 *   is under way wait, within a budget): a walk of a million resources is
 *   judged whole, in the memory of its table of ids;
 * - a rule whose reading has a `session` fold (untagged-traffic.ts: the
 *   revocation effects, a model of a bounded number of resources) is fed
 *   every exchange the fold takes, for the whole session, so it compares a
 *   read before a revocation with the read after it however far apart;
 * - every other rule judged by its own judge reads the traffic by stretches:
 *   a stretch ends where no walk is under way (a walk not followed for
 *   `STALE_AFTER` exchanges is taken as given up), or where it outgrows its
 *   budget (a walk too long to keep is judged as far as the stretch holds
 *   it); each stretch is judged as a recording would be, then forgotten.
 *   Comparisons those judges make between answers (an ids filter against
 *   the collection an earlier answer showed) are made within a stretch;
 * - a rule whose reading is `long` (untagged-traffic.ts: what writes did
 *   to the reads around them) reads the traffic by long stretches, cut only
 *   at their budget: a read and the write before it are seldom inside a
 *   walk. The writes that ended a stretch begin the next one too, so a read
 *   in flight with one of them is still known to be.
 *
 * Each rule keeps its first violations, a count of the rest, whether any
 * part showed its clause clean, the first answer that said nothing and the
 * first missing evidence; and the places of a bounded sample of the
 * exchanges it judged, its evidence. Across parts, a departure decides, then
 * a part that showed the clause (PASS), then no verdict, then no evidence:
 * over a long session, one 503 does not leave a rule without a verdict that
 * other answers gave.
 */
import type { Violation } from '../core/types.ts';
import type { Folding } from '../rules/judges/fold.ts';
import {
  accepted,
  isClean,
  isNoEvidence,
  isNoVerdict,
  noEvidence,
  violationsOf,
  type Judgement,
} from '../rules/judges/judgement.ts';
import { walkKey } from '../rules/judges/list-walks.ts';
import { field, type Observed } from '../rules/judges/observed.ts';
import { answerJudged, walksAsNamed, type Placed, type TrafficReading } from '../rules/judges/untagged-traffic.ts';
import type { Rule } from '../rules/types.ts';
import { matchesSchema } from '../schemas/index.ts';
import { READ_OPERATIONS } from '../schemas/operations.ts';
import type { TargetProfile } from '../target/profile.ts';
import { judgedByReading, trafficRules } from './judge-untagged.ts';
import { fromJudgement, type Rejudged } from './rejudge.ts';

/** A violation as it is found: the rule whose clause it breaks and the exchange (its number) that showed it. */
export interface Found {
  readonly ruleId: string;
  readonly violation: Violation;
  readonly seq: number;
}

/**
 * How much the live judge holds; the defaults keep a proxy of a long session
 * under 256 MB (`npm run bench -- proxy`). The exchanges kept weigh most: a
 * page of 500 resources is some 150 kB of text, so each rule keeps ten and
 * the latest twenty are kept besides (the judge command's reports keep a
 * hundred a rule, of a recording whose size is known).
 */
export interface LiveJudgeLimits {
  /** Characters of answers a stretch holds before it is judged: a long walk is judged by parts this size. */
  stretchChars: number;
  /** Exchanges a stretch holds before it is judged. */
  stretchExchanges: number;
  /** Violations each rule keeps; the rest are counted. */
  violationsKept: number;
  /** Exchanges each rule keeps as evidence (those that showed a departure first). */
  evidenceKept: number;
  /** The latest exchanges kept besides, for the HAR the reports write. */
  recentKept: number;
}

export const LIVE_JUDGE_LIMITS: LiveJudgeLimits = {
  stretchChars: 2 * 1024 * 1024,
  stretchExchanges: 500,
  violationsKept: 50,
  evidenceKept: 10,
  recentKept: 20,
};

/** Exchanges a walk may wait for its next page before it counts as given up (a client that reads one page only). */
export const STALE_AFTER = 64;

/** Walks followed at once; the oldest is let go past this. */
const OPEN_WALKS = 64;

interface Tally {
  kept: Violation[];
  more: number;
  clean: boolean;
  noVerdict: Judgement | undefined;
  noEvidence: Judgement | undefined;
  exchanges: number;
  /** Exchanges that showed a departure. */
  failing: number[];
  /** Exchanges judged. */
  judged: number[];
}

const emptyTally = (): Tally => ({
  kept: [],
  more: 0,
  clean: false,
  noVerdict: undefined,
  noEvidence: undefined,
  exchanges: 0,
  failing: [],
  judged: [],
});

const copyTally = (t: Tally): Tally => ({ ...t, kept: [...t.kept], failing: [...t.failing], judged: [...t.judged] });

interface OpenWalk {
  key: string;
  next: unknown;
  pages: number;
  /** The exchange count when its last page came. */
  last: number;
}

/**
 * Walks linked by their tokens as the pages come, as `walksByToken` links
 * them in a recording: a page that sends next_token null begins one, and one
 * that sends the token a walk's last page gave, the rest of its request the
 * same, is that walk's next page.
 */
class WalkLinker {
  private walks: OpenWalk[] = [];

  /** The page's walk and its number there (from 1), or undefined when it follows no walk under way. */
  page(o: Observed, now: number): { walk: OpenWalk; page: number } | undefined {
    if (o.operation !== 'resources.list') return undefined;
    const token = field(field(o.request, 'pagination'), 'next_token');
    const key = walkKey(o.request);
    let walk: OpenWalk | undefined;
    if (token === null) {
      walk = { key, next: undefined, pages: 0, last: now };
      this.walks.push(walk);
      if (this.walks.length > OPEN_WALKS) this.walks.shift();
    } else {
      walk = this.walks.findLast((w) => w.key === key && w.next !== undefined && w.next === token);
    }
    if (walk === undefined) return undefined;
    walk.pages += 1;
    walk.last = now;
    const data = field(o.body, 'data');
    const next = field(o.body, 'next_token');
    // Ended, or no page at all: the walk goes no further.
    walk.next =
      o.status === 200 && Array.isArray(data) && data.length > 0 && typeof next === 'string' ? next : undefined;
    return { walk, page: walk.pages };
  }

  /** Whether `walk` is under way: followed, its next page not yet come, and not given up. */
  going(walk: OpenWalk, now: number): boolean {
    return walk.next !== undefined && now - walk.last <= STALE_AFTER && this.walks.includes(walk);
  }

  /** Whether a walk is under way: its next page not yet come, and not given up. */
  open(now: number): boolean {
    this.walks = this.walks.filter((w) => w.next !== undefined && now - w.last <= STALE_AFTER);
    return this.walks.length > 0;
  }
}

/** A page of a walk, as the session's fold is fed it. */
interface WalkPage {
  o: Observed;
  page: number;
  seq: number;
}

/**
 * The pages of every walk, one walk after another, as `walksAsNamed` reads a
 * recording: the fold follows one walk at a time, so the pages of a walk
 * begun while another is under way wait until that one is over (ended, or
 * given up), within a budget; a walk whose pages outgrow it is let go, and
 * its pages are not fed.
 */
class WalkOrder {
  private current: OpenWalk | undefined;
  private readonly queued: Array<{ walk: OpenWalk; pages: WalkPage[]; chars: number }> = [];
  private readonly dropped = new WeakSet<OpenWalk>();
  private chars = 0;

  constructor(private readonly budget: number) {}

  /** A page as it comes: the pages to feed now, in order. */
  take(walk: OpenWalk, page: WalkPage, going: (w: OpenWalk) => boolean): WalkPage[] {
    if (this.dropped.has(walk)) return this.next(going);
    if (this.current === undefined) this.current = walk;
    if (this.current === walk) return [page, ...this.next(going)];
    let waiting = this.queued.find((q) => q.walk === walk);
    if (!waiting) {
      waiting = { walk, pages: [], chars: 0 };
      this.queued.push(waiting);
    }
    const size = page.o.text.length;
    if (this.chars + size > this.budget) {
      this.dropped.add(walk);
      this.chars -= waiting.chars;
      this.queued.splice(this.queued.indexOf(waiting), 1);
    } else {
      waiting.pages.push(page);
      waiting.chars += size;
      this.chars += size;
    }
    return this.next(going);
  }

  /** Once the walk fed is over, the next waiting walk's pages so far, and so on. */
  next(going: (w: OpenWalk) => boolean): WalkPage[] {
    const out: WalkPage[] = [];
    while (this.current !== undefined && !going(this.current)) {
      const waiting = this.queued.shift();
      this.current = waiting?.walk;
      if (waiting) {
        this.chars -= waiting.chars;
        out.push(...waiting.pages);
      }
    }
    return out;
  }

  /** Every page still waiting, walk after walk (the session ends). */
  rest(): WalkPage[] {
    const out = this.queued.flatMap((q) => q.pages);
    this.queued.length = 0;
    this.chars = 0;
    this.current = undefined;
    return out;
  }
}

interface TrafficRule {
  readonly rule: Rule;
  readonly reading: TrafficReading;
  /**
   * The whole session's fold, for a rule whose judge keeps only its state:
   * fed the pages of the walks (`walks`), or every exchange its reading
   * `takes` (`exchanges`, untagged-traffic.ts's `session`).
   */
  readonly session: { folding: Folding; shown: number; of: 'walks' | 'exchanges' } | undefined;
}

/** The writes a long stretch hands to the next: enough that a read in flight with one across the cut is known to be. */
const CARRIED_WRITES = 32;

/** Whether a judge of traffic reads `o`: only those a long stretch keeps (a page of resources is none of theirs). */
function readsLong(reading: TrafficReading, o: Observed): boolean {
  return reading.by === 'its judge' && reading.long === true && reading.logs([{ o, at: 0 }]).some((l) => l.length > 0);
}

/**
 * The live judge of the traffic rules among `rules`. `R` is what the caller
 * keeps of each exchange for the reports (its request and answer as they
 * passed): the judge keeps those of its evidence and the latest few, and
 * lets the others go.
 */
export class LiveJudge<R> {
  private readonly judged: TrafficRule[];
  private readonly tallies = new Map<string, Tally>();
  private stretch: Array<{ seq: number; o: Observed }> = [];
  private stretchChars = 0;
  /** The long stretch the traffic judges read, when a rule is judged by one. */
  private long: Array<{ seq: number; o: Observed }> = [];
  private longChars = 0;
  private readonly records = new Map<number, R>();
  private readonly recent: number[] = [];
  private readonly linker = new WalkLinker();
  private readonly order: WalkOrder;
  private count = 0;

  constructor(
    rules: readonly Rule[],
    private readonly profile: TargetProfile,
    private readonly limits: LiveJudgeLimits = LIVE_JUDGE_LIMITS,
  ) {
    this.order = new WalkOrder(limits.stretchChars);
    this.judged = trafficRules(rules).flatMap((rule): TrafficRule[] => {
      const reading = rule.traffic;
      this.tallies.set(rule.id, emptyTally());
      // Only where the reading hands the judge every walk in one log, walk after walk, is the fold fed so.
      const folded = reading.by === 'its judge' && reading.foldsWalks === true && reading.logs === walksAsNamed;
      const session =
        reading.by === 'its judge' && reading.session
          ? { folding: reading.session.judge.start(profile), shown: 0, of: 'exchanges' as const }
          : folded
            ? { folding: rule.judge.start(profile), shown: 0, of: 'walks' as const }
            : undefined;
      return [{ rule, reading, session }];
    });
  }

  /**
   * One exchange, numbered `seq` by the caller, as a judge reads it (its step
   * names it), with what the caller keeps of it; `cut` when its answer was
   * not read whole (no judge can read it). Returns what it showed now.
   */
  take(seq: number, o: Observed, record: R, cut: boolean): Found[] {
    this.count += 1;
    this.records.set(seq, record);
    this.recent.push(seq);
    if (this.recent.length > this.limits.recentKept) this.recent.shift();
    const found: Found[] = [];
    if (!cut) {
      for (const r of this.judged) {
        if (r.reading.by === 'answers' && answerJudged(r.reading, o)) {
          found.push(...this.add(this.tallies, r.rule.id, r.reading.judge(o), [seq]));
        }
        if (r.session?.of === 'exchanges' && r.reading.by === 'its judge' && r.reading.session?.takes(o)) {
          found.push(...this.fed(r.rule.id, r.session, o, seq));
        }
      }
      const linked = this.linker.page(o, this.count);
      const going = (w: OpenWalk) => this.linker.going(w, this.count);
      const pages = linked
        ? this.order.take(linked.walk, { o, page: linked.page, seq }, going)
        : this.order.next(going);
      found.push(...this.feedAll(pages));
      this.stretch.push({ seq, o });
      this.stretchChars += o.text.length;
      if (this.judged.some((r) => readsLong(r.reading, o))) found.push(...this.lengthen(seq, o));
    }
    if (
      !this.linker.open(this.count) ||
      this.stretchChars >= this.limits.stretchChars ||
      this.stretch.length >= this.limits.stretchExchanges
    ) {
      found.push(...this.judgeStretch(this.tallies));
      this.stretch = [];
      this.stretchChars = 0;
      this.forget();
    }
    return found;
  }

  /** Each traffic rule's verdict on everything taken so far (the stretch under way judged too, and kept). */
  verdicts(): Array<Rejudged & { seqs: number[] }> {
    const tallies = new Map([...this.tallies].map(([id, t]) => [id, copyTally(t)]));
    this.judgeStretch(tallies);
    this.judgeLong(tallies);
    return this.judged.map((r) => {
      const tally = tallies.get(r.rule.id) ?? emptyTally();
      const judgement = r.session ? sessionJudgement(r.session.folding.end(), tally) : judgementOf(tally);
      const verdict = fromJudgement(r.rule.id, judgement, tally.exchanges);
      return { ...verdict, seqs: [...new Set([...tally.failing, ...tally.judged])].sort((a, b) => a - b) };
    });
  }

  /** The stretch under way judged and forgotten, and the walks still waiting fed (the session ends): what they showed. */
  flush(): Found[] {
    const found = [
      ...this.feedAll(this.order.rest()),
      ...this.judgeStretch(this.tallies),
      ...this.judgeLong(this.tallies),
    ];
    this.stretch = [];
    this.stretchChars = 0;
    this.long = [];
    this.longChars = 0;
    this.forget();
    return found;
  }

  /** What the caller kept of the exchanges still held (evidence and the latest), in the order they came. */
  kept(): Array<{ seq: number; record: R }> {
    return [...this.records].sort(([a], [b]) => a - b).map(([seq, record]) => ({ seq, record }));
  }

  /** Pages of walks, in order, into each session fold of walks. */
  private feedAll(pages: readonly WalkPage[]): Found[] {
    return pages.flatMap(({ o, page, seq }) =>
      this.judged.flatMap((r) => (r.session?.of === 'walks' ? this.feed(r.rule.id, r.session, o, page, seq) : [])),
    );
  }

  /** A page of a walk, into the session's fold of a rule; its new departures found. */
  private feed(ruleId: string, session: NonNullable<TrafficRule['session']>, o: Observed, page: number, seq: number) {
    const tally = this.tallies.get(ruleId);
    if (!tally) return [];
    // Only pages are the fold's, as `walksAsNamed` names only pages: an answer that is no list of resources
    // (a refused request, pagination.envelope's departure) ends its walk and is left out; one that says
    // nothing (401, 429, 5xx) is noted, but over a session one refused request must not leave the rule
    // without the verdict its other walks give.
    if (o.status !== 200 || !matchesSchema('ListEnvelope', o.body)) {
      const said = accepted(o, { status: 200 });
      if (isNoVerdict(said)) tally.noVerdict ??= said;
      return [];
    }
    return this.fed(ruleId, session, { ...o, step: `resources.list page ${page}` }, seq);
  }

  /** An exchange into the session's fold of a rule; its new departures found. */
  private fed(ruleId: string, session: NonNullable<TrafficRule['session']>, o: Observed, seq: number): Found[] {
    const tally = this.tallies.get(ruleId);
    if (!tally) return [];
    session.folding.step(o);
    tally.exchanges += 1;
    keep(tally.judged, seq, this.limits.evidenceKept);
    const violations = violationsOf(session.folding.end());
    const fresh = violations.slice(session.shown);
    session.shown = violations.length;
    for (const _ of fresh) keep(tally.failing, seq, this.limits.evidenceKept);
    return fresh.map((violation) => ({ ruleId, violation, seq }));
  }

  /** The stretch's traffic judged by each rule that reads it by its own judge, into `tallies`. */
  private judgeStretch(tallies: Map<string, Tally>): Found[] {
    if (this.stretch.length === 0) return [];
    const placed: Placed[] = this.stretch.map((s, at) => ({ o: s.o, at }));
    return this.judged.flatMap((r) => {
      if (r.reading.by !== 'its judge' || r.reading.long || r.session) return [];
      const { judgement, at } = judgedByReading(r.rule, r.reading, placed, this.profile);
      const seqs = at.flatMap((i) => this.stretch[i]?.seq ?? []);
      return this.add(tallies, r.rule.id, judgement, seqs);
    });
  }

  /**
   * `o` into the long stretch; a stretch past its budget is judged first,
   * and the next one begins with its last writes (what they did is not
   * judged again: no read before them is in the next stretch).
   */
  private lengthen(seq: number, o: Observed): Found[] {
    let found: Found[] = [];
    if (this.longChars >= this.limits.stretchChars || this.long.length >= this.limits.stretchExchanges) {
      found = this.judgeLong(this.tallies);
      this.long = this.long.filter((e) => !READ_OPERATIONS.has(e.o.operation)).slice(-CARRIED_WRITES);
      this.longChars = this.long.reduce((n, e) => n + e.o.text.length, 0);
    }
    this.long.push({ seq, o });
    this.longChars += o.text.length;
    return found;
  }

  /** The long stretch judged by each rule that reads it by a judge of traffic, into `tallies`. */
  private judgeLong(tallies: Map<string, Tally>): Found[] {
    if (this.long.length === 0) return [];
    const placed: Placed[] = this.long.map((s, at) => ({ o: s.o, at }));
    return this.judged.flatMap((r) => {
      if (r.reading.by !== 'its judge' || !r.reading.long) return [];
      const { judgement, at } = judgedByReading(r.rule, r.reading, placed, this.profile);
      const seqs = at.flatMap((i) => this.long[i]?.seq ?? []);
      return this.add(tallies, r.rule.id, judgement, seqs);
    });
  }

  /** One part's judgement of a rule, into its tally; its violations found. */
  private add(tallies: Map<string, Tally>, ruleId: string, judgement: Judgement, seqs: readonly number[]): Found[] {
    const tally = tallies.get(ruleId);
    if (!tally) return [];
    tally.exchanges += seqs.length;
    const violations = violationsOf(judgement);
    if (violations.length > 0) {
      for (const v of violations) {
        if (tally.kept.length < this.limits.violationsKept) tally.kept.push(v);
        else tally.more += 1;
      }
      for (const seq of seqs) keep(tally.failing, seq, this.limits.evidenceKept);
      const last = seqs.at(-1) ?? 0;
      return violations.map((violation) => ({ ruleId, violation, seq: last }));
    }
    if (isClean(judgement)) tally.clean = true;
    else if (isNoVerdict(judgement)) tally.noVerdict ??= judgement;
    else if (isNoEvidence(judgement)) tally.noEvidence ??= judgement;
    if (!isNoEvidence(judgement)) for (const seq of seqs) keep(tally.judged, seq, this.limits.evidenceKept);
    return [];
  }

  /** Lets go of the exchanges no rule keeps as evidence and no longer among the latest. */
  private forget(): void {
    // The long stretch's exchanges are kept until it is judged: its evidence is among them.
    const wanted = new Set([...this.recent, ...this.long.map((e) => e.seq)]);
    for (const t of this.tallies.values()) for (const seq of [...t.failing, ...t.judged]) wanted.add(seq);
    for (const seq of this.records.keys()) if (!wanted.has(seq)) this.records.delete(seq);
  }
}

/** The session fold's judgement; where it found no evidence, an answer that said nothing says why. */
function sessionJudgement(judgement: Judgement, tally: Tally): Judgement {
  return isNoEvidence(judgement) && tally.noVerdict ? tally.noVerdict : judgement;
}

/** Kept while there is room. */
function keep(list: number[], seq: number, room: number): void {
  if (list.length < room && list.at(-1) !== seq) list.push(seq);
}

/** A rule's judgement over every part: a departure decides, then a part that showed the clause, then no verdict, then no evidence. */
function judgementOf(tally: Tally): Judgement {
  if (tally.kept.length > 0) return tally.kept;
  if (tally.clean) return [];
  return tally.noVerdict ?? tally.noEvidence ?? noEvidence('no exchange of its clause has passed through the proxy');
}
