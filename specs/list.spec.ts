/**
 * §4.8 resources.list: the request fields and what each adds to the answer,
 * on every page of a walk, with several values of each list input.
 */
import { NO_SUCH_ID } from '../src/rules/no-such-id.ts';
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import { dateClasses } from '../src/rules/input-models/resources-list.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectJson, expectSuccess, failAll, owned, precondition } from '../src/rules/assertions.ts';
import {
  ascendingOn,
  attributeText,
  idsAcross,
  idsFilter,
  listBody,
  listPage,
  startsWithFilter,
  takes,
  walkPages,
  type ListResource,
} from '../src/rules/steps/list.ts';
import type { Violation } from '../src/core/types.ts';
import { recordOf } from '../src/rules/json-values.ts';
import {
  accepted,
  firstWithStep,
  isNoVerdict,
  judgeAll,
  judgeEach,
  noEvidence,
  rejected,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import {
  enoughPagesIn,
  idsFiltered,
  pageNamed,
  textFilterOf,
  walksIn,
  type WalkRead,
} from '../src/rules/judges/list-walks.ts';
import {
  judgeArrayAdded,
  judgeAttributesReturned,
  judgeIdsFilter,
  judgeTotalCount,
} from '../src/rules/judges/list-traffic.ts';
import { LIST_ANSWER_JUDGES, LIST_COUNTS, LIST_IDS } from '../src/rules/judges/list-answer.ts';
import { field, observedOf } from '../src/rules/judges/observed.ts';
import { WalkJudge } from '../src/rules/judges/walk.ts';
import { matchesSchema, validateSchema, type ListRequest } from '../src/schemas/index.ts';
import { listKindId } from '../src/target/profile.ts';

type ListContext = CheckContext<'listKind'>;

/** Walks never go past this; a server that keeps paging is pagination.each-resource-once's business. */
const MAX_PAGES = 10_000;
/** Pages followed by hand: an ids filter of seven ids at limit 2 ends within five. */
const HAND_PAGES = 10;

/** The steps drivers of this group tag their requests with, which their judges read (walks are `resources.list page N`). */
const STEP = {
  withoutKind: 'a list request without kind_id',
  sample: 'a sample of the listed kind',
  documented: 'resources.list with',
  counted: 'total_count (strict) of',
  whole: 'limit null of',
  largeLimit: 'a page of',
  approximate: 'approximate counting',
  modeOmitted: 'counting_mode omitted',
  withoutPagination: 'a list request without pagination',
} as const;

/** What `check` finds wanting in each resource of each page of a walk, placed on its page. */
function eachResourceOf(walk: WalkRead, check: (r: ListResource, where: string) => Violation | undefined): Violation[] {
  return walk.pages.flatMap((p) =>
    p.page.data.flatMap((r, i) => check(r, `${pageNamed(p.step, p.request)}: response.body.data[${i}]`) ?? []),
  );
}

/** The attribute a request orders on first, ascending, when it also asks for that attribute. */
function orderedOn(request: unknown): string | undefined {
  const orders = field(request, 'orders');
  const first: unknown = Array.isArray(orders) ? orders[0] : undefined;
  const attribute = field(first, 'attribute');
  const asked = field(request, 'attributes');
  return field(first, 'direction') === 'asc' &&
    typeof attribute === 'string' &&
    Array.isArray(asked) &&
    asked.includes(attribute)
    ? attribute
    : undefined;
}

/**
 * `with_teams` and `with_relations`: the flag adds the field, an array, to
 * each resource of every page (the first four pages of a walk at limit 5).
 * The judge reads any walk of the log that asked for the field.
 */
function addsArrayToEachResource(added: 'teams' | 'relations', id: string, clause: string, quote: string) {
  const flag = `with_${added}` as const;
  return rule({
    id,
    // What list requests asked for, whoever sent them: with_teams or with_relations added to each resource.
    traffic: TRAFFIC.listRequests(),
    clause,
    quote,
    level: 'MUST',
    needs: ['listKind'],
    async drive(ctx) {
      await walkPages(ctx, listBody(ctx, { [flag]: true, pagination: { limit: 5, next_token: null } }), {
        maxPages: MAX_PAGES,
        stopAfterPages: 4,
      });
    },
    judge: (log) => judgeArrayAdded(log, added),
  });
}

/**
 * Follows up to `maxPages` pages of `body` by hand, each tagged
 * `resources.list page N`, for the rules whose clause the list step itself
 * judges (only the filtered ids, the counts): the list step's judges of
 * other rules' clauses and the walk's (no resource twice) run on each page,
 * each for its owner, but the running rule's own clause is left to its
 * judge, which says what the pages showed.
 */
async function pagesByHand(
  ctx: ListContext,
  body: ListRequest,
  maxPages: number,
  { repeatsAreTheFilters = false } = {},
): Promise<void> {
  const limit = body.pagination?.limit ?? null;
  // A filter that names an id twice: a resource listed twice is the ids filter's departure (its judge reads it).
  const walk = repeatsAreTheFilters ? undefined : new WalkJudge();
  let token: string | null = null;
  for (let n = 1; n <= maxPages; n++) {
    const step = `resources.list page ${n}`;
    const request = { ...body, pagination: { limit, next_token: token } };
    // The same pages another rule may walk: the run asks for them once.
    const res = await ctx.client.post('resources.list', request, { shared: true, step });
    const observed = observedOf(res, step, request);
    for (const check of LIST_ANSWER_JUDGES) {
      if (ctx.ownerOf(check) !== ctx.ruleId) owned(ctx, check, () => failAll(check.judge(observed)));
    }
    if (walk) owned(ctx, 'pagination.each-resource-once', () => failAll(walk.page(observed, n - 1, `limit ${limit}`)));
    const data = field(res.json, 'data');
    const next = field(res.json, 'next_token');
    if (res.status !== 200 || !Array.isArray(data) || typeof next !== 'string' || data.length === 0) return;
    token = next;
  }
}

/** One id of each kind of the profile other than the listed one, each the first its list gives. */
async function idsOfOtherKinds(ctx: ListContext): Promise<string[]> {
  const ids: string[] = [];
  for (const kind of ctx.profile.kinds.filter((k) => k.id !== ctx.listKindId)) {
    const res = await ctx.client.post(
      'resources.list',
      { kind_id: kind.id, pagination: { limit: 1, next_token: null } },
      { shared: true, step: `an id of kind ${kind.name}` },
    );
    const data = field(res.json, 'data');
    const id = Array.isArray(data) ? field(data[0], 'id') : undefined;
    if (res.status === 200 && typeof id === 'string') ids.push(id);
  }
  return ids;
}

/** What a query language reads in a text value: a LIKE's two wildcards, its escape, a quote. */
const QUERY_MARKS = ['_', '%', '\\', "'"] as const;

/**
 * `text` starts with `value` as starts_with may compare: case and accents
 * are not shown (§4.8), so a target that folds either still passes; a
 * character that is neither (a wildcard, a quote) must match itself.
 */
function startsLike(text: string, value: string): boolean {
  const head = [...text].slice(0, [...value].length).join('');
  return head.toLowerCase() === value.toLowerCase() || head.localeCompare(value, 'en', { sensitivity: 'base' }) === 0;
}

/** The largest page size the target takes for a long walk (the maximum `limit` is not shown). */
async function largeLimit(ctx: ListContext): Promise<number> {
  for (const limit of [500, 100]) {
    const res = await ctx.client.post('resources.list', listBody(ctx, { pagination: { limit, next_token: null } }), {
      step: `${STEP.largeLimit} ${limit}`,
    });
    if (res.status === 200) return limit;
    ctx.observe(`limit ${limit} refused`, res.status);
  }
  return 50;
}

export default defineRuleGroup({
  section: '§4.8',
  title: 'resources.list',
  rules: [
    rule({
      id: 'list.kind-id-required',
      clause: '§4.8 Request body',
      quote: '| kind_id | Snowflake | none | required |',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        await ctx.client.postRaw(
          'resources.list',
          { json: { pagination: { limit: 5, next_token: null } } },
          { retry: 'judged', step: STEP.withoutKind },
        );
      },
      judge: (log) => judgeEach(withStep(log, STEP.withoutKind), `no ${STEP.withoutKind} was sent`, (o) => rejected(o)),
    }),
    rule({
      id: 'list.resources-of-the-kind',
      clause: '§4.8',
      quote: 'Lists resources of a kind.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        for (const kind of ctx.profile.kinds) {
          await walkPages(
            ctx,
            { kind_id: kind.id, pagination: { limit: 8, next_token: null } },
            { maxPages: MAX_PAGES, stopAfterPages: 4 },
          );
        }
      },
      judge(log, profile) {
        const walks = walksIn(log);
        const parts = walks.map((walk): Judgement => {
          const kindId = field(walk.request, 'kind_id');
          const name = profile.kinds.find((k) => k.id === kindId)?.name ?? String(kindId);
          const strays = eachResourceOf(walk, (r, where) =>
            r.kind_id === kindId
              ? undefined
              : {
                  where: `kind ${name}, ${where}.kind_id`,
                  message: 'must be of the requested kind',
                  expected: kindId,
                  actual: r.kind_id,
                },
          );
          // Other kinds are looked at as far as they go; the listed kind must show every page.
          const listed = kindId === listKindId(profile) ? enoughPagesIn(walk, 'the listed kind at limit 8') : [];
          return judgeAll([strays, walk.unread, listed]);
        });
        const listedKind = listKindId(profile);
        const walkedListed = walks.some((w) => field(w.request, 'kind_id') === listedKind);
        return judgeAll([...parts, walkedListed ? [] : noEvidence('no walk of the listed kind')]);
      },
    }),
    rule({
      id: 'list.resource-shape',
      traffic: TRAFFIC.eachWalk,
      clause: '§2.2',
      quote: [
        '| id | Snowflake | |',
        '| kind_id | Snowflake | kind of the resource |',
        '| label | string | |',
        '| short_label | string | |',
        '| sort_label | string | |',
        '| picture | object | fields `shape` (string, value `round` is used), `initial` (string), `url` (string) |',
        '| attributes | object | attributes of the resource; the response carries those requested through `attributes` |',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Every page read here, past the list step: its resources are this rule's clause, the envelope pagination.envelope's.
        let token: string | null = null;
        for (let page = 1; page <= 4; page++) {
          const step = `resources.list page ${page}`;
          const body = listBody(ctx, {
            with_teams: true,
            with_relations: true,
            pagination: { limit: 7, next_token: token },
          });
          const res = await ctx.client.post('resources.list', body, { step });
          const envelope = owned(ctx, 'pagination.envelope', () => {
            expectSuccess(res, { step, status: 200 });
            return expectJson(res, 'ListEnvelope', { step });
          });
          if (envelope.next_token === null || envelope.data.length === 0) break;
          token = envelope.next_token;
        }
      },
      judge(log) {
        const walk = walksIn(log)[0];
        if (!walk) return noEvidence('no walk of the listed kind');
        const shapes = walk.pages.flatMap((p) =>
          p.page.data.flatMap((r, i) =>
            validateSchema('Resource', r, `${pageNamed(p.step, p.request)}: response.body.data[${i}]`),
          ),
        );
        return judgeAll([shapes, walk.unread, enoughPagesIn(walk, 'the walk at limit 7')]);
      },
    }),
    rule({
      id: 'list.ids-filter',
      checks: [LIST_IDS],
      traffic: TRAFFIC.listRequests(),
      clause: '§4.8 Filter shapes',
      quote: '| `resource.ids` | array of Snowflake |',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Seven ids from across the collection, in its order and reversed, over pages of two followed to the end.
        const wanted = await idsAcross(ctx, 7);
        for (const order of [wanted, [...wanted].reverse()]) {
          const body = listBody(ctx, { filters: [idsFilter(order)], pagination: { limit: 2, next_token: null } });
          await pagesByHand(ctx, body, HAND_PAGES);
        }
        // What lists of ids hold in real requests, drawn from the target's own state: an id named twice (it
        // changes nothing), ids of each other kind of the profile (never listed: the list is of one kind), and
        // an id of no resource (it imposes nothing). Whether a target refuses the last two is not shown (§7).
        const some = wanted.slice(0, 3);
        const lists: Array<[string, string[]]> = [
          ['an id named twice', [...some, ...some.slice(0, 1)]],
          ['ids of the other kinds', [...some, ...(await idsOfOtherKinds(ctx))]],
          ['an id of no resource', [...some, NO_SUCH_ID]],
        ];
        for (const [what, ids] of lists) {
          const body = listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit: 2, next_token: null } });
          if (ids.length > some.length && (await takes(ctx, body, `a resource.ids filter with ${what}`)))
            await pagesByHand(ctx, body, HAND_PAGES, { repeatsAreTheFilters: new Set(ids).size < ids.length });
        }
      },
      judge: (log) => judgeIdsFilter(log),
    }),
    rule({
      id: 'list.text-filter-starts-with',
      clause: '§4.8 Filter shapes',
      quote:
        '| `resource.text` | object with `attribute` (string), `operator` (string, `starts_with` is used), `value` (string) |',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async drive(ctx) {
        const attribute = ctx.sortAttribute;
        const sample = (
          await listPage(ctx, listBody(ctx, { attributes: [attribute], pagination: { limit: 40, next_token: null } }), {
            step: STEP.sample,
          })
        ).data;
        // The first letter most of the sample shares, so the filtered walk spans several pages.
        const initials = sample.map((r) => attributeText(r, attribute)?.slice(0, 1)).filter((v): v is string => !!v);
        const prefix = initials.sort(
          (a, b) => initials.filter((x) => x === b).length - initials.filter((x) => x === a).length,
        )[0];
        precondition(prefix, `no resource of the listed kind has a text value for ${attribute}`);
        const expected = sample.filter((r) => attributeText(r, attribute)?.startsWith(prefix));
        const limit = Math.max(1, Math.floor(expected.length / 3));
        const body = listBody(ctx, { attributes: [attribute], filters: [startsWithFilter(attribute, prefix)] });
        await walkPages(ctx, { ...body, pagination: { limit, next_token: null } }, { maxPages: MAX_PAGES });
        // The same prefix followed by a character a query language reads (a LIKE's wildcards, its escape, a
        // quote): starts_with is literal, so what is listed must still start with the whole value. Whether a
        // target refuses such a value is not shown.
        for (const mark of QUERY_MARKS) {
          const marked = listBody(ctx, {
            attributes: [attribute],
            filters: [startsWithFilter(attribute, `${prefix}${mark}`)],
            pagination: { limit: 20, next_token: null },
          });
          if (await takes(ctx, marked, `a starts_with value ending in ${JSON.stringify(mark)}`))
            await walkPages(ctx, marked, { maxPages: MAX_PAGES, stopAfterPages: 2 });
        }
      },
      judge(log) {
        const sample = firstWithStep(log, STEP.sample);
        const [walk, ...marked] = walksIn(log).filter((w) => textFilterOf(w.request) !== undefined);
        const filter = walk ? textFilterOf(walk.request) : undefined;
        if (!sample || !walk || !filter) return noEvidence('no walk of a starts_with filter after a sample');
        if (!matchesSchema('ListEnvelope', sample.body)) return noEvidence(`${STEP.sample} is not a list of resources`);
        const { attribute, prefix } = filter;
        // Every walk of a starts_with filter, the marked values' too, lists only what starts with its value.
        const strays = [walk, ...marked].flatMap((w) => {
          const value = textFilterOf(w.request)?.prefix ?? prefix;
          return eachResourceOf(w, (r, where) => {
            const text = attributeText(r, attribute);
            return text !== undefined && startsLike(text, value)
              ? undefined
              : {
                  where: `${where}.attributes.${attribute}`,
                  message: `must start with ${JSON.stringify(value)} to pass the starts_with filter`,
                  expected: `${value}…`,
                  actual: text,
                };
          });
        });
        // A marked value's walk that stopped on an answer that says nothing (a 5xx) keeps the rule from a verdict.
        const unsaid = marked.map((w) => w.unread).filter(isNoVerdict);
        if (!walk.ended) return judgeAll([strays, walk.unread, noEvidence('the filtered walk did not end')]);
        const matched = new Set(walk.pages.flatMap((p) => p.page.data.map((r) => r.id)));
        const expected = sample.body.data.filter((r) => attributeText(r, attribute)?.startsWith(prefix));
        const lost = expected.filter((r) => !matched.has(r.id));
        return judgeAll([
          strays,
          ...unsaid,
          lost.length === 0
            ? []
            : [
                {
                  where: 'all pages',
                  message: `must include every resource whose ${attribute} starts with "${prefix}"`,
                  expected: expected.map((r) => r.id),
                  actual: [...matched],
                },
              ],
        ]);
      },
    }),
    rule({
      id: 'list.orders-ascending',
      clause: '§4.8 Order shape',
      quote:
        'Order shape: `key` is `resource.attribute`, `direction` is `asc` (as used), `attribute` is the attribute name sorted on.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async drive(ctx) {
        const attribute = ctx.sortAttribute;
        const body = listBody(ctx, {
          attributes: [attribute],
          orders: [ascendingOn(attribute)],
          pagination: { limit: 25, next_token: null },
        });
        await walkPages(ctx, body, { maxPages: MAX_PAGES });
      },
      judge(log) {
        const walk = walksIn(log).find((w) => orderedOn(w.request) !== undefined);
        const attribute = walk ? orderedOn(walk.request) : undefined;
        if (!walk || attribute === undefined) return noEvidence('no walk with an ascending order');
        let previous: string | undefined;
        let compared = 0;
        const violations: Violation[] = [];
        for (const p of walk.pages) {
          for (const r of p.page.data) {
            const value = attributeText(r, attribute);
            if (value === undefined) continue;
            if (previous !== undefined) compared += 1;
            // Collation is not shown: only a pair out of order by every usual collation is a departure.
            if (
              previous !== undefined &&
              previous > value &&
              previous.localeCompare(value, undefined, { sensitivity: 'base' }) > 0
            ) {
              violations.push({
                where: `${pageNamed(p.step, p.request)}, resource ${r.id}`,
                message: `must come in ascending order of ${attribute}`,
                expected: `>= ${JSON.stringify(previous)}`,
                actual: value,
              });
            }
            previous = value;
          }
        }
        return judgeAll([
          violations,
          walk.unread,
          enoughPagesIn(walk, 'the ordered walk at limit 25'),
          compared > 0 ? [] : noEvidence(`fewer than two resources carry ${attribute}: no order to judge`),
        ]);
      },
    }),
    rule({
      id: 'list.attributes-returned',
      traffic: TRAFFIC.listRequests(),
      clause: '§2.2 attributes; §4.8 attributes',
      quote: [
        '| attributes | array of string | | attribute names to return |',
        'the response carries those requested through `attributes`',
      ],
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async drive(ctx) {
        // Up to four attributes the profile says every resource carries, in its order and reversed.
        const requested = [...new Set([ctx.sortAttribute, ...(ctx.profile.attributes ?? [])])].slice(0, 4);
        ctx.observe('attributes requested together', requested);
        for (const attributes of [requested, [...requested].reverse()]) {
          await walkPages(ctx, listBody(ctx, { attributes, pagination: { limit: 5, next_token: null } }), {
            maxPages: MAX_PAGES,
            stopAfterPages: 4,
          });
        }
      },
      judge: (log, profile) => judgeAttributesReturned(log, profile),
    }),
    addsArrayToEachResource(
      'teams',
      'list.with-teams',
      '§4.8 with_teams; §2.2 teams',
      '| with_teams | boolean | false | adds `teams` to each resource |',
    ),
    addsArrayToEachResource(
      'relations',
      'list.with-relations',
      '§4.8 with_relations; §2.2 relations',
      '| with_relations | boolean or null | false | adds `relations` to each resource |',
    ),
    rule({
      id: 'list.documented-values-accepted',
      clause: '§4.8 Request body',
      quote: [
        '| with_relations | boolean or null | false |',
        '| at_date | LocalDate | | |',
        'allowed values `strict`, `approximate`',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Values the request table documents must be accepted (what they change is another rule's business).
        // Every at_date class of the input model: 29 February, a day clocks change, past 2038-01-19.
        const documented: Partial<ListRequest>[] = [
          { with_relations: null },
          ...Object.values(dateClasses(ctx.profile.timeZones)).map((at_date) => ({ at_date })),
          { counting_mode: 'strict', with_total_count: true },
          { counting_mode: 'approximate', with_total_count: true },
        ];
        for (const extra of documented) {
          await ctx.client.post(
            'resources.list',
            listBody(ctx, { ...extra, pagination: { limit: 2, next_token: null } }),
            {
              step: `${STEP.documented} ${JSON.stringify(extra)}`,
            },
          );
        }
      },
      judge: (log) =>
        judgeEach(
          log.filter((o) => o.step.startsWith(STEP.documented)),
          'no request with a documented value was sent',
          (o) => accepted(o, { status: 200 }),
        ),
    }),
    rule({
      id: 'list.total-count-of-filtered-set',
      checks: [LIST_COUNTS],
      traffic: TRAFFIC.listRequests(),
      clause: '§4.8 Response',
      quote: [
        '| total_count | integer | present only when `with_total_count` is true; number of resources matching the filters |',
        '| total_count_approximate | boolean | present when `with_total_count` is true |',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Seven ids from across the collection, counted strictly over pages of two: a count of the
        // page, or of what remains, shows on some page.
        const ids = await idsAcross(ctx, 7);
        const body = listBody(ctx, {
          filters: [idsFilter(ids)],
          with_total_count: true,
          counting_mode: 'strict',
          pagination: { limit: 2, next_token: null },
        });
        await pagesByHand(ctx, body, 4);
      },
      judge: (log) => judgeTotalCount(log),
    }),
    rule({
      id: 'list.total-count-only-when-asked',
      clause: '§4.8 Response',
      quote: '| total_count | integer | present only when `with_total_count` is true;',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        for (const extra of [{}, { with_total_count: false }]) {
          await walkPages(ctx, listBody(ctx, { ...extra, pagination: { limit: 3, next_token: null } }), {
            maxPages: MAX_PAGES,
            stopAfterPages: 4,
          });
        }
      },
      judge(log) {
        const walks = walksIn(log).filter((w) => field(w.request, 'with_total_count') !== true);
        if (walks.length === 0) return noEvidence('no walk without with_total_count true');
        return judgeAll(
          walks.map((walk) =>
            judgeAll([
              walk.pages.flatMap((p): Violation[] =>
                'total_count' in p.page
                  ? [
                      {
                        where: `${pageNamed(p.step, p.request)}: response.body.total_count`,
                        message: 'must be absent unless with_total_count is true',
                        expected: '(absent)',
                        actual: p.page.total_count,
                      },
                    ]
                  : [],
              ),
              walk.unread,
              enoughPagesIn(walk, 'the walk at limit 3'),
            ]),
          ),
        );
      },
    }),
    rule({
      id: 'list.counts-agree',
      traffic: TRAFFIC.countsInTraffic,
      clause: '§4.8 Response; §4.9 table; §4.9 rule 3',
      quote: [
        'number of resources matching the filters',
        'null returns the whole collection in one response',
        'Iteration stops when the response has `next_token` null or an empty `data` array.',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // The same collection counted three ways, for the whole kind and for filtered sets, so a
        // cap (on a page, a count, a filter, a walk) shows when the collection is larger than it.
        const limit = await largeLimit(ctx);
        const attribute = ctx.profile.sortAttribute;
        const first = listBody(ctx, {
          attributes: attribute ? [attribute] : [],
          pagination: { limit, next_token: null },
        });
        const sample = (await listPage(ctx, first, { step: STEP.sample })).data;
        const initial = attribute
          ? sample.map((r) => attributeText(r, attribute)?.slice(0, 1)).find((v) => !!v)
          : undefined;
        // Ids taken from the listing exist, so their filter must match each of them: a cap on the
        // ids a filter reads would otherwise agree with itself three times.
        const listedIds = sample.slice(0, 150).map((r) => r.id);
        const collections: Array<{ name: string; filters: ListRequest['filters'] }> = [
          { name: 'the listed kind', filters: [] },
          { name: `ids filter of ${listedIds.length} listed ids`, filters: [idsFilter(listedIds)] },
          ...(attribute && initial
            ? [{ name: `${attribute} starts with "${initial}"`, filters: [startsWithFilter(attribute, initial)] }]
            : []),
        ];
        for (const { name, filters } of collections) {
          const walked = await walkPages(ctx, listBody(ctx, { filters, pagination: { limit, next_token: null } }), {
            maxPages: MAX_PAGES,
          });
          await listPage(
            ctx,
            listBody(ctx, {
              filters,
              with_total_count: true,
              counting_mode: 'strict',
              pagination: { limit: 1, next_token: null },
            }),
            { step: `${STEP.counted} ${name}` },
          );
          await listPage(ctx, listBody(ctx, { filters, pagination: { limit: null, next_token: null } }), {
            step: `${STEP.whole} ${name}`,
          });
          ctx.observe(`resources of ${name}`, walked.resources);
        }
      },
      judge(log) {
        const counts = log.filter((o) => o.step.startsWith(`${STEP.counted} `));
        if (counts.length === 0) return noEvidence('no collection was counted');
        const walks = walksIn(log);
        return judgeAll(
          counts.map((counted): Judgement => {
            const name = counted.step.slice(STEP.counted.length + 1);
            const filters = JSON.stringify(field(counted.request, 'filters') ?? []);
            const whole = firstWithStep(log, `${STEP.whole} ${name}`);
            const walk = walks.find((w) => JSON.stringify(field(w.request, 'filters') ?? []) === filters);
            if (!whole || !walk) return noEvidence(`${name} was not read three ways`);
            if (!walk.ended) return judgeAll([walk.unread, noEvidence(`the walk of ${name} did not end`)]);
            if (!matchesSchema('ListEnvelope', counted.body) || !matchesSchema('ListEnvelope', whole.body)) {
              return noEvidence(`${name}: a count is not a list of resources`);
            }
            const walked = walk.pages.reduce((n, p) => n + p.page.data.length, 0);
            const ids = idsFiltered(counted.request);
            // Three counts of nothing agree for nothing.
            if (walked === 0 && filters === '[]') return noEvidence('the listed kind has no resource to count');
            const expected = ids?.length ?? walked;
            const total = counted.body.total_count;
            const all = whole.body.data.length;
            if (walked === expected && total === expected && all === expected) return [];
            return [
              {
                where: name,
                message:
                  'must count the same collection whichever way it is read: a walk, total_count (strict) and limit null',
                expected:
                  ids === undefined ? 'the same number three times' : `${ids.length} (one per listed id) three times`,
                actual: { walk: walked, total_count: total, 'limit null': all },
              },
            ];
          }),
        );
      },
    }),
    rule({
      id: 'list.counting-mode-approximate',
      clause: '§4.8 counting_mode',
      quote: [
        'allowed values `strict`, `approximate`; trades accuracy of the total for speed',
        'Default of `counting_mode`: not shown.',
      ],
      level: 'OBSERVED',
      needs: ['listKind'],
      async drive(ctx) {
        const pagination = { limit: 1, next_token: null };
        const approximate = await listPage(
          ctx,
          listBody(ctx, { with_total_count: true, counting_mode: 'approximate', pagination }),
          { step: STEP.approximate },
        );
        ctx.observe('approximate counting: total_count and total_count_approximate', {
          total_count: approximate.total_count,
          total_count_approximate: approximate.total_count_approximate,
        });
        const unset = await listPage(ctx, listBody(ctx, { with_total_count: true, pagination }), {
          step: STEP.modeOmitted,
        });
        ctx.observe('counting_mode omitted: total_count_approximate', unset.total_count_approximate);
      },
      // What approximate counting gives is the server's choice, recorded above.
      judge: (log) => (firstWithStep(log, STEP.approximate) ? [] : noEvidence('no approximate count was read')),
    }),
    rule({
      id: 'list.without-pagination',
      clause: '§4.9; §8',
      quote: '| pagination | object | | see section 8 |',
      open: 'the request table gives `pagination` no default and does not mark it required: what a list without it returns is not described',
      level: 'OBSERVED',
      needs: ['listKind'],
      async drive(ctx) {
        const res = await ctx.client.post('resources.list', listBody(ctx), { step: STEP.withoutPagination });
        const json = recordOf(res.json);
        ctx.observe('list without pagination object', {
          status: res.status,
          entries: Array.isArray(json.data) ? json.data.length : undefined,
          next_token: json.next_token === null ? null : typeof json.next_token,
        });
      },
      // What a list without pagination returns is not described: any answer is the server's choice, recorded above.
      judge: (log) =>
        firstWithStep(log, STEP.withoutPagination) ? [] : noEvidence(`no ${STEP.withoutPagination} was sent`),
    }),
  ],
});
