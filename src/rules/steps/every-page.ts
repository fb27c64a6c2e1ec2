/**
 * Rules about "every page" of a list (§4.8, §4.9): what they must have looked
 * at before they can pass. Bugs of later pages live on the pages a next_token
 * asks for, so a walk that never reached them shows nothing.
 */
import type { ListEnvelope, ListRequest } from '../../schemas/index.ts';
import { precondition } from '../assertions.ts';
import { walkPages, type StepContext } from './list.ts';

/**
 * Pages holding resources an "every page" rule must have looked at: the
 * first, and at least two a next_token asked for. Fewer is data too thin to
 * show the rule: SKIP, not PASS.
 */
export const MIN_PAGES = 3;

/** Walks never go past this; a server that keeps paging is pagination.each-resource-once's business. */
const MAX_PAGES = 10_000;

/** SKIP unless `filled` pages held resources; `walked` names the walk in the reason. */
export function enoughPages(filled: number, walked: string): void {
  precondition(
    filled >= MIN_PAGES,
    `${walked} gave ${filled} page(s) holding resources: ${MIN_PAGES} are needed to show the rule on every page`,
  );
}

/**
 * Every page of a walk of `body` (the first four pages with `limit`), each
 * checked by `check`; a walk with fewer than three pages holding resources
 * cannot show the rule (SKIP). Returns how many resources the pages held.
 */
export async function onEveryPage(
  ctx: StepContext,
  body: ListRequest,
  limit: number,
  check: (page: ListEnvelope, index: number) => void,
): Promise<number> {
  let seen = 0;
  let filled = 0;
  await walkPages(
    ctx,
    { ...body, pagination: { limit, next_token: null } },
    {
      maxPages: MAX_PAGES,
      stopAfterPages: 4,
      onPage(page, index) {
        seen += page.data.length;
        if (page.data.length > 0) filled += 1;
        check(page, index);
      },
    },
  );
  enoughPages(filled, `the walk at limit ${limit}`);
  return seen;
}
