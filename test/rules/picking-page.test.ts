/**
 * Rules that only pick resources read them as one page of the same size,
 * whatever number each wants: the run sends that page once and shares it.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import { SharedReads } from '../../src/client/shared-reads.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { firstIds, idsAcross } from '../../src/rules/steps/list.ts';
import { untouchedRoleResources } from '../../src/rules/steps/roles.ts';
import { listKindId } from '../../src/target/profile.ts';
import { catalogueOwners } from '../helpers/check-owners.ts';

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

test('firstIds, idsAcross and untouchedRoleResources of any size send one page of each kind for the run', async () => {
  const exchanges: Exchange[] = [];
  const redactor = new Redactor();
  const client = new DirectoryClient({
    baseUrl: server.url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor,
    credential: { apiKey: server.apiKey, placeholder: '$DIRECTORY_API_KEY' },
    sharedReads: new SharedReads(),
    onExchange: (e) => exchanges.push(e),
  });
  const kind = listKindId(server.profile);
  expect(kind).toBeDefined();
  const ctx = {
    ruleId: 'test',
    client,
    found: () => undefined,
    ownerOf: await catalogueOwners(),
    profile: server.profile,
    listKindId: kind ?? '',
  };
  const six = await firstIds(ctx, 6);
  const nine = await firstIds(ctx, 9);
  expect(six).toHaveLength(6);
  expect(nine.slice(0, 6)).toEqual(six);
  expect(await idsAcross(ctx, 3)).toHaveLength(3);
  const four = await untouchedRoleResources(ctx, 4);
  const eight = await untouchedRoleResources(ctx, 8);
  expect(eight.slice(0, 4)).toEqual(four);
  const roleKinds = server.profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id);
  const sent = exchanges.filter((e) => e.operation === 'resources.list' && !e.shared);
  // One page of each role kind (the listed kind among them): every other read shared one of them.
  expect(sent).toHaveLength(new Set([...roleKinds, kind]).size);
});
