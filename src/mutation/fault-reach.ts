/**
 * Which rules' traffic can reach each fault, derived rather than listed (the
 * way Stryker runs only the tests that cover a mutant): every fault lives
 * where the reference server's code asks `faults.has(name)`, so the catalogue
 * is run once against the correct server, each request's handling reports the
 * faults it asked about, and each rule reaches the faults its requests (its
 * own, and the reads it shared from another rule's) asked about. A request
 * that never asks about a fault is answered the same with the fault on, so a
 * rule outside a fault's reach sends what it sends against the correct server
 * until another rule's request changed what the fault changes; the quick proof
 * (test/mutation/quick-proof.test.ts) runs only the rules in reach, and a catch
 * the reach misses fails it.
 */
import { embeddedTiming } from '../core/timing.ts';
import { FAULT_NAMES, type FaultName } from '../reference-server/faults.ts';
import { startReferenceServer } from '../reference-server/index.ts';
import type { RuleGroup } from '../rules/types.ts';
import { runRules } from '../runner/run-rules.ts';
import { CATCHES } from './fault-catches.ts';
import { MUTATION_OPTIONS, MUTATION_RESOURCES, MUTATION_SERVER_SEED } from './run-mutations.ts';

/** For each fault, the rules whose traffic asked about it. */
export type FaultReach = ReadonlyMap<FaultName, ReadonlySet<string>>;

function requestKey(operation: string, body: string): string {
  return `${operation}\n${body}`;
}

/** The reach of every fault on a correct server of `resources` resources, the mutation run's seeds and options. */
export async function faultReach(catalogue: readonly RuleGroup[], resources = MUTATION_RESOURCES): Promise<FaultReach> {
  const asked = new Map<string, Set<FaultName>>();
  const server = await startReferenceServer({
    seed: MUTATION_SERVER_SEED,
    resources,
    timing: embeddedTiming(),
    onFaultsAsked(operation, body, faults) {
      const key = requestKey(operation, body);
      const known = asked.get(key) ?? new Set<FaultName>();
      for (const fault of faults) known.add(fault);
      asked.set(key, known);
    },
  });
  const sent: Array<{ ruleId: string; key: string }> = [];
  try {
    await runRules(
      [...catalogue],
      {
        baseUrl: server.url,
        serviceVersion: '26.06.25',
        apiKey: server.apiKey,
        profile: server.profile,
        timing: server.timing,
      },
      {
        ...MUTATION_OPTIONS,
        onExchange: (ruleId, e) => sent.push({ ruleId, key: requestKey(e.operation, e.request.body) }),
      },
      catalogue,
    );
  } finally {
    await server.close();
  }
  const reach = new Map<FaultName, Set<string>>(FAULT_NAMES.map((f) => [f, new Set<string>()]));
  for (const { ruleId, key } of sent) for (const fault of asked.get(key) ?? []) reach.get(fault)?.add(ruleId);
  return reach;
}

/** The reach of every fault, each measured on a server of the size its catch needs. */
export async function reachOfEveryFault(catalogue: readonly RuleGroup[]): Promise<FaultReach> {
  const sizes = [...new Set(FAULT_NAMES.map((f) => CATCHES[f].resources ?? MUTATION_RESOURCES))];
  const bySize = new Map<number, FaultReach>();
  for (const size of sizes) bySize.set(size, await faultReach(catalogue, size));
  return new Map(
    FAULT_NAMES.map((f) => [f, bySize.get(CATCHES[f].resources ?? MUTATION_RESOURCES)?.get(f) ?? new Set<string>()]),
  );
}
