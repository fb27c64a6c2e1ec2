import { request } from 'undici';
import type { ReferenceServer } from '../../src/reference-server/index.ts';

/** Rates and teams of every mutable resource, read straight from the server; order is not state (sorted). */
export async function stateOfTarget(server: ReferenceServer): Promise<string> {
  const parts: string[] = [];
  for (const r of server.profile.mutableResources) {
    for (const op of ['resources.show-teams', 'resources.show-activity-rates']) {
      const res = await request(`${server.url}/api/directory/${op}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.apiKey}`,
          'content-type': 'application/json',
          'service-version': '26.06.25',
        },
        body: JSON.stringify({ resource_id: r.id, date_range: '1900-01-01/2199-12-31' }),
      });
      const list = (await res.body.json()) as unknown[];
      parts.push(
        `${r.id} ${op} ${list
          .map((x) => JSON.stringify(x))
          .sort()
          .join('|')}`,
      );
    }
  }
  return parts.join('\n');
}
