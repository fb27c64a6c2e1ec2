/**
 * judgeUntagged on walks a client interleaved: pages of two walks sent in
 * turn are linked by their tokens, not by their order, so each walk is judged
 * whole (each resource once) and a fault that repeats a resource across pages
 * is caught in either; a walk whose ids filter names an id that does not
 * exist does not show its collection's size, so the trailing empty page is
 * not owed by it (NOT-APPLICABLE, never a FAIL).
 */
import { describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import type { FaultName } from '../../src/reference-server/faults.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { judgeUntagged } from '../../src/runner/judge-untagged.ts';
import { recordedExchanges } from '../../src/runner/recorded-traffic.ts';
import type { Rejudged } from '../../src/runner/rejudge.ts';
import { checkedFile } from '../../src/schemas/files.ts';
import { listKindId, type TargetProfile } from '../../src/target/profile.ts';
import { PlainHarClient } from '../helpers/plain-har.ts';
import { ids as idsOf, nextToken as tokenOf } from '../helpers/browse.ts';

/** Walks of `bodies`, one page of each in turn until every one has ended. */
async function interleaved(client: PlainHarClient, bodies: readonly object[]): Promise<void> {
  const tokens: unknown[] = bodies.map(() => null);
  const ended = bodies.map(() => false);
  for (let round = 0; round < 12 && ended.includes(false); round++) {
    for (const [i, body] of bodies.entries()) {
      if (ended[i]) continue;
      const answer = await client.post('resources.list', {
        ...body,
        pagination: { ...pagingOf(body), next_token: tokens[i] },
      });
      tokens[i] = tokenOf(answer.json);
      ended[i] = answer.status !== 200 || typeof tokens[i] !== 'string' || idsOf(answer.json).length === 0;
    }
  }
}

const pagingOf = (body: object): object => {
  const paging: unknown = Reflect.get(body, 'pagination');
  return typeof paging === 'object' && paging !== null ? paging : {};
};

async function judged(
  fault: FaultName | undefined,
  traffic: (client: PlainHarClient, profile: TargetProfile) => Promise<void>,
): Promise<Map<string, Rejudged>> {
  const server = await startReferenceServer({ faults: fault ? [fault] : [] });
  try {
    const client = new PlainHarClient(server.url, server.apiKey);
    await traffic(client, server.profile);
    const har = checkedFile('HarFile', JSON.parse(client.har()), 'recorded.har');
    const rules = allRules(await loadCatalogue());
    return new Map(judgeUntagged(rules, recordedExchanges(har), server.profile).map((r) => [r.ruleId, r]));
  } finally {
    await server.close();
  }
}

/** Six ids of the listed kind, then two walks of them sent in turn, at limits 2 and 4. */
async function twoWalks(client: PlainHarClient, profile: TargetProfile): Promise<void> {
  const kind = listKindId(profile);
  const six = idsOf(
    (await client.post('resources.list', { kind_id: kind, pagination: { limit: 6, next_token: null } })).json,
  );
  const filters = [{ key: 'resource.ids', value: six }];
  await interleaved(client, [
    { kind_id: kind, filters, pagination: { limit: 2 } },
    { kind_id: kind, filters, pagination: { limit: 4 } },
  ]);
}

describe('judgeUntagged', () => {
  test('two walks sent in turn are two walks: each resource once, the trailing page, on the reference server', async () => {
    const verdicts = await judged(undefined, twoWalks);
    expect(verdicts.get('pagination.each-resource-once')?.verdict).toBe('PASS');
    expect(verdicts.get('pagination.exact-multiple-empty-page')?.verdict).toBe('PASS');
    // The first page and the pages of both walks: 1 + 4 + 2.
    expect(verdicts.get('pagination.each-resource-once')?.entries).toHaveLength(7);
  }, 30_000);

  test('a resource repeated across pages of interleaved walks: pagination.each-resource-once FAILs', async () => {
    const verdicts = await judged('pagination-repeats-last-item', twoWalks);
    const once = verdicts.get('pagination.each-resource-once');
    expect(once?.verdict).toBe('FAIL');
    expect(once?.violations[0]?.message).toMatch(/must not repeat a resource/);
    // The repeat shifts the pages: the trailing page's clause is not charged with another rule's departure.
    expect(verdicts.get('pagination.exact-multiple-empty-page')?.verdict).toBe('NOT-APPLICABLE');
  }, 30_000);

  test('an ids filter naming an id that does not exist shows no collection size: the trailing page is not owed', async () => {
    const verdicts = await judged(undefined, async (client, profile) => {
      const kind = listKindId(profile);
      const three = idsOf(
        (await client.post('resources.list', { kind_id: kind, pagination: { limit: 3, next_token: null } })).json,
      );
      // Three that exist and one that does not: at limit 2 the walk ends on a page of two with no token.
      await interleaved(client, [
        { kind_id: kind, filters: [{ key: 'resource.ids', value: [...three, '1'] }], pagination: { limit: 2 } },
      ]);
    });
    expect(verdicts.get('pagination.exact-multiple-empty-page')?.verdict).toBe('NOT-APPLICABLE');
  }, 30_000);
});
