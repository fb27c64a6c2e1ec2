import { Agent } from 'undici';
import { DirectoryClient } from '../client/directory-client.ts';
import { isHarnessError } from '../core/errors.ts';
import { Redactor } from '../client/redact.ts';
import { listKindId } from '../target/profile.ts';
import type { RunTarget } from './run-rules.ts';

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
    return { ok: true };
  } catch (e) {
    const message = isHarnessError(e) ? `${e.code}: ${e.message}` : String(e);
    return { ok: false, reason: `the target cannot be reached: ${redactor.redact(message)}` };
  } finally {
    await dispatcher.close();
  }
}
