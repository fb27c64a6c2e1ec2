/**
 * Transient faults never flip a verdict: a proxy in front of the reference
 * server injects one HTML 502, one 503, one 504, one connection reset and
 * one 429 (Retry-After: 0) at chosen requests of a full catalogue run with
 * mutations, and every rule must end as it does against the server directly.
 *
 * The requests are chosen so that each fault meets the path that must absorb
 * it: the reads' retries in the client (504, reset), the retry of any 429
 * (here on a mutation, which the server did not process), and the rules' own
 * second send after a 5xx (the 502 on a revocation for a kind without roles,
 * the 503 on a revocation that must be rejected). A gateway answer to a
 * mutation elsewhere is not repeated by the client (it may have taken effect)
 * and is an ERROR by design, never a FAIL.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunResult } from '../../src/core/types.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { kindById } from '../../src/target/profile.ts';
import { startForwardingProxy } from '../helpers/forwarding-proxy.ts';

const servers: ReferenceServer[] = [];
beforeAll(async () => {
  servers.push(
    await startReferenceServer({ timing: embeddedTiming() }),
    await startReferenceServer({ timing: embeddedTiming() }),
  );
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function runAgainst(baseUrl: string, server: ReferenceServer): Promise<RunResult> {
  return runRules(
    await loadCatalogue(),
    { baseUrl, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile, timing: server.timing },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 10, seed: 7, requestTimeoutMs: 10_000 },
  );
}

type Fault = '502-html' | '503' | '504' | 'reset' | '429';

interface Injection {
  fault: Fault;
  /** The request this fault answers: the `nth` (1-based) of those that `matches`. */
  matches: (operation: string, body: Record<string, unknown>) => boolean;
  nth: number;
  seen: number;
  injected: boolean;
}

function answerWith(fault: Fault, res: ServerResponse): void {
  switch (fault) {
    case '502-html':
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    case '503':
    case '504':
      res.writeHead(Number(fault), { 'content-type': 'application/json' });
      res.end('{"message":"try again"}');
      return;
    case '429':
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end('{"message":"slow down"}');
      return;
    case 'reset':
      res.socket?.destroy();
      return;
  }
}

test('one 502 (HTML), 503, 504, reset and 429 each leave every verdict as it is against the server directly', async () => {
  const [direct, proxied] = servers as [ReferenceServer, ReferenceServer];
  const withoutRoles = new Set(
    proxied.profile.mutableResources
      .filter((r) => kindById(proxied.profile, r.kindId)?.supportsRoles === false)
      .map((r) => r.id),
  );
  const planned: Array<Omit<Injection, 'seen' | 'injected'>> = [
    {
      fault: '502-html',
      matches: (op, body) =>
        op === 'resources.revoke-roles' &&
        Array.isArray(body.resource_ids) &&
        body.resource_ids.some((id) => withoutRoles.has(String(id))),
      nth: 1,
    },
    {
      fault: '503',
      matches: (op, body) =>
        op === 'resources.revoke-roles' && Array.isArray(body.team_ids) && body.team_ids.length === 0,
      nth: 1,
    },
    { fault: '504', matches: (op) => op === 'resources.list', nth: 25 },
    { fault: 'reset', matches: (op) => op === 'resources.show-activity-rates', nth: 10 },
    { fault: '429', matches: (op) => op === 'resources.assign-activity-rate', nth: 3 },
  ];
  const injections: Injection[] = planned.map((i) => ({ ...i, seen: 0, injected: false }));

  const proxy = await startForwardingProxy(proxied.url, (path, text, res) => {
    const operation = path.split('/').pop() ?? '';
    let body: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
    } catch {
      // A malformed body (sent on purpose by a rule) matches no injection.
    }
    for (const injection of injections) {
      if (injection.injected || !injection.matches(operation, body)) continue;
      injection.seen += 1;
      if (injection.seen === injection.nth) {
        injection.injected = true;
        answerWith(injection.fault, res);
        return true;
      }
    }
    return false;
  });
  try {
    const baseline = await runAgainst(direct.url, direct);
    const faulty = await runAgainst(proxy.url, proxied);
    // Every fault was met: the comparison below is not vacuous.
    expect(injections.filter((i) => !i.injected).map((i) => i.fault)).toEqual([]);
    const verdicts = (run: RunResult): Record<string, string> =>
      Object.fromEntries(run.results.map((r) => [r.ruleId, r.verdict]));
    expect(baseline.summary.byVerdict.FAIL).toBe(0);
    expect(baseline.summary.byVerdict.ERROR).toBe(0);
    const flipped = faulty.results
      .filter((r) => verdicts(baseline)[r.ruleId] !== r.verdict)
      .map((r) => ({ rule: r.ruleId, verdict: r.verdict, why: r.reason ?? r.violations[0]?.message }));
    expect(flipped).toEqual([]);
  } finally {
    await proxy.close();
  }
}, 120_000);
