/**
 * Restoration puts back only what differs (the fewest requests), and falls
 * back to unassigning every period and assigning everything again when that
 * does not verify.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { restoreState, targetedUndoRequests } from '../../src/rules/state-guard.ts';
import { captureState, stateDifference, type ResourceState } from '../../src/rules/steps/state.ts';
import { startForwardingProxy } from '../helpers/forwarding-proxy.ts';
import { ratePeriod } from '../helpers/rate-period.ts';
import { TARGET_TIMING } from '../../src/core/timing.ts';
import { catalogueOwners } from '../helpers/check-owners.ts';

/** A step's context of one test: its client, the catalogue's owners of the shared checks, a real target's timing. */
async function stepContext(client: DirectoryClient) {
  return { ruleId: 'test', client, found: () => undefined, ownerOf: await catalogueOwners(), timing: TARGET_TIMING };
}

let server: ReferenceServer;
let agent: Agent;

beforeAll(async () => {
  server = await startReferenceServer();
  agent = new Agent();
});
afterAll(async () => {
  await agent.close();
  await server.close();
});

function clientFor(url: string): { client: DirectoryClient; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const redactor = new Redactor();
  redactor.add(server.apiKey, '$DIRECTORY_API_KEY');
  const client = new DirectoryClient({
    baseUrl: url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor,
    credential: { apiKey: server.apiKey, placeholder: '$DIRECTORY_API_KEY' },
    onExchange: (e) => exchanges.push(e),
  });
  return { client, exchanges };
}

const sent = (exchanges: Exchange[], operation: string): number =>
  exchanges.filter((e) => e.operation === operation).length;

/** A rate assigned inside the resource's last period and part of it unassigned: three fragments where one was. */
async function fragment(client: DirectoryClient, before: ResourceState): Promise<void> {
  const last = before.rates!.at(-1)!;
  const [start] = last.date_range.split('/');
  const year = Number(start!.slice(0, 4));
  const assign = await client.post('resources.assign-activity-rate', {
    resource_id: before.resourceId,
    date_range: `${year}-03-01/${year}-05-31`,
    average_rate: 37,
    work_regime_id: last.work_regime.id,
  });
  expect(assign.status).toBe(204);
  const unassign = await client.post('resources.unassign-activity-rate', {
    resource_id: before.resourceId,
    date_range: `${year}-04-01/${year}-04-30`,
  });
  expect(unassign.status).toBeLessThan(300);
}

test('only what differs is put back: the changed period assigned again, nothing unassigned', async () => {
  const resourceId = server.profile.mutableResources[0]!.id;
  const { client, exchanges } = clientFor(server.url);
  const ctx = await stepContext(client);
  const before = await captureState(ctx, resourceId, ['rates', 'teams']);
  await fragment(client, before);
  const now = await captureState(ctx, resourceId, ['rates', 'teams']);
  expect(stateDifference(before, now)).toBeDefined();
  // The teams did not change: nothing is sent for them; the new fragments lie inside the former period.
  expect(targetedUndoRequests(before, now).map((r) => r.operation)).toEqual(['resources.assign-activity-rate']);

  exchanges.length = 0;
  await restoreState(ctx, before);
  // Both parts read before restoring; only the rates were written, so only they are read again to verify.
  expect(sent(exchanges, 'resources.show-teams')).toBe(1);
  expect(sent(exchanges, 'resources.show-activity-rates')).toBe(2);
  expect(stateDifference(before, await captureState(ctx, resourceId, ['rates', 'teams']))).toBeUndefined();
  expect(sent(exchanges, 'resources.unassign-activity-rate')).toBe(0);
  expect(sent(exchanges, 'resources.assign-activity-rate')).toBe(1);
  expect(sent(exchanges, 'resources.assign-team')).toBe(0);
});

test('a period outside every former one is unassigned on its own range', () => {
  const before: ResourceState = { resourceId: '7', rates: [ratePeriod('2020-01-01/2020-12-31', 50)] };
  const now: ResourceState = {
    resourceId: '7',
    rates: [ratePeriod('2020-01-01/2020-12-31', 50), ratePeriod('2031-01-01/2031-02-01', 10)],
  };
  expect(targetedUndoRequests(before, now)).toEqual([
    {
      operation: 'resources.unassign-activity-rate',
      body: { resource_id: '7', date_range: '2031-01-01/2031-02-01' },
    },
  ]);
});

test('when putting back what differs does not verify, every period is unassigned and everything assigned again', async () => {
  // A server whose first restoring assignment is answered 204 and not applied.
  let swallowed = false;
  const lossy = await startForwardingProxy(server.url, (path, body, res) => {
    if (swallowed || !path.endsWith('resources.assign-activity-rate') || !body.includes('activity_rate_patterns'))
      return false;
    swallowed = true;
    res.writeHead(204).end();
    return true;
  });
  try {
    const resourceId = server.profile.mutableResources[1]!.id;
    const { client, exchanges } = clientFor(lossy.url);
    const ctx = await stepContext(client);
    const before = await captureState(ctx, resourceId, ['rates']);
    await fragment(client, before);
    exchanges.length = 0;
    await restoreState(ctx, before);
    expect(swallowed).toBe(true);
    expect(stateDifference(before, await captureState(ctx, resourceId, ['rates']))).toBeUndefined();
    expect(sent(exchanges, 'resources.unassign-activity-rate')).toBeGreaterThanOrEqual(3);
    expect(sent(exchanges, 'resources.assign-activity-rate')).toBe(1 + before.rates!.length);
  } finally {
    await lossy.close();
  }
});

test("a restoration's read of the state answered with a body cut in half is read again: the resource is put back", async () => {
  // After the rule's change, the first read of the state on the way to restoring it is answered with half
  // its JSON, framed as complete (its own Content-Length): what a cut that closed cleanly looks like.
  let reads = 0;
  let armed = false;
  const cutting = await startForwardingProxy(server.url, async (path, body, res) => {
    if (!armed || !path.endsWith('resources.show-activity-rates') || ++reads > 1) return false;
    const answer = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body,
    });
    const text = await answer.text();
    const half = text.slice(0, Math.floor(text.length / 2));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(half)) });
    res.end(half);
    return true;
  });
  try {
    const resourceId = server.profile.mutableResources[2]!.id;
    const { client } = clientFor(cutting.url);
    const ctx = await stepContext(client);
    const before = await captureState(ctx, resourceId, ['rates']);
    await fragment(client, before);
    armed = true;
    expect(await restoreState(ctx, before)).toMatchObject({ restored: true });
    expect(reads).toBeGreaterThan(1);
    expect(stateDifference(before, await captureState(ctx, resourceId, ['rates']))).toBeUndefined();
  } finally {
    await cutting.close();
  }
});
