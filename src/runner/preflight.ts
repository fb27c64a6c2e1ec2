import { Agent } from 'undici';
import { DirectoryClient } from '../client/directory-client.ts';
import { isHarnessError } from '../core/errors.ts';
import { Redactor } from '../client/redact.ts';
import { listKindId } from '../target/profile.ts';
import type { RunTarget } from './run-rules.ts';

/**
 * The profile's mutable resources, looked up on the target before anything
 * changes: one that is missing (or of another kind) is a configuration error
 * naming it, never a FAIL of the server. An id the first lookup misses is
 * looked up alone again, so a server whose filter mishandles a long list is
 * not taken for a profile error. Roles and teams cannot be looked up with a
 * documented read, so they are not checked here.
 */
async function missingResources(client: DirectoryClient, target: RunTarget): Promise<string[]> {
  const byKind = new Map<string, string[]>();
  for (const r of target.profile.mutableResources) byKind.set(r.kindId, [...(byKind.get(r.kindId) ?? []), r.id]);
  const missing: string[] = [];
  // undefined: the target did not answer with a list, so the lookup tells nothing (the rules will judge it).
  const found = async (kindId: string, ids: string[]): Promise<Set<string> | undefined> => {
    const res = await client.post('resources.list', {
      kind_id: kindId,
      filters: [{ key: 'resource.ids', value: ids }],
      pagination: { limit: null, next_token: null },
    });
    const data = (res.json as { data?: Array<{ id?: unknown }> } | undefined)?.data;
    if (res.status < 200 || res.status > 299 || !Array.isArray(data)) return undefined;
    return new Set(data.map((d) => String(d.id)));
  };
  for (const [kindId, ids] of byKind) {
    const seen = await found(kindId, ids);
    if (!seen) continue;
    for (const id of ids.filter((i) => !seen.has(i))) {
      if ((await found(kindId, [id]))?.has(id) === false) missing.push(`${id} (kind ${kindId})`);
    }
  }
  return missing;
}

export type PreflightOutcome = { ok: true } | { ok: false; reason: string };

/**
 * One documented read before the run: a target that cannot be reached or
 * refuses the credential gets exit code 2, never a catalogue of failures.
 */
export async function preflight(target: RunTarget, timeoutMs: number): Promise<PreflightOutcome> {
  const redactor = new Redactor();
  redactor.add(target.apiKey, '$DIRECTORY_API_KEY');
  const dispatcher = new Agent({ connections: 1 });
  const client = new DirectoryClient({
    baseUrl: target.baseUrl,
    serviceVersion: target.serviceVersion,
    dispatcher,
    redactor,
    timeoutMs,
    maxAttempts: 3,
    ...(target.apiKey ? { credential: { apiKey: target.apiKey, placeholder: '$DIRECTORY_API_KEY' } } : {}),
  });
  const kind = listKindId(target.profile);
  try {
    const res = await client.post('resources.list', {
      kind_id: kind ?? '0',
      pagination: { limit: 1, next_token: null },
    });
    if (res.status === 401 || res.status === 403) {
      return {
        ok: false,
        reason: `the target refused the credential (${res.status}); check --api-key / DIRECTORY_API_KEY`,
      };
    }
    // Any other answer means the target is reachable and took the credential; the rules judge the rest.
    const missing = await missingResources(client, target);
    if (missing.length > 0) {
      return {
        ok: false,
        reason:
          `the profile names mutable resources the target does not have (looked up by a resource.ids filter on ` +
          `their kind): ${missing.join(', ')}; fix mutableResources in the profile`,
      };
    }
    return { ok: true };
  } catch (e) {
    const message = isHarnessError(e) ? `${e.code}: ${e.message}` : String(e);
    return { ok: false, reason: `the target cannot be reached: ${redactor.redact(message)}` };
  } finally {
    await dispatcher.close();
  }
}
