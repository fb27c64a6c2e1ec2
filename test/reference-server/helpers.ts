import { request } from 'undici';
import {
  startReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../../src/reference-server/index.ts';

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

export interface Harness {
  server: ReferenceServer;
  post(operation: string, body: unknown, headers?: Record<string, string>, raw?: string): Promise<Answer>;
  /** Everything a request could change for these resources. */
  state(resourceIds: string[]): Promise<string>;
}

export async function harness(options: ReferenceServerOptions = {}): Promise<Harness> {
  const server = await startReferenceServer({ resources: 120, ...options });
  const post = async (
    operation: string,
    body: unknown,
    headers: Record<string, string> = {},
    raw?: string,
  ): Promise<Answer> => {
    const res = await request(`${server.url}/api/directory/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}`, ...headers },
      body: raw ?? JSON.stringify(body),
    });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed, text };
  };
  const state = async (resourceIds: string[]): Promise<string> => {
    const parts: unknown[] = [(await post('resources.list-roles', { resource_ids: resourceIds })).body];
    for (const id of resourceIds) {
      parts.push((await post('resources.show-teams', { resource_id: id })).body);
      parts.push((await post('resources.show-activity-rates', { resource_id: id })).body);
    }
    return JSON.stringify(parts);
  };
  return { server, post, state };
}

export function roleResource(h: Harness, n = 0): string {
  const roleKinds = new Set(h.server.profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
  return h.server.profile.mutableResources.filter((r) => roleKinds.has(r.kindId))[n]!.id;
}

export function otherResource(h: Harness): string {
  const roleKinds = new Set(h.server.profile.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
  return h.server.profile.mutableResources.find((r) => !roleKinds.has(r.kindId))!.id;
}
