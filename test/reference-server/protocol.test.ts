import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { harness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.server.close());

const listBody = (): Record<string, unknown> => ({
  kind_id: h.server.profile.listKindId,
  pagination: { limit: 2, next_token: null },
});

describe('authentication (§5)', () => {
  test('Bearer and Basic with the key are accepted', async () => {
    expect((await h.post('resources.list', listBody())).status).toBe(200);
    const basic = Buffer.from(`anyone:${h.server.apiKey}`).toString('base64');
    expect((await h.post('resources.list', listBody(), { authorization: `Basic ${basic}` })).status).toBe(200);
  });

  test('no or unknown credentials get 401 with a JSON message', async () => {
    for (const authorization of ['', 'Bearer nope', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Token x']) {
      const res = await h.post('resources.list', listBody(), { authorization });
      expect(res.status, authorization).toBe(401);
      expect((res.body as { message: string }).message).toMatch(/credential|Authorization/);
    }
  });

  test('the restricted key cannot mutate and sees redacted values', async () => {
    const restricted = { authorization: `Bearer ${h.server.restrictedApiKey}` };
    const id = h.server.profile.mutableResources[0]!.id;
    const revoke = await h.post(
      'resources.revoke-roles',
      { resource_ids: [id], role_ids: [h.server.profile.roles[3]!.id] },
      restricted,
    );
    expect(revoke.status).toBe(403);
    const teams = (await h.post('resources.show-teams', { resource_id: id }, restricted)).body as Array<
      Record<string, unknown>
    >;
    expect(teams.length).toBeGreaterThan(0);
    for (const t of teams) {
      expect(t.external_id).toEqual({ redacted: 'forbidden' });
      expect(t.contract_number).toEqual({ redacted: 'forbidden' });
      expect(typeof t.regrouping).toBe('string');
    }
    const rates = (await h.post('resources.show-activity-rates', { resource_id: id }, restricted)).body as Array<
      Record<string, unknown>
    >;
    expect(rates[0]!.indemnity_enabled).toEqual({ redacted: 'forbidden' });
    const full = (await h.post('resources.show-activity-rates', { resource_id: id })).body as Array<
      Record<string, unknown>
    >;
    expect(typeof full[0]!.indemnity_enabled).toBe('boolean');
  });

  test('list-roles shows the restricted key only the roles it may view', async () => {
    const ids = h.server.profile.mutableResources.slice(0, 10).map((r) => r.id);
    const hidden = new Set(h.server.profile.restrictedHiddenRoleIds);
    const full = (await h.post('resources.list-roles', { resource_ids: ids })).body as Array<{ role_id: string }>;
    const limited = (
      await h.post(
        'resources.list-roles',
        { resource_ids: ids },
        { authorization: `Bearer ${h.server.restrictedApiKey}` },
      )
    ).body as Array<{ role_id: string }>;
    expect(full.some((a) => hidden.has(a.role_id))).toBe(true);
    expect(limited.some((a) => hidden.has(a.role_id))).toBe(false);
    expect(limited.length).toBeLessThan(full.length);
  });
});

describe('protocol', () => {
  test('Service-Version: supported, absent and unknown', async () => {
    expect((await h.post('resources.list', listBody(), { 'service-version': '26.06.25' })).status).toBe(200);
    expect((await h.post('resources.list', listBody())).status).toBe(200);
    const unknown = await h.post('resources.list', listBody(), { 'service-version': '1.0' });
    expect(unknown.status).toBe(400);
    expect((unknown.body as { field: string }).field).toBe('Service-Version');
  });

  test('wrong content type, unknown operation, oversized body', async () => {
    expect((await h.post('resources.list', listBody(), { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await h.post('resources.nope', {})).status).toBe(404);
    const huge = JSON.stringify({ kind_id: '1', attributes: ['x'.repeat(2 * 1024 * 1024)] });
    expect((await h.post('resources.list', undefined, {}, huge)).status).toBe(413);
  });

  test('the same seed gives the same directory; another seed another one', async () => {
    const a = await startReferenceServer({ seed: 9, resources: 50 });
    const b = await startReferenceServer({ seed: 9, resources: 50 });
    const c = await startReferenceServer({ seed: 10, resources: 50 });
    try {
      expect(a.profile.teams).toEqual(b.profile.teams);
      expect(a.profile.teams).not.toEqual(c.profile.teams);
      expect(a.apiKey).not.toBe(b.apiKey);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  test('an unknown fault name is refused at start (by the types too: a caller without them gets the error)', async () => {
    // @ts-expect-error -- not a fault of the catalogue
    await expect(startReferenceServer({ faults: ['no-such-fault'] })).rejects.toMatchObject({
      code: 'DC_ERR_UNKNOWN_FAULT',
    });
  });
});

describe('pagination tokens (§4.9)', () => {
  test('tokens carry the keyset, not an offset, and are signed', async () => {
    const first = (await h.post('resources.list', listBody())).body as {
      data: Array<{ id: string }>;
      next_token: string;
    };
    const [payload, mac] = first.next_token.split('.');
    expect(mac).toBeTruthy();
    const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { last: string[] };
    expect(decoded.last).toEqual([first.data[1]!.id]);
    const forged = `${Buffer.from(JSON.stringify({ ...decoded, last: [first.data[0]!.id] })).toString('base64url')}.${mac}`;
    const res = await h.post('resources.list', { ...listBody(), pagination: { limit: 2, next_token: forged } });
    expect(res.status).toBe(422);
    expect((res.body as { message: string }).message).toMatch(/next_token is invalid/);
  });

  test('a token is bound to kind_id', async () => {
    const first = (await h.post('resources.list', listBody())).body as { next_token: string };
    const other = h.server.profile.kinds[1]!.id;
    const res = await h.post('resources.list', {
      kind_id: other,
      pagination: { limit: 2, next_token: first.next_token },
    });
    expect(res.status).toBe(422);
  });
});
