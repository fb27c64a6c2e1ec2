/**
 * Network faults: one HTML 502, one 503, one 504 and one connection reset,
 * each on a read the seed picks (the n-th of an operation), and one 429
 * (Retry-After: 0) on any request the seed picks, injected into a full
 * catalogue run with mutations. Every rule must end as it does in the same
 * run against an identical server directly: a transient fault never flips a
 * verdict.
 */
import type { ServerResponse } from 'node:http';
import type { RunResult } from '../../src/core/types.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { startForwardingProxy } from '../../test/helpers/forwarding-proxy.ts';
import { between, random, type TrialOutcome } from './harness.ts';

type Fault = '502-html' | '503' | '504' | 'reset' | '429';

const READS = ['resources.list', 'resources.list-roles', 'resources.show-teams', 'resources.show-activity-rates'];

interface Injection {
  fault: Fault;
  operation: string | null;
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

async function runAgainst(baseUrl: string, server: ReferenceServer, seed: number): Promise<RunResult> {
  return runRules(
    await loadCatalogue(),
    { baseUrl, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 10, seed, requestTimeoutMs: 10_000 },
  );
}

export async function networkFaultTrial(seed: number): Promise<TrialOutcome> {
  const next = random(seed);
  const pick = (): string => READS[between(next, 0, READS.length - 1)] ?? 'resources.list';
  const injections: Injection[] = [
    { fault: '502-html', operation: pick(), nth: between(next, 1, 12), seen: 0, injected: false },
    { fault: '503', operation: pick(), nth: between(next, 1, 12), seen: 0, injected: false },
    { fault: '504', operation: pick(), nth: between(next, 1, 12), seen: 0, injected: false },
    { fault: 'reset', operation: pick(), nth: between(next, 1, 12), seen: 0, injected: false },
    { fault: '429', operation: null, nth: between(next, 2, 400), seen: 0, injected: false },
  ];
  const direct = await startReferenceServer({ seed });
  const proxied = await startReferenceServer({ seed });
  const proxy = await startForwardingProxy(proxied.url, (path, _body, res) => {
    const operation = path.split('/').pop() ?? '';
    for (const injection of injections) {
      if (injection.injected || (injection.operation !== null && injection.operation !== operation)) continue;
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
    const baseline = await runAgainst(direct.url, direct, seed);
    const faulty = await runAgainst(proxy.url, proxied, seed);
    const verdicts = new Map(baseline.results.map((r) => [r.ruleId, r.verdict]));
    const flipped = faulty.results
      .filter((r) => verdicts.get(r.ruleId) !== r.verdict)
      .map(
        (r) =>
          `${r.ruleId} ${verdicts.get(r.ruleId) ?? 'absent'} → ${r.verdict} (${r.reason ?? r.violations[0]?.message ?? ''})`,
      );
    const met = injections.filter((i) => i.injected);
    const where = injections.map(
      (i) => `${i.fault} on ${i.operation ?? 'request'} #${i.nth}${i.injected ? '' : ' (not met)'}`,
    );
    return {
      held: flipped.length === 0,
      reached: met.length === injections.length,
      detail: `${where.join(', ')}${flipped.length > 0 ? `: flipped ${flipped.join('; ')}` : ''}`,
    };
  } finally {
    await proxy.close();
    await direct.close();
    await proxied.close();
  }
}
