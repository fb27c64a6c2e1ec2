/**
 * A revocation cannot be undone, so its FAIL is confirmed otherwise than by
 * driving it again on the resource it changed: the reads that still say what
 * the state is are sent again, and a departure they no longer show is FLAKY
 * with no other resource spent; else the rule is driven again on another
 * resource, and the departure must show there too; with none left, FLAKY.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { request } from 'undici';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { TARGET_TIMING } from '../../src/core/timing.ts';
import type { ProfileResource, TargetProfile } from '../../src/target/profile.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';

let upstream: ReferenceServer;
beforeAll(async () => {
  upstream = await startReferenceServer({ resources: 40 });
});
afterAll(() => upstream.close());

/** The upstream's answer to a request, as the proxy forwards it. */
async function forward(server: ReferenceServer, path: string, body: string): Promise<{ status: number; text: string }> {
  const up = await request(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${server.apiKey}`,
      'service-version': '26.06.25',
    },
    body,
  });
  return { status: up.statusCode, text: await up.body.text() };
}

/** The rule's result, and the resource each revocation it sent named, in order, whichever attempt sent it. */
async function runRule(ruleId: string, proxy: ForwardingProxy, server: ReferenceServer, profile?: TargetProfile) {
  const revoked: string[] = [];
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: [ruleId] }),
    { baseUrl: proxy.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: profile ?? server.profile },
    {
      ...DEFAULT_ENGINE_OPTIONS,
      allowMutations: true,
      seed: 1,
      onExchange: (_rule, e) => {
        if (e.operation === 'resources.revoke-roles') revoked.push(...resourcesNamed(e.request.body));
      },
    },
  );
  const result = run.results.find((r) => r.ruleId === ruleId);
  if (!result) throw new Error(`${ruleId} has no result`);
  return { result, revoked };
}

function resourcesNamed(body: string): string[] {
  const parsed: unknown = JSON.parse(body);
  const ids = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'resource_ids') : undefined;
  return Array.isArray(ids) ? ids.map(String) : [];
}

/** A proxy that answers the first `times` accepted revocations with 200 instead of 204 (the revocation is made). */
async function revocationsAnswered200(times: number): Promise<ForwardingProxy> {
  let left = times;
  return startForwardingProxy(upstream.url, async (path, body, res) => {
    if (!path.endsWith('/resources.revoke-roles') || left <= 0) return false;
    const answer = await forward(upstream, path, body);
    if (answer.status !== 204) return false;
    left -= 1;
    res.writeHead(200);
    res.end();
    return true;
  });
}

test("a revocation's answer spoiled once: driven again on another resource, where it is answered as the spec says, FLAKY", async () => {
  const proxy = await revocationsAnswered200(1);
  try {
    const { result, revoked } = await runRule('revoke-roles.no-content', proxy, upstream);
    expect(result.verdict).toBe('FLAKY');
    expect(result.reason).toMatch(
      /did not repeat when the failing example was driven again on another resource or role/,
    );
    const [first, again, ...more] = revoked;
    expect(more).toEqual([]);
    expect(again).toBeDefined();
    expect(again).not.toBe(first);
  } finally {
    await proxy.close();
  }
});

test('a revocation the server always answers wrongly: the departure shows on two other resources too, a confirmed FAIL', async () => {
  const server = await startReferenceServer({ resources: 40, faults: ['revoke-returns-200'] });
  const proxy = await startForwardingProxy(server.url, () => false);
  try {
    const { result, revoked } = await runRule('revoke-roles.no-content', proxy, server);
    expect(result).toMatchObject({ verdict: 'FAIL', confirmed: true });
    // Confirmed twice (a middlebox spoiling one answer in thirty repeats a departure twice one time in 900).
    const [first, again, third, ...more] = revoked;
    expect(more).toEqual([]);
    expect(new Set([first, again, third]).size).toBe(3);
  } finally {
    await proxy.close();
    await server.close();
  }
});

test("a revocation's answer spoiled twice: confirmed on one other resource, not on a second, FLAKY", async () => {
  const proxy = await revocationsAnswered200(2);
  try {
    const { result, revoked } = await runRule('revoke-roles.no-content', proxy, upstream);
    expect(result.verdict).toBe('FLAKY');
    expect(result.reason).toMatch(/driven again on another resource or role 2 times/);
    expect(new Set(revoked).size).toBe(3);
    expect(revoked).toHaveLength(3);
  } finally {
    await proxy.close();
  }
});

test('with one other resource left, a revocation the server always answers wrongly is confirmed there alone: FAIL', async () => {
  const server = await startReferenceServer({ resources: 40, faults: ['revoke-returns-200'] });
  const proxy = await startForwardingProxy(server.url, () => false);
  try {
    // Two mutable resources, each holding one role on `*` it can lose whole: the first attempt and one confirmation.
    const two = [await leftWithOneRoleOnStar(server, 0), await leftWithOneRoleOnStar(server, 1)];
    const { result, revoked } = await runRule('revoke-roles.no-content', proxy, server, {
      ...server.profile,
      mutableResources: two,
    });
    expect(result).toMatchObject({ verdict: 'FAIL', confirmed: true });
    expect(revoked).toEqual(two.map((r) => r.id));
  } finally {
    await proxy.close();
    await server.close();
  }
});

test('a read of the settled state spoiled once: sent again it shows the revocation, FLAKY, and no other resource is spent', async () => {
  // The read a moment after `*` was revoked shows the role on every team again: an effect that did not last.
  let revocations = 0;
  let revokedAt = 0;
  let spoiled = false;
  const proxy = await startForwardingProxy(upstream.url, async (path, body, res) => {
    if (path.endsWith('/resources.revoke-roles')) {
      revocations += 1;
      revokedAt = Date.now();
    }
    if (!path.endsWith('/resources.list-roles') || revocations !== 1) return false;
    // The first read of the settled state: one sent a moment after the revocation (the reads at once come first).
    if (spoiled || Date.now() - revokedAt < TARGET_TIMING.momentMs / 2) return false;
    spoiled = true;
    const answer = await forward(upstream, path, body);
    const roles: unknown = JSON.parse(answer.text);
    if (!Array.isArray(roles)) throw new Error('list-roles did not answer a list');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(roles.map((a: unknown) => (typeof a === 'object' ? { ...a, team_ids: '*' } : a))));
    return true;
  });
  try {
    const { result } = await runRule('revoke-roles.star-leaves-no-team', proxy, upstream);
    expect(result.verdict).toBe('FLAKY');
    expect(result.reason).toMatch(/sent again, no longer show it/);
    // One revocation (of several resources at once): the rule was not driven again on others.
    expect(revocations).toBe(1);
  } finally {
    await proxy.close();
  }
});

test('with no resource left that suits it, a departure in the revocation’s own answer is FLAKY: it could not be driven again', async () => {
  const server = await startReferenceServer({ resources: 40, faults: ['revoke-returns-200'] });
  const proxy = await startForwardingProxy(server.url, () => false);
  try {
    // The only mutable resource, left holding one role on `*` it can lose whole: once the first attempt
    // revoked that one, no resource holds what the rule needs.
    const only = await leftWithOneRoleOnStar(server);
    const { result, revoked } = await runRule('revoke-roles.no-content', proxy, server, {
      ...server.profile,
      mutableResources: [only],
    });
    expect(result.verdict).toBe('FLAKY');
    expect(result.reason).toMatch(/could not be driven again/);
    expect(revoked).toEqual([only.id]);
  } finally {
    await proxy.close();
    await server.close();
  }
});

/** A mutable resource of a role kind, once every role it holds on `*` but one (kind-defining roles aside) is revoked. */
async function leftWithOneRoleOnStar(server: ReferenceServer, nth = 0): Promise<ProfileResource> {
  const defining = new Set(server.profile.roles.filter((r) => r.definesKindId).map((r) => r.id));
  const roleKinds = new Set(server.profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
  const resource = server.profile.mutableResources.filter((r) => roleKinds.has(r.kindId))[nth];
  if (!resource) throw new Error('the reference server lists no mutable resource of a role kind');
  const answer = await forward(
    server,
    '/api/directory/resources.list-roles',
    JSON.stringify({ resource_ids: [resource.id], role_ids: server.profile.roles.map((r) => r.id) }),
  );
  const roles: unknown = JSON.parse(answer.text);
  if (!Array.isArray(roles)) throw new Error('list-roles did not answer a list');
  const onStar = roles.flatMap((a: unknown) => {
    if (typeof a !== 'object' || a === null) return [];
    const roleId = String(Reflect.get(a, 'role_id'));
    const held = Reflect.get(a, 'is_assigned') === true && Reflect.get(a, 'team_ids') === '*';
    return held && !defining.has(roleId) ? [roleId] : [];
  });
  const [, ...others] = onStar;
  if (onStar.length === 0) throw new Error(`resource ${resource.id} holds no role on \`*\``);
  for (const roleId of others) {
    const revoked = await forward(
      server,
      '/api/directory/resources.revoke-roles',
      JSON.stringify({ resource_ids: [resource.id], role_ids: [roleId] }),
    );
    if (revoked.status >= 300) throw new Error(`revoking role ${roleId} of ${resource.id} answered ${revoked.status}`);
  }
  return resource;
}

/**
 * Revokes, on `resourceId`, a role the request `named` did not name and that defines no kind (whole), through
 * the server directly: another party's revocation, or a server revoking the wrong role.
 */
async function revokeAnotherRole(server: ReferenceServer, revokePath: string, resourceId: string, named: Set<string>) {
  const defining = new Set(server.profile.kinds.flatMap((k) => (k.definingRoleId ? [k.definingRoleId] : [])));
  const roles: unknown = JSON.parse(
    (await forward(server, listRolesPath(revokePath), JSON.stringify({ resource_ids: [resourceId] }))).text,
  );
  const other = (Array.isArray(roles) ? roles : [])
    .map((a: unknown) => (typeof a === 'object' && a !== null ? String(Reflect.get(a, 'role_id')) : ''))
    .find((role) => role !== '' && !named.has(role) && !defining.has(role));
  if (other !== undefined) {
    await forward(server, revokePath, JSON.stringify({ resource_ids: [resourceId], role_ids: [other] }));
  }
}

function rolesNamed(body: string): Set<string> {
  const parsed: unknown = JSON.parse(body);
  return new Set(
    typeof parsed === 'object' && parsed !== null ? [Reflect.get(parsed, 'role_ids')].flat().map(String) : [],
  );
}

/**
 * Another machine revoking on the same resources (two CI jobs sharing a staging target, which no lock folder
 * joins): after the first read that follows each revocation the suite sends, the proxy revokes, on each
 * resource it named, a role it did not name, as another party would. Two reads with nothing of the suite's
 * between them differ: the departure is another party's, never a FAIL.
 */
test('another party revoking roles the rule did not name: ERROR DC_ERR_FOREIGN_CHANGE naming the role, never FAIL', async () => {
  const server = await startReferenceServer({ resources: 40 });
  let revoked: { path: string; body: string } | undefined;
  const proxy = await startForwardingProxy(server.url, async (path, body, res) => {
    if (path.endsWith('/resources.revoke-roles')) {
      revoked = { path, body };
      return false;
    }
    if (!path.endsWith('/resources.list-roles') || revoked === undefined) return false;
    const answer = await forward(server, path, body);
    const { path: revokePath, body: revokeBody } = revoked;
    revoked = undefined;
    for (const resourceId of resourcesNamed(revokeBody)) {
      await revokeAnotherRole(server, revokePath, resourceId, rolesNamed(revokeBody));
    }
    res.writeHead(answer.status);
    res.end(answer.text);
    return true;
  });
  try {
    const { result } = await runRule('revoke-roles.omitted-team-ids-removes-role', proxy, server);
    expect(result).toMatchObject({ verdict: 'ERROR', errorCode: 'DC_ERR_FOREIGN_CHANGE' });
    expect(result.reason).toMatch(/another party changed a resource this rule held/);
    expect(result.reason).toMatch(
      /resources\.list-roles of resource \d+ showed role \d+ first as .*then as \(not held\)/,
    );
  } finally {
    await proxy.close();
    await server.close();
  }
});

/**
 * The same role gone, but as part of the revocation itself (the server revokes a role the request did not
 * name too, before it answers): the rule's departure, confirmed, a FAIL, whatever another party could do.
 */
test('a server that revokes a role the request did not name: a confirmed FAIL, not another party', async () => {
  const server = await startReferenceServer({ resources: 40 });
  const proxy = await startForwardingProxy(server.url, async (path, body, res) => {
    if (!path.endsWith('/resources.revoke-roles')) return false;
    const answer = await forward(server, path, body);
    for (const resourceId of resourcesNamed(body)) await revokeAnotherRole(server, path, resourceId, rolesNamed(body));
    res.writeHead(answer.status);
    res.end(answer.text);
    return true;
  });
  try {
    const { result } = await runRule('revoke-roles.omitted-team-ids-removes-role', proxy, server);
    expect(result).toMatchObject({ verdict: 'FAIL', confirmed: true });
  } finally {
    await proxy.close();
    await server.close();
  }
});

function listRolesPath(revokePath: string): string {
  return revokePath.replace(/resources\.revoke-roles$/, 'resources.list-roles');
}
