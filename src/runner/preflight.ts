import { dispatcherFor, redactConnection } from '../client/connection.ts';
import { DirectoryClient } from '../client/directory-client.ts';
import { isHarnessError } from '../core/errors.ts';
import type { ApiResponse } from '../core/exchange.ts';
import { Redactor } from '../client/redact.ts';
import { errorMessage } from '../rules/assertions.ts';
import { field as fieldOf } from '../rules/judges/observed.ts';
import { isRecord } from '../rules/json-values.ts';
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
 * Each refusal is told with the server's own words.
 */
async function unknownKinds(
  client: DirectoryClient,
  kinds: readonly string[],
  first: { kindId: string; res: ApiResponse },
): Promise<Array<{ kindId: string; answer: string }>> {
  const unknown: Array<{ kindId: string; answer: string }> = [];
  for (const kindId of kinds) {
    const res =
      kindId === first.kindId
        ? first.res
        : await client.post('resources.list', { kind_id: kindId, pagination: { limit: 1, next_token: null } });
    if (res.status >= 400 && res.status < 500 && res.status !== 429) unknown.push({ kindId, answer: answerOf(res) });
  }
  return unknown;
}

/**
 * The attribute names the profile gives (sortAttribute, attributes), each
 * asked for alone in a list of one resource of the listed kind, the sort
 * attribute ordered on too, as the rules ask. Keys inside `attributes` are
 * not shown (§2.2), so a name the target refuses with a 4xx is the profile's
 * mistake; so is a name the listed resource does not carry when the others,
 * each asked for alone, came back (the profile says every resource of the
 * kind carries them all). Either is told now, with the field to fix and what
 * the server said, never as FAILs of the rules that use the name. When no
 * name comes back, the server may be ignoring `attributes` altogether: the
 * rules judge that. A 5xx or a 429 tells nothing.
 */
async function wrongAttributes(client: DirectoryClient, profile: RunTarget['profile']): Promise<string[]> {
  const kind = listKindId(profile);
  if (!kind) return [];
  const asks: Array<{ field: string; name: string; orders: boolean }> = [
    ...(profile.sortAttribute ? [{ field: 'sortAttribute', name: profile.sortAttribute, orders: true }] : []),
    ...(profile.attributes ?? []).map((name) => ({ field: 'attributes', name, orders: false })),
  ];
  const refused: string[] = [];
  const notCarried: string[] = [];
  let carried = 0;
  for (const { field, name, orders } of asks) {
    const res = await client.post('resources.list', {
      kind_id: kind,
      attributes: [name],
      ...(orders ? { orders: [{ key: 'resource.attribute', direction: 'asc', attribute: name }] } : {}),
      pagination: { limit: 1, next_token: null },
    });
    const named = `${field} ${JSON.stringify(name)}`;
    if (res.status >= 400 && res.status < 500 && res.status !== 429)
      refused.push(`${named} (answered ${answerOf(res)})`);
    if (res.status < 200 || res.status > 299) continue;
    const data = fieldOf(res.json, 'data');
    const first = Array.isArray(data) ? fieldOf(data[0], 'attributes') : undefined;
    if (first === undefined && !Array.isArray(data)) continue;
    if (isRecord(first) && Object.hasOwn(first, name)) carried += 1;
    else notCarried.push(`${named} (not in the attributes of the first resource listed when asked for)`);
  }
  return carried > 0 ? [...refused, ...notCarried] : refused;
}

/** An answer as one short line: its status and the server's own message, when it gave one. */
function answerOf(res: ApiResponse): string {
  const message = errorMessage(res)?.replace(/\s+/g, ' ').trim();
  const shown = message && message.length > 200 ? `${message.slice(0, 200)}…` : message;
  return shown ? `${res.status}: ${shown}` : String(res.status);
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
 * target does not have, an attribute name of the profile it refuses, each
 * gets exit code 2 and one line, never a catalogue of failures. Roles and teams cannot be looked up by a documented read (an
 * unknown one reads like one nobody holds), so they are not checked.
 */
export async function preflight(target: RunTarget, timeoutMs: number): Promise<PreflightOutcome> {
  const redactor = new Redactor();
  redactor.add(target.apiKey, '$DIRECTORY_API_KEY');
  redactor.add(target.profile.restrictedApiKey, '$DIRECTORY_RESTRICTED_API_KEY');
  redactConnection(redactor, target.connection);
  const dispatcher = dispatcherFor(target.connection, { connections: 1 });
  const client = new DirectoryClient({
    baseUrl: target.baseUrl,
    serviceVersion: target.serviceVersion,
    dispatcher,
    redactor,
    timeoutMs,
    ...(target.connection?.headers ? { extraHeaders: target.connection.headers } : {}),
    ...(target.apiKey ? { credential: { apiKey: target.apiKey, placeholder: '$DIRECTORY_API_KEY' } } : {}),
  });
  const kinds = kindsOf(target.profile);
  const kind = kinds[0] ?? '0';
  const list = { kind_id: kind, pagination: { limit: 1, next_token: null } };
  try {
    const res = await client.post('resources.list', list);
    if (res.status === 401 || res.status === 403) {
      return {
        ok: false,
        reason: redactor.redact(
          `the target refused the credential (answered ${answerOf(res)}); check --api-key / DIRECTORY_API_KEY`,
        ),
      };
    }
    const unknown = await unknownKinds(client, kinds, { kindId: kind, res });
    if (unknown.length > 0 && unknown.length === kinds.length) {
      // Every kind refused: the address or the version is the likelier mistake, and the server's words say which.
      return {
        ok: false,
        reason: redactor.redact(
          `the target refused resources.list for every kind the profile names (kind_id ${kind} answered ` +
            `${unknown[0]?.answer ?? ''}); check --base-url and --service-version, then the profile's kinds`,
        ),
      };
    }
    if (unknown.length > 0) {
      return {
        ok: false,
        reason: redactor.redact(
          `the profile names kinds the target does not have (resources.list with that kind_id and limit 1 ` +
            `answered a 4xx): ${unknown.map((u) => `${u.kindId} (answered ${u.answer})`).join(', ')}; ` +
            `fix kinds, listKindId or mutableResources in the profile`,
        ),
      };
    }
    const restrictedKey = target.profile.restrictedApiKey;
    if (restrictedKey) {
      // A wrong restricted key is a configuration mistake, said now rather than as ERRORs after the run.
      const restricted = client.derive({
        credential: { apiKey: restrictedKey, placeholder: '$DIRECTORY_RESTRICTED_API_KEY' },
      });
      const answer = await restricted.post('resources.list', list);
      if (answer.status === 401) {
        return {
          ok: false,
          reason: redactor.redact(
            `the target refused the restricted key (answered ${answerOf(answer)}); check --restricted-api-key / ` +
              `DIRECTORY_RESTRICTED_API_KEY or the profile's restrictedApiKey`,
          ),
        };
      }
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
    const refused = await wrongAttributes(client, target.profile);
    if (refused.length > 0) {
      return {
        ok: false,
        reason: redactor.redact(
          `the target does not know attribute names the profile gives (resources.list of the listed kind asking ` +
            `for each alone): ${refused.join(', ')}; fix sortAttribute or attributes in the profile`,
        ),
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
