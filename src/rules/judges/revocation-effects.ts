/**
 * The effects of revocations on what list-roles shows (§4.1), judged over
 * any traffic: §4.1's model of each resource, started from its first read,
 * with every revocation answered as done applied in the order sent; every
 * later read of the resource must show it (the roles not named unchanged).
 * It reads the reads of one resource with no role filter (a read of several
 * resources or roles leans on list-roles' own clauses) and every revocation,
 * whoever sent them: the revoke-roles pairwise rows and another client's
 * HAR alike. A refusal is a departure only of a revocation the rule itself
 * built of documented values (`refusalOwned`); another client's request may
 * be invalid, which its traffic does not say. Pure.
 */
import { definesAKind, type TargetProfile } from '../../target/profile.ts';
import { fold, judgeLog, type Judge } from './fold.ts';
import { accepted, isClean, isNoVerdict, noEvidence, type Judgement } from './judgement.ts';
import { field, type Observed } from './observed.ts';
import {
  applyRevocation,
  describeHeld,
  heldBy,
  type HeldRoles,
  profileLacksTeams,
  revocationOf,
  rolesShown,
  heldTeamsTheProfileLacks,
} from './role-answers.ts';

/** A read of one resource's roles, every role: the resource, or undefined for any other read. */
function resourceRead(o: Observed): string | undefined {
  if (o.operation !== 'resources.list-roles' || field(o.request, 'role_ids') !== undefined) return undefined;
  const ids = field(o.request, 'resource_ids');
  return Array.isArray(ids) && ids.length === 1 && typeof ids[0] === 'string' ? ids[0] : undefined;
}

/** Where two holdings first differ: a role one holds and the other does not, or the teams of a role. */
function firstDifference(expected: HeldRoles, actual: HeldRoles): string | undefined {
  const roles = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  const id = roles.find((r) => JSON.stringify(expected.get(r) ?? null) !== JSON.stringify(actual.get(r) ?? null));
  if (id === undefined) return undefined;
  return expected.has(id) && actual.has(id) ? `role ${id}.team_ids` : `role ${id}`;
}

const without = (held: HeldRoles, open: ReadonlySet<string> | undefined): HeldRoles =>
  new Map([...held].filter(([role]) => !open?.has(role)));

/**
 * Resources whose model the judge keeps at once: over a session that never
 * ends (the proxy's), the model must not grow with every resource read. A
 * resource first read past this many is not followed (its reads say nothing).
 */
export const RESOURCES_FOLLOWED = 10_000;

interface RevocationState {
  readonly profile: TargetProfile;
  readonly enabled: readonly string[];
  readonly refusalOwned: (o: Observed) => boolean;
  readonly model: Map<string, HeldRoles>;
  /** Per resource, the roles whose fate the spec leaves open (a kind-defining role revoked whole). */
  readonly open: Map<string, Set<string>>;
  /** Resources a revocation answered as done named since their first read. */
  readonly touched: Set<string>;
  compared: number;
  /** The first departure: the judgement, which nothing after changes. */
  stopped: Judgement | undefined;
  /** The first answer that said nothing (a 429, a 5xx): the judgement where no read was compared. */
  noVerdict: Judgement | undefined;
}

/**
 * The judge as a fold whose state is the model of the resources followed (at
 * most RESOURCES_FOLLOWED): it judges a recording and a session that never
 * ends alike, exchange by exchange.
 */
export function revocationEffectsJudge(refusalOwned: (o: Observed) => boolean = () => false): Judge {
  return fold<RevocationState>({
    initial: (profile) => ({
      profile,
      enabled: profile.teams.filter((t) => t.enabled).map((t) => t.id),
      refusalOwned,
      model: new Map(),
      open: new Map(),
      touched: new Set(),
      compared: 0,
      stopped: undefined,
      noVerdict: undefined,
    }),
    step(state, o) {
      state.stopped ??= stepOf(state, o);
      return state;
    },
    end: (state) =>
      state.stopped ??
      (state.compared > 0
        ? []
        : (state.noVerdict ?? noEvidence('no read of a resource before and after a revocation answered as done'))),
  });
}

/** One exchange into the model: a judgement where it departs or says nothing, else undefined. */
function stepOf(state: RevocationState, o: Observed): Judgement | undefined {
  const { profile, model, open, touched } = state;
  if (o.operation === 'resources.revoke-roles') {
    const revocation = revocationOf(o.request);
    if (!revocation) return undefined;
    const answer = accepted(o);
    if (isNoVerdict(answer)) {
      // Done or not, the answer does not say: the resources it names are no longer followed.
      state.noVerdict ??= answer;
      for (const id of revocation.resourceIds) forget(state, id);
      return undefined;
    }
    if (!isClean(answer)) {
      if (!state.refusalOwned(o)) return undefined;
      return [
        {
          where: `${o.step}: response.status`,
          message:
            'must not refuse a revocation whose every value is documented and valid for the target (resources of role kinds, roles and teams of the profile, a TeamList of a documented form)',
          expected: '2xx',
          actual: o.status,
        },
      ];
    }
    for (const id of revocation.resourceIds) {
      const held = model.get(id);
      if (!held) continue;
      touched.add(id);
      // Removing a kind-defining role entirely is refused or ignored (§4.1 rule 2): which is not shown.
      const left = revocation.teams === 'omitted' ? revocation.roleIds.filter((r) => definesAKind(profile, r)) : [];
      if (left.length > 0) open.set(id, new Set([...(open.get(id) ?? []), ...left]));
      applyRevocation(held, revocation.roleIds, revocation.teams, state.enabled);
    }
    return undefined;
  }
  const id = resourceRead(o);
  if (id === undefined) return undefined;
  const shown = rolesShown(o, o.step);
  if (!('roles' in shown)) {
    // A read that says nothing is noted; a refused read or one of another shape is list-roles' own rules' to judge.
    if (isNoVerdict(shown.judgement)) state.noVerdict ??= shown.judgement;
    return undefined;
  }
  const actual = heldBy(shown.roles, id);
  const expected = model.get(id);
  if (expected === undefined) {
    if (model.size < RESOURCES_FOLLOWED) model.set(id, actual);
    return undefined;
  }
  if (touched.has(id)) state.compared += 1;
  const where = firstDifference(without(expected, open.get(id)), without(actual, open.get(id)));
  if (where === undefined) return undefined;
  const lacking = heldTeamsTheProfileLacks(state.profile, expected, actual);
  if (lacking.length > 0) return profileLacksTeams(o.step, lacking);
  return [
    {
      where: `${o.step}: ${where}`,
      message: `must show the roles and teams §4.1 leaves on resource ${id} after the revocations so far`,
      expected: describeHeld(without(expected, open.get(id))),
      actual: describeHeld(without(actual, open.get(id))),
    },
  ];
}

function forget(state: RevocationState, id: string): void {
  state.model.delete(id);
  state.open.delete(id);
  state.touched.delete(id);
}

/** The judge over a whole log (a rule's run, a recording). */
export function judgeRevocationEffects(
  log: readonly Observed[],
  profile: TargetProfile,
  refusalOwned: (o: Observed) => boolean = () => false,
): Judgement {
  return judgeLog(revocationEffectsJudge(refusalOwned), log, profile);
}
