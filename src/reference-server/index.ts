/**
 * The embedded reference server: follows docs/spec.md, the suite's default
 * target and oracle. Every choice where the spec says "not shown" is
 * written down in docs/reference-server.md.
 */
import { listeningAddress } from '../core/listening.ts';
import { checkTiming, TARGET_TIMING, type Timing } from '../core/timing.ts';
import type { TargetProfile } from '../target/profile.ts';
import { ApiKeys } from './auth.ts';
import { FAULTS, isFaultName, type FaultName } from './faults.ts';
import { VARIANTS, isVariantName, type VariantName } from './variants.ts';
import { generateDomain, type Domain } from './generate-domain.ts';
import { createHttpServer, type FaultsAskedListener } from './http-server.ts';
import { PageTokens } from './page-token.ts';
import { Store } from './store.ts';
import { RESTRICTED_TEAM_FIELDS } from './operations/teams.ts';

export { SUPPORTED_SERVICE_VERSIONS } from './http-server.ts';
export { FAULTS, FAULT_NAMES, type Fault, type FaultName } from './faults.ts';
export { VARIANTS, VARIANT_NAMES, type VariantName } from './variants.ts';

export interface ReferenceServerOptions {
  port?: number;
  host?: string;
  seed?: number;
  /** Resources across all kinds (default 200). */
  resources?: number;
  /** Named faults from FAULTS; none for the reference. Names are checked again at start, for callers without types. */
  faults?: readonly FaultName[];
  /** Conformant alternative choices from VARIANTS; none for the reference. */
  variants?: readonly VariantName[];
  /** Fixed keys instead of random ones. */
  apiKey?: string;
  restrictedApiKey?: string;
  /**
   * The windows of the stale-read and lost-update faults, and the clock they
   * are read on (default TARGET_TIMING: a suite that did not start the server
   * reads with the windows of a real target). A run that starts the server
   * passes the timing its engine reads too.
   */
  timing?: Timing;
  /** Told which faults each request's handling asked about (the proof's reach, src/mutation/fault-reach.ts). */
  onFaultsAsked?: FaultsAskedListener;
}

export interface ReferenceServer {
  url: string;
  apiKey: string;
  restrictedApiKey: string;
  profile: TargetProfile;
  /** The windows it keeps and the clock it reads them on: a suite that started it in-process shares them. */
  timing: Timing;
  close(): Promise<void>;
}

export class UnknownFaultError extends Error {
  readonly code = 'DC_ERR_UNKNOWN_FAULT';
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const faults = new Set<FaultName>();
  const givenFaults: readonly string[] = options.faults ?? [];
  for (const f of givenFaults) {
    if (!isFaultName(f))
      throw new UnknownFaultError(
        `unknown fault ${JSON.stringify(f)}; known faults: ${Object.keys(FAULTS).join(', ')}`,
      );
    faults.add(f);
  }
  const variants = new Set<VariantName>();
  const givenVariants: readonly string[] = options.variants ?? [];
  for (const v of givenVariants) {
    if (!isVariantName(v))
      throw new UnknownFaultError(
        `unknown variant ${JSON.stringify(v)}; known variants: ${Object.keys(VARIANTS).join(', ')}`,
      );
    variants.add(v);
  }
  const domain = generateDomain(options.seed ?? 1, options.resources ?? 200);
  const keys = new ApiKeys(options.apiKey, options.restrictedApiKey);
  const timing = options.timing ?? TARGET_TIMING;
  // A timing whose moment falls inside its own stale window would make the suite misread the stale-read faults.
  const inconsistent = checkTiming(timing);
  if (inconsistent) throw new Error(`the reference server's timing cannot be judged: ${inconsistent}`);
  const server = createHttpServer({
    store: new Store(domain),
    tokens: new PageTokens(),
    keys,
    faults,
    variants,
    timing,
    ...(options.onFaultsAsked ? { onFaultsAsked: options.onFaultsAsked } : {}),
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = listeningAddress(server);
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    apiKey: keys.full,
    restrictedApiKey: keys.restricted,
    profile: { ...profileOf(domain), restrictedApiKey: keys.restricted },
    timing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The profile of the embedded server a default run starts (`resources`
 * resources of the default seed), without starting it: what `judge` reads a
 * default run's recording with.
 */
export function embeddedProfile(resources: number): TargetProfile {
  return profileOf(generateDomain(1, resources));
}

/** What the suite needs to know about the generated directory. */
export function profileOf(domain: Domain): TargetProfile {
  const [listKind] = domain.kinds;
  if (listKind === undefined) throw new Error('the domain has no kind of resource');
  const roleKinds = new Set(domain.kinds.filter((k) => k.supportsRoles).map((k) => k.id));
  const roleResources = domain.resources.filter((r) => roleKinds.has(r.kindId));
  const others = domain.resources.filter((r) => !roleKinds.has(r.kindId));
  // Interleave employees and integrations; the first resources of each kind stay untouched for list checks.
  const mutable = [...roleResources.filter((_, i) => i % 2 === 1).slice(0, 60), ...others.slice(-6)];
  return {
    name: 'embedded reference server',
    kinds: domain.kinds.map((k) => ({
      id: k.id,
      name: k.name,
      supportsRoles: k.supportsRoles,
      ...(k.definingRoleId ? { definingRoleId: k.definingRoleId } : {}),
    })),
    roles: domain.roles.map((r) => ({
      id: r.id,
      name: r.name,
      ...(r.definesKindId ? { definesKindId: r.definesKindId } : {}),
    })),
    teams: domain.teams.map((t) => ({ id: t.id, name: t.name, enabled: t.enabled })),
    workRegimeIds: domain.workRegimes.map((w) => w.id),
    listKindId: listKind.id,
    sortAttribute: 'last_name',
    attributes: ['last_name', 'first_name', 'email', 'employee_number'],
    mutableResources: mutable.map((r) => ({ id: r.id, kindId: r.kindId })),
    allowRoleRevocation: true,
    restrictedRedactedFields: [...RESTRICTED_TEAM_FIELDS, 'indemnity_enabled', 'compensation_enabled'],
    restrictedHiddenRoleIds: domain.roles.filter((r) => r.hiddenFromRestricted).map((r) => r.id),
  };
}
