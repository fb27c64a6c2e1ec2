/**
 * Every mutating check records the state it may change, restores it with the
 * documented operations afterwards and verifies the restoration. A failed
 * restoration is its own ERROR (DC_ERR_RESTORE) with the exact difference,
 * never a FAIL of the rule, and quarantines the resource: nothing changes it
 * again in the run (another snapshot would take the state left for the one
 * before), and its change stays pending in the journal for `restore`. A change
 * the suite did not make, seen at restore time (own-mutations.ts), is left in
 * place and ends the rule in ERROR (DC_ERR_FOREIGN_CHANGE) naming the
 * resource and the change; when it lies on or beside the days the rule
 * changed, putting the rule's change back would overwrite it, so nothing is
 * put back and the resource is quarantined, its change pending, as above.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import { canonicalJson } from '../core/canonical-json.ts';
import { HarnessError, isConformanceFailure, isDepartureOfAnotherRule } from '../core/errors.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../schemas/index.ts';
import type { RequestOf } from '../schemas/operations.ts';
import { captureState, stateDifference, type ResourceState, type StatePart } from './steps/state.ts';
import type { BaseCheckContext } from './types.ts';
import { covers, splitRange } from './dates.ts';
import {
  dateSpan,
  describeForeign,
  describeOwn,
  foreignChanges,
  keepingForeign,
  settingOf,
  type ForeignChange,
  type OwnMutation,
} from './own-mutations.ts';

type StepContext = Pick<
  BaseCheckContext,
  'ruleId' | 'client' | 'found' | 'ownerOf' | 'journal' | 'ownMutations' | 'quarantine' | 'timing'
>;

/** The parts restoration can put back with documented operations (roles cannot be given back). */
export type RestorablePart = Exclude<StatePart, 'roles'>;

/** Runs `change`, then puts the resource's `parts` back as they were, whatever `change` did. */
export async function withRestoredState<T>(
  ctx: StepContext,
  resourceId: string,
  parts: readonly RestorablePart[],
  change: () => Promise<T>,
): Promise<T> {
  return guardResource(ctx, resourceId, parts).around(change);
}

/** A resource whose state is put back after each change made around it. */
export interface ResourceGuard {
  around<T>(change: () => Promise<T>): Promise<T>;
}

/**
 * Guards a resource across several changes (the runs of a property): the
 * state is read once, each change is put back and verified, and the state
 * verified after one change is the snapshot of the next, so a run costs only
 * its own requests and its restoration.
 */
export function guardResource(
  ctx: StepContext,
  resourceId: string,
  parts: readonly RestorablePart[],
  options: { known?: ResourceState } = {},
): ResourceGuard {
  // A state the caller has just read stands for the first snapshot.
  let verified: ResourceState | undefined = options.known;
  return {
    async around<T>(change: () => Promise<T>): Promise<T> {
      const before = verified ?? (await captureState(ctx, resourceId, parts, { step: 'snapshot before the change' }));
      verified = undefined;
      const value = await guarded(ctx, before, change);
      verified = before;
      return value;
    },
  };
}

async function guarded<T>(ctx: StepContext, before: ResourceState, change: () => Promise<T>): Promise<T> {
  const { resourceId } = before;
  const quarantined = ctx.quarantine?.reasonFor(resourceId);
  if (quarantined !== undefined) {
    throw new HarnessError(
      'DC_ERR_RESTORE',
      `resource ${resourceId} is left out: an earlier restoration of it did not finish (${quarantined})`,
    );
  }
  // Write-ahead: the journal holds the state (and how to put it back) before anything changes.
  await ctx.journal?.changing({ ruleId: ctx.ruleId, resourceId, state: before, undo: undoRequests(before) });
  const mark = ctx.ownMutations?.mark();
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await change() };
  } catch (error) {
    outcome = { error };
  }
  const found =
    'error' in outcome && outcome.error instanceof Error ? ` (the check had found: ${outcome.error.message})` : '';
  // What the suite sent to this resource while changing it, read before restoring sends anything.
  const own = mark === undefined ? undefined : ctx.ownMutations?.since(mark, resourceId);
  let restoration: Restoration;
  try {
    restoration = await restoreState(ctx, before, own ? { ownMutations: own } : {});
  } catch (restoreError) {
    // A target left changed outranks whatever the check found: the run must say so first.
    const journal = ctx.journal ? `; \`directory-conformance restore ${ctx.journal.path}\` retries it` : '';
    const message =
      restoreError instanceof HarnessError && restoreError.code === 'DC_ERR_RESTORE'
        ? restoreError.message
        : `resource ${resourceId} could not be restored: ${restoreError instanceof Error ? restoreError.message : String(restoreError)}`;
    ctx.quarantine?.add(resourceId, `${ctx.ruleId}: ${message}`);
    throw new HarnessError('DC_ERR_RESTORE', `${message}${journal}${found}`);
  }
  if (!restoration.restored) {
    // Another party changed the days the rule changed: their change stays, and so does the rule's change
    // pending in the journal. A later snapshot would take this state for the one to put back: quarantined.
    const { foreign } = restoration;
    const journal = ctx.journal
      ? `; its change stays pending in the journal (\`directory-conformance restore ${ctx.journal.path}\` puts ` +
        `back the state before the rule, over that change)`
      : '';
    ctx.quarantine?.add(
      resourceId,
      `${ctx.ruleId}: another party changed it where the rule had: ${describeForeign(foreign)}`,
    );
    throw new HarnessError(
      'DC_ERR_FOREIGN_CHANGE',
      `resource ${resourceId} was changed by someone else while the rule ran, on or beside the dates of the ` +
        `suite's own changes (${describeOwn(own ?? [])}): ${describeForeign(foreign)}; nothing was put back, so as ` +
        `not to overwrite that change, and the resource is left out of the rest of the run${journal}${found}`,
    );
  }
  await ctx.journal?.restored({ ruleId: ctx.ruleId, resourceId });
  if (restoration.foreign) {
    // Another party changed the resource meanwhile: what the check saw may be theirs, so no verdict.
    throw new HarnessError(
      'DC_ERR_FOREIGN_CHANGE',
      `resource ${resourceId} was changed by someone else while the rule ran, on dates none of the suite's own ` +
        `changes (${describeOwn(own ?? [])}) touched: ${describeForeign(restoration.foreign)}; that change was ` +
        `left in place and only the suite's own changes were put back${found}`,
    );
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/** What restoring a resource did. */
export type Restoration =
  /** Put back as `before` held it, but for another party's change (`foreign`) on days the suite did not change. */
  | { restored: true; foreign?: ForeignChange }
  /** Another party changed days the suite changed: nothing (more) was sent, so as not to overwrite that. */
  | { restored: false; foreign: ForeignChange };

/**
 * Puts a resource's rates and teams back as `before` holds them and verifies
 * by reading again; nothing is sent when they already are. First only what
 * differs is put back (the fewest requests); when that does not verify, every
 * period shown is unassigned one range at a time and everything is assigned
 * again. Safe to repeat: every request it sends puts a value, none adds one.
 *
 * Given the changes the suite sent (`ownMutations`), a difference none of
 * them explains is another party's: it is left in place (neither undone nor
 * sent again) and returned, so the caller can say so. When it lies on or
 * beside the days the suite changed, every request that would put the
 * suite's change back might overwrite it: nothing more is sent, and the
 * resource is not restored.
 */
export async function restoreState(
  stepCtx: StepContext,
  before: ResourceState,
  options: { ownMutations?: readonly OwnMutation[] } = {},
): Promise<Restoration> {
  // A spent request budget stops rules, never the restoration of what they changed.
  const ctx = { ...stepCtx, client: stepCtx.client.derive({ exemptFromBudget: true }) };
  const parts = partsOf(before);
  let now = await restorationRead(ctx, before.resourceId, parts, { step: 'state before restore' });
  if (!stateDifference(before, now)) {
    // A change the server accepted that does not show may be a read lagging the write (judged by the
    // rule that made it): the state is read again once it has had a moment to settle, never left changed.
    if (!options.ownMutations?.some((m) => m.accepted)) return { restored: true };
    await settle(ctx);
    now = await restorationRead(ctx, before.resourceId, parts, { step: 'state before restore, settled', fresh: true });
    if (!stateDifference(before, now)) return { restored: true };
  }
  let foreign = options.ownMutations ? foreignChanges(before, now, options.ownMutations) : undefined;
  if (foreign && options.ownMutations) {
    // Before another party is blamed, a read that lags the suite's own writes (or an answer shared from
    // one) is given its moment: the state is read again, settled and sent afresh.
    await settle(ctx);
    now = await restorationRead(ctx, before.resourceId, parts, { step: 'state before restore, settled', fresh: true });
    if (!stateDifference(before, now)) return { restored: true };
    foreign = foreignChanges(before, now, options.ownMutations);
  }
  if (foreign?.onOwnDates) return { restored: false, foreign };
  // The state to put back: `before`, with another party's change kept.
  let goal = foreign ? keepingForeign(before, foreign) : before;
  if (!stateDifference(goal, now)) return restoredKeeping(foreign);
  const targeted = targetedUndoRequests(goal, now);
  for (const request of targeted) await send(ctx.client, request);
  // A part none of these requests wrote is as `now` showed it: only the parts written are read again.
  const partly = await settledState(ctx, goal, writtenParts(targeted), 'state after restore', now);
  if (!stateDifference(goal, partly)) return restoredKeeping(foreign);
  if (options.ownMutations) {
    // Another party may have changed the resource since it was read: what differs now that neither the
    // suite's changes nor the requests just sent explain is theirs too, and the full restore keeps it.
    foreign = foreignChanges(before, partly, [...options.ownMutations, ...targeted.map(asOwnMutation)]);
    if (foreign?.onOwnDates) return { restored: false, foreign };
    goal = foreign ? keepingForeign(before, foreign) : before;
    if (!stateDifference(goal, partly)) return restoredKeeping(foreign);
  }
  // The full restore spares what another party added: it stays as they left it.
  const kept = new Set(
    [...(foreign?.rates?.unexpected ?? []), ...(foreign?.teams?.unexpected ?? [])].map(canonicalJson),
  );
  if (goal.rates) {
    for (const p of partly.rates ?? []) {
      if (kept.has(canonicalJson(p))) continue;
      await send(ctx.client, {
        operation: 'resources.unassign-activity-rate',
        body: { resource_id: before.resourceId, date_range: p.date_range },
      });
    }
  }
  const items: unknown[] = [...(goal.rates ?? []), ...(goal.teams ?? [])];
  for (const [i, request] of undoRequests(goal).entries()) {
    if (!kept.has(canonicalJson(items[i]))) await send(ctx.client, request);
  }
  const after = await settledState(ctx, goal, parts, 'state after a full restore');
  const difference = stateDifference(goal, after);
  if (difference) {
    throw new HarnessError(
      'DC_ERR_RESTORE',
      `${parts.join(' and ')} of resource ${before.resourceId} could not be restored: ` +
        `missing after restore: ${difference.missing.join(' ') || 'none'}; ` +
        `unexpected after restore: ${difference.unexpected.join(' ') || 'none'}`,
    );
  }
  return restoredKeeping(foreign);
}

function restoredKeeping(foreign: ForeignChange | undefined): Restoration {
  return foreign ? { restored: true, foreign } : { restored: true };
}

/** How many times a restoration sends one read of the state before its answer stands. */
const RESTORATION_READS = 3;

/**
 * A read of the state on the way to putting it back, sent again when its
 * answer departs (a body cut short on its way so that it no longer parses
 * looks like one): a read is safe to repeat, and a restoration must neither
 * stop nor leave a resource changed on one spoiled answer. A departure every
 * read shows stands, from the last of them.
 */
async function restorationRead(
  ctx: StepContext,
  resourceId: string,
  parts: readonly StatePart[],
  options: { step: string; fresh?: boolean },
): Promise<ResourceState> {
  for (let attempt = 1; ; attempt++) {
    // What the read's shared checks find for other rules is told only of the read that stands.
    const found: Array<Parameters<StepContext['found']>> = [];
    const tell = (): void => {
      for (const [owner, violations] of found) ctx.found(owner, violations);
    };
    try {
      // Sent again afresh: an answer shared from another read would only repeat what was spoiled.
      const state = await captureState(
        { ...ctx, found: (owner, violations) => found.push([owner, violations]) },
        resourceId,
        parts,
        attempt === 1 ? options : { ...options, fresh: true },
      );
      tell();
      return state;
    } catch (error) {
      const departed = isConformanceFailure(error) || isDepartureOfAnotherRule(error);
      if (attempt >= RESTORATION_READS || !departed) {
        tell();
        throw error;
      }
    }
  }
}

/**
 * A read that lags a write is given the timing's settleMs to catch up before
 * the guard believes it. A bounded wait: restoring goes on after a rule's
 * deadline too, so it takes no abort signal.
 */
function settle(ctx: StepContext): Promise<void> {
  return ctx.timing.clock.wait(ctx.timing.settleMs);
}

/**
 * The state after putting `goal` back: read at once, and when it differs,
 * read again after a moment (a server may serve a read that lags a write),
 * so a restoration that took effect is never taken for one that did not.
 */
async function settledState(
  ctx: StepContext,
  goal: ResourceState,
  parts: readonly RestorablePart[],
  step: string,
  known?: ResourceState,
): Promise<ResourceState> {
  // The parts not read are the known state's (the caller knows nothing changed them).
  const read = async (options: { step: string; fresh?: boolean }): Promise<ResourceState> => ({
    ...known,
    ...(await restorationRead(ctx, goal.resourceId, parts, options)),
  });
  const first = await read({ step });
  if (!stateDifference(goal, first)) return first;
  await settle(ctx);
  return read({ step: `${step}, settled`, fresh: true });
}

/** The parts of a resource that restoring requests write. */
function writtenParts(requests: readonly UndoRequest[]): RestorablePart[] {
  const parts = new Set(requests.map(({ operation }) => (operation === 'resources.assign-team' ? 'teams' : 'rates')));
  return (['rates', 'teams'] as const).filter((p) => parts.has(p));
}

/** A restoring request as one of the suite's own changes (own-mutations.ts): it may have taken effect. */
function asOwnMutation({ operation, body }: UndoRequest): OwnMutation {
  return {
    part: operation === 'resources.assign-team' ? 'teams' : 'rates',
    resourceId: body.resource_id,
    span: body.date_range === undefined ? undefined : dateSpan(body.date_range),
    sets: settingOf(operation, body),
    accepted: true,
  };
}

function partsOf(state: ResourceState): RestorablePart[] {
  return (['rates', 'teams'] as const).filter((p) => state[p] !== undefined);
}

type UndoOperation = 'resources.assign-activity-rate' | 'resources.assign-team' | 'resources.unassign-activity-rate';

type UndoRequest = { [O in UndoOperation]: { operation: O; body: RequestOf<O> } }[UndoOperation];

/** The request that assigns a former period again over its range. */
function rateRequest(resource_id: string, p: ActivityRatePeriod): UndoRequest {
  return {
    operation: 'resources.assign-activity-rate',
    body: {
      resource_id,
      date_range: p.date_range,
      average_rate: p.average_rate,
      work_regime_id: p.work_regime.id,
      activity_rate_patterns: p.activity_rate_patterns,
      paid_hourly: p.paid_hourly,
      apprentice: p.apprentice,
      trainee: p.trainee,
      ...(typeof p.indemnity_enabled === 'boolean' ? { indemnity_enabled: p.indemnity_enabled } : {}),
      ...(typeof p.compensation_enabled === 'boolean' ? { compensation_enabled: p.compensation_enabled } : {}),
    },
  };
}

/** The request that assigns a former team assignation again, settling the conflicts it meets. */
function teamRequest(resource_id: string, a: TeamAssignation): UndoRequest {
  return {
    operation: 'resources.assign-team',
    body: {
      resource_id,
      team_id: a.team.id,
      head: a.head,
      date_range: a.date_range,
      ...(typeof a.regrouping === 'string' ? { regrouping: a.regrouping } : {}),
      ...(typeof a.contract_number === 'string' ? { contract_number: a.contract_number } : {}),
      ...(typeof a.external_id === 'string' ? { external_id: a.external_id } : {}),
      warning_aware: true,
    },
  };
}

/**
 * Periods the latest first: each is assigned again ending before the next
 * one restored starts, never starting the day after one ends (an assignment
 * right after a period is under test: a server that merges it into that
 * period would leave the state unrestorable).
 */
function latestFirst(periods: readonly ActivityRatePeriod[]): ActivityRatePeriod[] {
  return [...periods].sort((a, b) => (a.date_range < b.date_range ? 1 : a.date_range > b.date_range ? -1 : 0));
}

/**
 * The documented requests that put `before` back, once each period shown at
 * restore time has been unassigned one range at a time (so restoring never
 * relies on an unassignment spanning several periods: that is under test):
 * every former period assigned again (the latest first), every former team
 * assignation assigned again with warning_aware (the conflicts it settles are
 * the point).
 */
export function undoRequests(before: ResourceState): UndoRequest[] {
  const id = before.resourceId;
  return [
    ...latestFirst(before.rates ?? []).map((p) => rateRequest(id, p)),
    ...(before.teams ?? []).map((a) => teamRequest(id, a)),
  ];
}

/**
 * The requests that put back only what differs between `before` and `now`:
 * a period shown now that no former period covers is unassigned (its own
 * range, one at a time), every former period or assignation no longer shown
 * is assigned again over its range (an assignment may modify the periods it
 * overlaps, §4.2 rule 1, which is what replaces the fragments a check left).
 * The caller verifies, and falls back to a full restore when this was not enough.
 */
export function targetedUndoRequests(before: ResourceState, now: ResourceState): UndoRequest[] {
  const id = before.resourceId;
  const requests: UndoRequest[] = [];
  const { rates, teams } = before;
  if (rates) {
    const missing = missingItems(rates, now.rates ?? []);
    const extra = missingItems(now.rates ?? [], rates);
    const missingSpans = missing.map((p) => splitRange(p.date_range)).filter((s) => s !== undefined);
    for (const p of extra) {
      const span = splitRange(p.date_range);
      if (span && missingSpans.some((m) => covers(m, span))) continue;
      requests.push({
        operation: 'resources.unassign-activity-rate',
        body: { resource_id: id, date_range: p.date_range },
      });
    }
    requests.push(...latestFirst(missing).map((p) => rateRequest(id, p)));
  }
  if (teams) requests.push(...missingItems(teams, now.teams ?? []).map((a) => teamRequest(id, a)));
  return requests;
}

/** Items of `from` that `other` does not hold (compared as canonical JSON). */
function missingItems<T>(from: readonly T[], other: readonly T[]): T[] {
  const held = new Set(other.map(canonicalJson));
  return from.filter((item) => !held.has(canonicalJson(item)));
}

/**
 * A restoring request: it puts a value back, so the client's retry policy
 * repeats it after a network failure, a timeout or a gateway answer.
 */
async function send(client: DirectoryClient, { operation, body }: UndoRequest): Promise<void> {
  await client.post(operation, body, { retry: 'restore' });
}
