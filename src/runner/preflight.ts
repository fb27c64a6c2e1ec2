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

/**
 * Every kind the profile names (its kinds, listKindId, the kinds of its
 * mutable resources), looked up by listing one resource of it: a 4xx means
 * the target does not know the kind, a profile error named before any rule
 * runs, not FAILs of the server. A 5xx or a 429 tells nothing (the rules will
 * judge the server). `first` is the answer already had for the first kind.
 */
async function unknownKinds(
  client: DirectoryClient,
  kinds: readonly string[],
  first: { kindId: string; status: number },
): Promise<string[]> {
  const unknown: string[] = [];
  for (const kindId of kinds) {
    const status =
      kindId === first.kindId
        ? first.status
        : (await client.post('resources.list', { kind_id: kindId, pagination: { limit: 1, next_token: null } })).status;
    if (status >= 400 && status < 500 && status !== 429) unknown.push(`${kindId} (answered ${status})`);
  }
  return unknown;
}

/** The kinds a profile names, listKindId first, each once. */
function kindsOf(profile: RunTarget['profile']): string[] {
  const first = listKindId(profile);
  return [
    ...new Set([
      ...(first ? [first] : []),
      ...profile.kinds.map((k) => k.id),
      ...profile.mutableResources.map((r) => r.kindId),
    ]),
  ];
}

export type PreflightOutcome = { ok: true } | { ok: false; reason: string };

/**
 * Documented reads before the run: a target that cannot be reached or
 * refuses the credential, a kind or a mutable resource of the profile the
 * target does not have, each gets exit code 2 and one line, never a catalogue
 * of failures. Roles and teams cannot be looked up by a documented read (an
 * unknown one reads like one nobody holds), so they are not checked.
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
    ...(target.apiKey ? { credential: { apiKey: target.apiKey, placeholder: '$DIRECTORY_API_KEY' } } : {}),
  });
  const kinds = kindsOf(target.profile);
  const kind = kinds[0] ?? '0';
  try {
    const res = await client.post('resources.list', {
      kind_id: kind,
      pagination: { limit: 1, next_token: null },
    });
    if (res.status === 401 || res.status === 403) {
      return {
        ok: false,
        reason: `the target refused the credential (${res.status}); check --api-key / DIRECTORY_API_KEY`,
      };
    }
    const unknown = await unknownKinds(client, kinds, { kindId: kind, status: res.status });
    if (unknown.length > 0) {
      return {
        ok: false,
        reason:
          `the profile names kinds the target does not have (resources.list with that kind_id and limit 1 ` +
          `answered a 4xx): ${unknown.join(', ')}; fix kinds, listKindId or mutableResources in the profile`,
      };
    }
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
