/**
 * resources.list (§4.8) and its pagination (§4.9) as typed steps. Every
 * answer is judged here for the rules whose clauses it shows, each judge
 * (src/rules/judges) `owned` by its rule: the envelope, its counts, a page
 * within `limit`, only the filtered ids, and over a walk no repeats, no token
 * twice, an end (EACH_RESOURCE_ONCE). Whichever rule walks the pages, a
 * departure goes to the rule it breaks: the one whose record names the check.
 */
import { isRefusal } from '../no-such-id.ts';
import type { DirectoryClient } from '../../client/directory-client.ts';
import type { ApiResponse } from '../../core/exchange.ts';
import type { ListEnvelope, ListRequest } from '../../schemas/index.ts';
import { expectJson, expectSuccess, fail, failAll, owned, precondition } from '../assertions.ts';
import type { BaseCheckContext } from '../types.ts';
import { LIST_ANSWER_JUDGES, LIST_ENVELOPE } from '../judges/list-answer.ts';
import { observedOf } from '../judges/observed.ts';
import { judgesOf } from '../judges/read-answers.ts';
import { EACH_RESOURCE_ONCE, WalkJudge } from '../judges/walk.ts';

export type StepContext = Pick<BaseCheckContext, 'ruleId' | 'client' | 'found' | 'ownerOf'>;
export type ListResource = ListEnvelope['data'][number];
export type Filter = NonNullable<ListRequest['filters']>[number];
export type Order = NonNullable<ListRequest['orders']>[number];

/** A list request for the kind the profile lists, with `extra` fields. */
export function listBody(ctx: { readonly listKindId: string }, extra: Omit<Partial<ListRequest>, 'kind_id'> = {}) {
  return { kind_id: ctx.listKindId, ...extra } satisfies ListRequest;
}

export function idsFilter(ids: readonly string[]): Filter {
  return { key: 'resource.ids', value: [...ids] };
}

export function startsWithFilter(attribute: string, prefix: string): Filter {
  return { key: 'resource.text', value: { attribute, operator: 'starts_with', value: prefix } };
}

export function ascendingOn(attribute: string): Order {
  return { key: 'resource.attribute', direction: 'asc', attribute };
}

/** The text value of a requested attribute, when the resource carries one. */
export function attributeText(resource: ListResource, attribute: string): string | undefined {
  const attributes = resource.attributes;
  if (typeof attributes !== 'object' || attributes === null) return undefined;
  const value = (attributes as Record<string, unknown>)[attribute];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Runs the judges of a read's answer (src/rules/judges/read-answers.ts),
 * each for the rule that owns what it checks.
 */
export function judgeRead(ctx: StepContext, res: ApiResponse, step: string, request: unknown): void {
  const observed = observedOf(res, step, request);
  for (const check of judgesOf(res.exchange.operation)) owned(ctx, check, () => failAll(check.judge(observed)));
}

/**
 * One page of resources.list; `fresh` sends it even when the run has the
 * answer already (a rule that repeats a request to see a departure one time
 * in N needs each repetition answered by the server).
 */
export async function listPage(
  ctx: StepContext,
  body: ListRequest,
  options: { step?: string; client?: DirectoryClient; fresh?: boolean } = {},
): Promise<ListEnvelope> {
  const step = options.step ?? 'resources.list';
  // No documented operation creates, removes or changes a listed resource but for its team
  // assignations: without `with_teams` the same request always has the same answer, and the run
  // sends it once for every rule that asks (the suite's changes stay off this answer).
  const res = await (options.client ?? ctx.client).post('resources.list', body, {
    shared: body.with_teams !== true && options.fresh !== true,
    step,
  });
  // 401, 429 and 5xx are no verdict (a harness fault); anything else is judged.
  owned(ctx, LIST_ENVELOPE, () => expectSuccess(res, { step, status: 200 }));
  const observed = observedOf(res, step, body);
  for (const check of LIST_ANSWER_JUDGES) owned(ctx, check, () => failAll(check.judge(observed)));
  // The envelope's judge passed: this only types the body.
  const page = owned(ctx, LIST_ENVELOPE, () => expectJson(res, 'ListEnvelope', { step }));
  return page;
}

/**
 * Whether the target takes `body` at all, for values whose refusal the spec
 * leaves open (ids of another kind or of no resource: the status of an
 * unknown identifier is not shown, §7). A 4xx is recorded as the target's
 * choice and the caller sends nothing more of it; any other answer is judged
 * where the caller's walk sends the same request (one shared read, kept
 * only when it is a 2xx).
 */
export async function takes(
  ctx: StepContext & Pick<BaseCheckContext, 'observe'>,
  body: ListRequest,
  what: string,
): Promise<boolean> {
  const res = await ctx.client.post('resources.list', body, { shared: body.with_teams !== true, step: what });
  if (!isRefusal(res)) return true;
  ctx.observe(`refused: ${what}`, res.status);
  return false;
}

/**
 * Resources a rule only picks from are read as one page of this many (or
 * more, when a rule wants more), whatever number the rule wants: the same
 * request for every rule, so the run sends it once (a shared read).
 */
export const PICKING_PAGE = 100;

/**
 * The ids of the first `n` resources of the listed kind; with `atLeast`, a
 * target whose kind has fewer cannot show the rule (SKIP).
 */
export async function firstIds(
  ctx: StepContext & { readonly listKindId: string },
  n: number,
  options: { atLeast?: number } = {},
): Promise<string[]> {
  const limit = Math.max(n, PICKING_PAGE);
  const page = await listPage(ctx, listBody(ctx, { pagination: { limit, next_token: null } }));
  const ids = page.data.slice(0, n).map((r) => r.id);
  const atLeast = options.atLeast ?? 0;
  precondition(ids.length >= atLeast, `the listed kind has fewer than ${atLeast} resources`);
  return ids;
}

/**
 * `n` ids from across the first hundred resources of the listed kind (not
 * only its first page), in the collection's order; with fewer, the rule
 * cannot be shown (SKIP).
 */
export async function idsAcross(ctx: StepContext & { readonly listKindId: string }, n: number): Promise<string[]> {
  const all = await firstIds(ctx, PICKING_PAGE, { atLeast: n });
  const step = all.length / n;
  return Array.from({ length: n }, (_, i) => all[Math.floor(i * step)]).filter((id) => id !== undefined);
}

export interface WalkOptions {
  /** Guard against servers whose pages never end: more pages than this is a departure from §4.9 rule 3. */
  maxPages: number;
  /** Stop quietly after this many pages (a rule that only looks at the first pages). */
  stopAfterPages?: number;
  /** Called with every page, in order. */
  onPage?: (page: ListEnvelope, index: number) => void;
  client?: DirectoryClient;
  /** Every page sent to the server, none taken from the run's shared reads (see listPage). */
  fresh?: boolean;
}

export interface Walk {
  /** Pages requested (the trailing empty page included). */
  pages: number;
  /** Resources seen. */
  resources: number;
  /** True when the iteration ended as §4.9 rule 3 says (not cut short by stopAfterPages). */
  ended: boolean;
}

/**
 * Follows §4.9: the first request carries next_token null, each following one
 * repeats it with only next_token replaced, and iteration stops on a null
 * token or an empty page. Memory stays bounded by the ids seen (about
 * twenty bytes each, see seen-ids.ts). A resource repeated across pages, a
 * token that comes back, and pages that never end are the business of the
 * rule that names EACH_RESOURCE_ONCE: judged here, page by page, in
 * any other rule's walk; in that rule's own walks its judge reads them from
 * its log (judges/walks-once.ts), and the walk only stops at `maxPages`.
 */
export async function walkPages(ctx: StepContext, body: ListRequest, options: WalkOptions): Promise<Walk> {
  const limit = body.pagination?.limit ?? null;
  // A step never judges the running rule's own clause: its judge does.
  const judge = ctx.ruleId === ctx.ownerOf(EACH_RESOURCE_ONCE) ? undefined : new WalkJudge();
  let token: string | null = null;
  let resources = 0;
  let first: string | undefined;
  for (let index = 0; ; index++) {
    if (index >= options.maxPages) {
      if (!judge) return { pages: index, resources, ended: false };
      owned(ctx, EACH_RESOURCE_ONCE, () =>
        fail({
          where: `limit ${limit}, page ${index + 1}`,
          message: 'must end: next_token never null and data never empty',
          expected: `at most ${options.maxPages} pages`,
          actual: 'more',
        }),
      );
    }
    const step = `resources.list page ${index + 1}`;
    const request = { ...body, pagination: { limit, next_token: token } };
    const page = await listPage(ctx, request, {
      step,
      ...(options.client ? { client: options.client } : {}),
      ...(options.fresh ? { fresh: true } : {}),
    });
    // The page passed the list step's judges: the walk's judge reads it as the answer it was.
    const answered = { status: 200, body: page };
    if (judge) owned(ctx, EACH_RESOURCE_ONCE, () => failAll(judge.page(answered, index, `limit ${limit}`)));
    resources += page.data.length;
    options.onPage?.(page, index);
    if (page.next_token === null || page.data.length === 0) return { pages: index + 1, resources, ended: true };
    if (options.stopAfterPages !== undefined && index + 1 >= options.stopAfterPages) {
      return { pages: index + 1, resources, ended: false };
    }
    // Back at its first resource, the walk would only send again what it sent: it stops there, and the
    // repeat is its judge's to read (a server whose pages come round again with new tokens never ends).
    if (index > 0 && page.data.some((r) => r.id === first)) return { pages: index + 1, resources, ended: false };
    first ??= page.data[0]?.id;
    const next = page.next_token;
    token = next;
  }
}

/** The ids a full walk yields, in order. */
export async function idsOfWalk(ctx: StepContext, body: ListRequest, options: Omit<WalkOptions, 'onPage'>) {
  const ids: string[] = [];
  const walk = await walkPages(ctx, body, { ...options, onPage: (page) => ids.push(...page.data.map((r) => r.id)) });
  return { ids, walk };
}
