/** §4.5 resources.show-teams and §4.3 resources.assign-team. */
import { ConcurrentWrites, lostUpdateGap } from '../concurrent-faults.ts';
import { StaleReads } from '../stale-reads.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { formatSpan, overlaps, subtract, type Span } from '../days.ts';
import type { Resource, TeamAssignation } from '../model.ts';
import {
  REDACTED,
  type Operation,
  type OperationContext,
  type OperationMaybeLater,
  type OperationResult,
} from '../operation.ts';
import { boolean, dateRange, optional, required, snowflake, snowflakes, string, type Body } from '../validate.ts';

export function clip(span: Span, to: Span): Span {
  return { start: Math.max(span.start, to.start), end: Math.min(span.end, to.end) };
}

export function resourceOf(body: Body, ctx: OperationContext): Resource {
  const id = required(body, 'resource_id', snowflake);
  const r = ctx.store.resourcesById.get(id);
  if (!r) throw notFound('resource_id', `unknown resource ${id}`);
  return r;
}

/** Fields the restricted key may not view (docs/reference-server.md). */
export const RESTRICTED_TEAM_FIELDS = ['contract_number', 'external_id'] as const;

/** The fault 'teams-contract-number-html-escaped': text escaped for HTML on its way out, as a template would. */
function htmlEscaped(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

function renderAssignation(a: TeamAssignation, ctx: OperationContext): Record<string, unknown> {
  const restricted = ctx.caller === 'restricted';
  const marker = ctx.faults.has('redaction-wrong-marker') ? { redacted: true } : REDACTED;
  const out: Record<string, unknown> = {
    team: { id: a.teamId, name: ctx.store.teamsById.get(a.teamId)?.name ?? '' },
    head: ctx.faults.has('show-teams-head-as-string') ? String(a.head) : a.head,
    date_range: formatSpan(a.span),
    regrouping: a.regrouping,
    contract_number:
      restricted || ctx.faults.has('redaction-for-every-caller')
        ? marker
        : ctx.faults.has('teams-contract-number-html-escaped')
          ? htmlEscaped(a.contractNumber)
          : a.contractNumber,
    external_id: restricted && !ctx.faults.has('redaction-leaks-external-id') ? marker : a.externalId,
  };
  return out;
}

export const showTeams: Operation = (body, ctx) => {
  const resource = resourceOf(body, ctx);
  const given = optional(body, 'team_ids', snowflakes);
  const teamIds = given && ctx.faults.has('show-teams-first-team-filter-only') ? given.slice(0, 1) : given;
  const head = optional(body, 'head', boolean);
  const span = optional(body, 'date_range', (v, f) => {
    if (ctx.faults.has('malformed-date-500') && typeof v === 'string' && /^\d{4}-02-3[01]/.test(v))
      throw new Error('Invalid time value');
    return dateRange(v, f);
  });
  if (
    ctx.faults.has('show-teams-disabled-team-refused') &&
    teamIds?.some((id) => ctx.store.domain.teams.some((t) => t.id === id && !t.enabled))
  )
    throw badRequest('team_ids', 'names a disabled team');
  // The fault: a team of no one among team_ids empties the answer (a join that finds no row for it).
  if (teamIds?.some((id) => !ctx.store.teamsById.has(id)) && ctx.faults.has('show-teams-unknown-team-empties'))
    return { status: 200, body: [] };
  const headIgnored =
    ctx.faults.has('show-teams-head-filter-ignored') ||
    (teamIds !== undefined && ctx.faults.has('show-teams-head-ignored-beside-team-ids'));
  const teamsIgnored =
    ctx.faults.has('show-teams-team-filter-ignored') ||
    (head !== undefined && ctx.faults.has('show-teams-team-ids-ignored-beside-head'));
  const spanIgnored =
    teamIds !== undefined && teamIds.length > 1 && ctx.faults.has('show-teams-range-ignored-beside-several-teams');
  const items = teamsRead(ctx, ctx.store.detailsOf(resource))
    .filter((a) => !teamIds || teamsIgnored || teamIds.includes(a.teamId))
    .filter((a) => head === undefined || headIgnored || a.head === head)
    .filter((a) => !span || spanIgnored || overlaps(a.span, span))
    .sort((a, b) => a.span.start - b.span.start || (a.teamId < b.teamId ? -1 : 1))
    // The fault: a join on team_ids as given, each assignation once per time its team is named.
    .flatMap((a) =>
      ctx.faults.has('show-teams-team-named-twice-listed-twice') && teamIds
        ? teamIds.filter((id) => id === a.teamId).map(() => a)
        : [a],
    )
    .map((a) =>
      renderAssignation(span && ctx.variants.has('clip-ranges') ? { ...a, span: clip(a.span, span) } : a, ctx),
    );
  return { status: 200, body: items };
};

interface Plan {
  modifications: Array<{ team_id: string; head: boolean; date_range: string; new_date_range: string }>;
  deletions: Array<{ team_id: string; head: boolean; date_range: string }>;
  next: TeamAssignation[];
}

/**
 * An assignation of the same team and role that starts on the same day is
 * updated to the new range (extended or shortened); one that overlaps or
 * touches it is merged (extended). Otherwise a resource has at most one head
 * team on any day and one assignation per team on any day: the new one trims
 * (modification) or removes (deletion) those it conflicts with.
 */
function plan(existing: TeamAssignation[], incoming: TeamAssignation): Plan {
  const modifications: Plan['modifications'] = [];
  const deletions: Plan['deletions'] = [];
  const next: TeamAssignation[] = [];
  const merged = { ...incoming, span: { ...incoming.span } };
  for (const a of existing) {
    const sameTeam = a.teamId === incoming.teamId;
    if (sameTeam && a.head === incoming.head) {
      if (a.span.start === incoming.span.start) continue;
      const touches = a.span.start <= incoming.span.end + 1 && incoming.span.start <= a.span.end + 1;
      if (touches) {
        merged.span = { start: Math.min(merged.span.start, a.span.start), end: Math.max(merged.span.end, a.span.end) };
        continue;
      }
    }
    const conflicts = overlaps(a.span, incoming.span) && (sameTeam || (a.head && incoming.head));
    if (!conflicts) {
      next.push(a);
      continue;
    }
    const pieces = subtract(a.span, incoming.span);
    if (pieces.length === 0) deletions.push({ team_id: a.teamId, head: a.head, date_range: formatSpan(a.span) });
    for (const piece of pieces) {
      modifications.push({
        team_id: a.teamId,
        head: a.head,
        date_range: formatSpan(a.span),
        new_date_range: formatSpan(piece),
      });
      next.push({ ...a, span: piece });
    }
  }
  next.push(merged);
  next.sort((x, y) => x.span.start - y.span.start);
  return { modifications, deletions, next };
}

/** Under `teams-stale-read`: what each resource held before its last assignment (stale-reads.ts). */
const staleTeams = new StaleReads<TeamAssignation[]>();

function teamsRead(ctx: OperationContext, details: { teams: TeamAssignation[] }): TeamAssignation[] {
  return ctx.faults.has('teams-stale-read') ? staleTeams.read(details, details.teams, ctx.timing) : details.teams;
}

export const assignTeam: OperationMaybeLater = (body, ctx) => {
  const resource = resourceOf(body, ctx);
  const teamId = required(body, 'team_id', snowflake);
  const team = ctx.store.teamsById.get(teamId);
  if (!team) throw notFound('team_id', `unknown team ${teamId}`);
  const span: Span = required(body, 'date_range', dateRange);
  const head = optional(body, 'head', boolean) ?? false;
  const aware = optional(body, 'warning_aware', boolean) ?? false;
  const sentRegrouping = optional(body, 'regrouping', string);
  // The fault: text beyond ASCII stored as question marks, as a Latin-1 column would.
  const regrouping =
    sentRegrouping !== undefined && ctx.faults.has('teams-regrouping-non-ascii-mangled')
      ? sentRegrouping.replace(/[^\p{ASCII}]/gu, '?')
      : sentRegrouping;
  const contractNumber = optional(body, 'contract_number', string);
  if (
    contractNumber !== undefined &&
    /[^\p{ASCII}]/u.test(contractNumber) &&
    ctx.faults.has('teams-non-ascii-contract-number-refused')
  )
    throw new ApiError(422, 'contract_number: must be ASCII', 'contract_number');
  const sentExternalId = optional(body, 'external_id', string);
  // The fault: the external id written only beside a regrouping.
  const externalId =
    sentExternalId !== undefined &&
    sentRegrouping === undefined &&
    ctx.faults.has('teams-external-id-dropped-without-regrouping')
      ? ''
      : sentExternalId;
  if (ctx.caller === 'restricted') throw new ApiError(403, 'this API key may not assign teams');
  if (!team.enabled) throw new ApiError(422, `team_id: team ${teamId} is disabled`, 'team_id');
  const details = ctx.store.detailsOf(resource);
  const same = details.teams.find((a) => a.teamId === teamId && a.head === head && overlaps(a.span, span));
  const incoming: TeamAssignation = {
    teamId,
    head,
    span,
    // The fault: the assignation the team already had over these days keeps its regrouping.
    regrouping:
      (ctx.faults.has('teams-reassign-keeps-regrouping') ? same?.regrouping : undefined) ??
      regrouping ??
      same?.regrouping ??
      '',
    contractNumber: contractNumber ?? same?.contractNumber ?? '',
    externalId: externalId ?? same?.externalId ?? '',
  };
  if (aware && ctx.faults.has('teams-concurrent-assignments-dropped')) {
    // Wait a moment before writing: an assignment to the same resource that arrives meanwhile is a conflict,
    // which the fault settles by writing neither, both answered as if done.
    return pendingAssignments.waitForConflict(details, ctx.timing).then((conflict) => {
      if (!conflict) details.teams = plan(details.teams, incoming).next;
      return assigned(ctx, resource.id, incoming);
    });
  }
  if (aware && ctx.faults.has('teams-lost-update')) {
    // Read, wait, write: another assignment that lands meanwhile is overwritten with the assignations read here.
    const read = details.teams;
    return lostUpdateGap(ctx.timing).then(() => {
      details.teams = plan(read, incoming).next;
      return assigned(ctx, resource.id, incoming);
    });
  }
  const result = plan(details.teams, incoming);
  const conflicting = result.modifications.length + result.deletions.length > 0;
  if (conflicting && !aware && !ctx.faults.has('assign-team-aware-ignored')) {
    if (
      ctx.faults.has('assign-team-warning-applied') ||
      (contractNumber === undefined && ctx.faults.has('teams-warning-applied-without-contract-number'))
    )
      details.teams = result.next;
    return {
      status: ctx.variants.has('assign-team-204') ? 200 : 409,
      body: warning(result, ctx.faults.has('assign-team-warning-without-details')),
    };
  }
  if (conflicting && ctx.faults.has('assign-team-aware-ignored')) return { status: 409, body: warning(result, false) };
  if (ctx.faults.has('teams-stale-read')) {
    staleTeams.wrote(details, details.teams, ctx.timing);
  }
  details.teams = result.next;
  return assigned(ctx, resource.id, incoming);
};

/** The answer of an assignment done. */
function assigned(ctx: OperationContext, resourceId: string, a: TeamAssignation): OperationResult {
  if (ctx.variants.has('assign-team-204')) return { status: 204 };
  return {
    status: 200,
    body: { resource_id: resourceId, team_id: a.teamId, head: a.head, date_range: formatSpan(a.span) },
  };
}

/** Under `teams-concurrent-assignments-dropped`: the assignments of each resource waiting to be written. */
const pendingAssignments = new ConcurrentWrites();

function warning(result: Plan, withoutDetails: boolean): Record<string, unknown> {
  return {
    warning_type: 'assign-conflicting-resource-teams',
    description:
      'The assignment conflicts with existing team assignments of the resource; they would be modified or deleted.',
    ...(withoutDetails ? {} : { details: { modifications: result.modifications, deletions: result.deletions } }),
    required_action: 'resend the request with warning_aware set to true to apply these changes',
  };
}
