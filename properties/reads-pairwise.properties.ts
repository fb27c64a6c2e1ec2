/**
 * §4.4-4.6 the reads over their whole input space, pairwise: each
 * operation's input model (src/rules/input-models/, derived from its request
 * schema) gives each field its value classes, a covering array drawn from the
 * run's seed holds every pair of classes the target can serve in some row,
 * and every row is read from one resource the suite never changes and judged
 * (src/rules/judges/read-combinations.ts) by oracles that hold whatever the
 * server chose where the spec is open: the rows against each other and
 * against wide reads of the same resource. What an answer shows of another
 * team, head, resource or role is the filter rules' departure (`owned`), its
 * shape the response-shape rules'; the rest is each pairwise rule's own.
 */
import type { Depth } from '../src/core/types.ts';
import fc from 'fast-check';
import type { ApiResponse } from '../src/client/directory-client.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { failAll, owned, precondition } from '../src/rules/assertions.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { splitRange, type DateSpan } from '../src/rules/dates.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import { drawRange, RANGE_ENDS, RANGE_POSITIONS } from '../src/rules/input-models/date-ranges.ts';
import { LONG_LIST, type InputModel } from '../src/rules/input-models/model.ts';
import { endsFactor } from '../src/rules/input-models/reads.ts';
import { listRolesInputModel } from '../src/rules/input-models/list-roles.ts';
import { showActivityRatesInputModel } from '../src/rules/input-models/show-activity-rates.ts';
import { showTeamsInputModel } from '../src/rules/input-models/show-teams.ts';
import {
  judgeListRolesRows,
  judgeShowActivityRatesRows,
  judgeShowTeamsRows,
  membership,
  PAIRWISE_STEP,
} from '../src/rules/judges/read-combinations.ts';
import { observedOf } from '../src/rules/judges/observed.ts';
import type { RuleId } from '../src/rules/rule-ids.ts';
import { WIDE_RANGE } from '../src/rules/steps/assignations.ts';
import { judgeRead } from '../src/rules/steps/list.ts';
import { roleKindResources, untouchedRoleResources } from '../src/rules/steps/roles.ts';
import type { CheckContext, Judging } from '../src/rules/types.ts';
import type { OperationName } from '../src/schemas/operations.ts';
import type { ListRolesRequest, ShowActivityRatesRequest, ShowTeamsRequest } from '../src/schemas/index.ts';

/** Whose clause it is that an answer holds only what its filters let through. */
const OWNER = {
  team: 'show-teams.team-filter',
  head: 'show-teams.head-filter',
  roles: 'list-roles.filters-respected',
} as const satisfies Record<string, RuleId>;

/** Resources the suite never changes that are looked at to find one worth reading. */
const CANDIDATES = 10;

type Row = ReadonlyMap<string, string>;

/**
 * One read, judged as it comes for the clauses of other rules: its shape
 * (the reads' shared judges, when it is answered at all) and what its
 * filters let through.
 */
async function read(
  ctx: CheckContext,
  operation: OperationName,
  body: ShowTeamsRequest | ShowActivityRatesRequest | ListRolesRequest,
  step: string,
): Promise<ApiResponse> {
  const res = await ctx.client.post(operation, body, { step, shared: true });
  // A refusal is this rule's to judge (every field present) or the server's choice (one left out).
  if (res.status >= 200 && res.status < 300) judgeRead(ctx, res, step, body);
  for (const m of membership(observedOf(res, step, body))) owned(ctx, OWNER[m.owner], () => failAll(m.violations));
  return res;
}

/** The rows of the seed's array, each as its classes by factor name. */
function rowsOf(
  model: InputModel,
  seed: number,
  depth: Depth,
): { rows: Row[]; judged: boolean[]; observe: () => unknown } {
  const array = drawCoveringArray(model, seed, depth);
  precondition(array, `no covering array was drawn for ${model.operation}`);
  const rows = array.rows.map((classes) => new Map(classes.map((cls, f) => [array.factors[f]?.name ?? '', cls])));
  const judged = rows.map(() => false);
  return { rows, judged, observe: () => pairCoverage(model, array, judged) };
}

/**
 * The date_range a row's classes ask for, drawn around `spans` (clock changes of the profile's zones);
 * null when left out, undefined when the data has none.
 */
function rangeOf(
  row: Row,
  spans: readonly DateSpan[],
  zones: readonly string[] | undefined,
): string | null | undefined {
  const position = RANGE_POSITIONS.find((p) => p === row.get('date_range'));
  const ends = RANGE_ENDS.find((e) => e === row.get(endsFactor('date_range')));
  if (position === undefined || ends === undefined) return null;
  return drawRange(spans, position, ends, zones ? { zones } : {});
}

const spansOf = (items: readonly unknown[]): DateSpan[] =>
  items.flatMap((item) => {
    const range = typeof item === 'object' && item !== null && 'date_range' in item ? item.date_range : undefined;
    const span = typeof range === 'string' ? splitRange(range) : undefined;
    return span ? [span] : [];
  });

const arrayOf = (res: ApiResponse): unknown[] => (Array.isArray(res.json) ? res.json : []);

/** A row the target's data cannot give: observed, left out of what the run exercised. */
function unservedRow(ctx: CheckContext, operation: string, row: Row, why: string): void {
  ctx.observe(`${operation} pairwise row not sent: ${why}`, Object.fromEntries(row));
}

/** A row answered: exercised. A refused row that leaves a field out is what the server chose there. */
function answered(ctx: CheckContext, res: ApiResponse, step: string, complete: boolean): boolean {
  if (!complete && res.status >= 400 && res.status < 500)
    ctx.observe(`${step}: refused with a field left out`, res.status);
  return res.status < 500 && res.status !== 429;
}

/** The first resource the suite never changes whose wide read `pick` takes. */
async function firstResource<T>(
  ctx: CheckContext,
  readWide: (id: string) => Promise<unknown[]>,
  pick: (items: unknown[]) => T | undefined,
): Promise<{ id: string; found: T } | undefined> {
  for (const id of await untouchedRoleResources(ctx, CANDIDATES)) {
    const found = pick(await readWide(id));
    if (found !== undefined) return { id, found };
  }
  return undefined;
}

const teamIdOf = (item: unknown): string | undefined => {
  const team = typeof item === 'object' && item !== null && 'team' in item ? item.team : undefined;
  const id = typeof team === 'object' && team !== null && 'id' in team ? team.id : undefined;
  return typeof id === 'string' ? id : undefined;
};

async function driveShowTeams(ctx: CheckContext & Judging): Promise<void> {
  const model = showTeamsInputModel(ctx.profile);
  const { rows, judged, observe } = rowsOf(model, ctx.options.seed, ctx.options.depth);
  const wideRead = async (id: string) =>
    arrayOf(
      await read(
        ctx,
        'resources.show-teams',
        { resource_id: id, date_range: WIDE_RANGE },
        'show-teams without a filter',
      ),
    );
  const target = await firstResource(ctx, wideRead, (items) => {
    const held = [...new Set(items.flatMap((a) => teamIdOf(a) ?? []))];
    return held.length >= 2 ? held : undefined;
  });
  precondition(target, 'no resource the suite never changes is assigned to two teams');
  const held = target.found;
  const enabled = ctx.profile.teams.filter((t) => t.enabled && !held.includes(t.id)).map((t) => t.id);
  const disabled = ctx.profile.teams.filter((t) => !t.enabled).map((t) => t.id);
  const teamIds: Record<string, string[]> = {
    one: held.slice(0, 1),
    several: held.slice(0, 3),
    'not held': enabled.slice(0, 2),
    disabled: disabled.slice(0, 2),
    // Servable only where the profile names a hundred teams (the input model says so otherwise).
    long: ctx.profile.teams.map((t) => t.id),
  };
  // The wide reads name every team the resource holds and every enabled one (a disabled team is a row's class).
  const every = [...new Set([...held, ...ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id)])];
  try {
    await checkProperty(ctx, fc.constant(null), () =>
      ctx.judged(async () => {
        /** Each assignation the wide reads showed: its team, whether head, its span. */
        const shown: Array<{ team: string | undefined; head: boolean; span: DateSpan }> = [];
        for (const head of [true, false]) {
          const wide = await read(
            ctx,
            'resources.show-teams',
            { resource_id: target.id, team_ids: every, head, date_range: WIDE_RANGE },
            PAIRWISE_STEP.teamsWide(head),
          );
          for (const item of arrayOf(wide)) {
            for (const span of spansOf([item])) shown.push({ team: teamIdOf(item), head, span });
          }
        }
        const spans = shown.map((a) => a.span);
        // A row's range is drawn around the assignations its other filters let through (a filter dropped beside
        // another shows only where some of those lie outside the range), around all of them where those give
        // no range of the row's classes.
        const spansFor = (ids: readonly string[] | undefined, head: boolean | undefined): DateSpan[] =>
          shown
            .filter(
              (a) =>
                (ids === undefined || (a.team !== undefined && ids.includes(a.team))) &&
                (head === undefined || a.head === head),
            )
            .map((a) => a.span);
        for (const [index, row] of rows.entries()) {
          const body: ShowTeamsRequest = { resource_id: target.id };
          const teams = row.get('team_ids');
          if (teams !== undefined && teams !== 'omitted') {
            const ids = teamIds[teams] ?? [];
            if (ids.length === 0) {
              unservedRow(ctx, 'show-teams', row, `no team of the class ${teams} for the resource read`);
              continue;
            }
            body.team_ids = ids;
          }
          const head = row.get('head');
          if (head === 'true' || head === 'false') body.head = head === 'true';
          const zones = ctx.profile.timeZones;
          const range = rangeOf(row, spansFor(body.team_ids, body.head), zones) ?? rangeOf(row, spans, zones);
          if (range === undefined) {
            unservedRow(ctx, 'show-teams', row, 'the resource’s assignations give no range of these classes');
            continue;
          }
          if (range !== null) body.date_range = range;
          const step = PAIRWISE_STEP.teamsRow(index + 1);
          const res = await read(ctx, 'resources.show-teams', body, step);
          const complete = body.team_ids !== undefined && body.head !== undefined && body.date_range !== undefined;
          judged[index] = answered(ctx, res, step, complete);
        }
      }),
    );
  } finally {
    ctx.observe('pairwise coverage of resources.show-teams', observe());
  }
}

async function driveShowActivityRates(ctx: CheckContext & Judging): Promise<void> {
  const model = showActivityRatesInputModel(ctx.profile);
  const { rows, judged, observe } = rowsOf(model, ctx.options.seed, ctx.options.depth);
  const wideRead = async (id: string) =>
    arrayOf(
      await read(
        ctx,
        'resources.show-activity-rates',
        { resource_id: id, date_range: WIDE_RANGE },
        PAIRWISE_STEP.ratesWide,
      ),
    );
  const target = await firstResource(ctx, wideRead, (items) => (items.length >= 2 ? spansOf(items) : undefined));
  precondition(target, 'no resource the suite never changes has two activity rate periods');
  try {
    await checkProperty(ctx, fc.constant(null), () =>
      ctx.judged(async () => {
        // The wide read again inside the run: its judge reads it with the rows.
        await wideRead(target.id);
        for (const [index, row] of rows.entries()) {
          const body: ShowActivityRatesRequest = { resource_id: target.id };
          const range = rangeOf(row, target.found, ctx.profile.timeZones);
          if (range === undefined) {
            unservedRow(ctx, 'show-activity-rates', row, 'the resource’s periods give no range of these classes');
            continue;
          }
          if (range !== null) body.date_range = range;
          const step = PAIRWISE_STEP.ratesRow(index + 1);
          const res = await read(ctx, 'resources.show-activity-rates', body, step);
          judged[index] = answered(ctx, res, step, range !== null);
        }
      }),
    );
  } finally {
    ctx.observe('pairwise coverage of resources.show-activity-rates', observe());
  }
}

/**
 * The ids a list class stands for: the first, up to three, those reversed,
 * or a hundred (`long`: the others first and those last, so a server that
 * reads only the start of a long list leaves them out); undefined when the
 * class sends none, or `long` has too few to send.
 */
function idsOf(cls: string | undefined, ids: readonly string[], others: readonly string[]): string[] | undefined {
  if (cls === 'one') return ids.slice(0, 1);
  if (cls === 'several') return [...ids];
  if (cls === 'reversed') return [...ids].reverse();
  if (cls === 'long') {
    const long = [...others.filter((id) => !ids.includes(id)).slice(0, LONG_LIST - ids.length), ...ids];
    return long.length >= LONG_LIST ? long : undefined;
  }
  return undefined;
}

async function driveListRoles(ctx: CheckContext & Judging): Promise<void> {
  const model = listRolesInputModel(ctx.profile);
  const { rows, judged, observe } = rowsOf(model, ctx.options.seed, ctx.options.depth);
  const resources = await untouchedRoleResources(ctx, 3);
  // The long class names a hundred resources of role kinds from the same pages (no page larger than the
  // one every rule picks from, whose largest size is not shown); only the rows' own are compared, last.
  const untouched = await roleKindResources(ctx, 3, LONG_LIST);
  precondition(resources.length >= 2, 'fewer than two resources of a role kind that the suite never changes');
  const allRoles = ctx.profile.roles.map((r) => r.id);
  try {
    await checkProperty(ctx, fc.constant(null), () =>
      ctx.judged(async () => {
        const all = await read(
          ctx,
          'resources.list-roles',
          { resource_ids: resources, role_ids: ctx.profile.roles.map((r) => r.id) },
          PAIRWISE_STEP.rolesAll,
        );
        // The roles most of the resources hold first: one role is then one several resources share.
        const count = new Map<string, number>();
        for (const a of arrayOf(all)) {
          const role = typeof a === 'object' && a !== null && 'role_id' in a ? a.role_id : undefined;
          if (typeof role === 'string') count.set(role, (count.get(role) ?? 0) + 1);
        }
        const roles = [...count.entries()]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, 3)
          .map(([role]) => role);
        precondition(roles.length > 0, 'the resources read hold no role');
        for (const [index, row] of rows.entries()) {
          const body: ListRolesRequest = {};
          const resourceIds = idsOf(row.get('resource_ids'), resources, untouched);
          const roleIds = idsOf(row.get('role_ids'), roles, allRoles);
          // A long list the target cannot fill (fewer than a hundred resources it lists): the row is not sent.
          if (row.get('resource_ids') === 'long' && !resourceIds) continue;
          if (row.get('role_ids') === 'long' && !roleIds) continue;
          if (resourceIds) body.resource_ids = resourceIds;
          if (roleIds) body.role_ids = roleIds;
          const step = PAIRWISE_STEP.rolesRow(index + 1);
          const res = await read(ctx, 'resources.list-roles', body, step);
          judged[index] = answered(ctx, res, step, resourceIds !== undefined && roleIds !== undefined);
        }
      }),
    );
  } finally {
    ctx.observe('pairwise coverage of resources.list-roles', observe());
  }
}

export default defineRuleGroup({
  section: '§4.5',
  title: 'The reads: every pair of input classes',
  rules: [
    property({
      id: 'show-teams.prop.pairwise-combinations',
      clause: '§4.5',
      quote: [
        'Request body: `resource_id` (Snowflake), `team_ids` (array of Snowflake), `head` (boolean), `date_range` (DateRange).',
        'Retrieves team assignations of a resource.',
      ],
      level: 'MUST',
      // One covering array per run: its rows are the run's reads.
      runs: 1,
      needs: ['roleKindResource'],
      drive: driveShowTeams,
      judge: judgeShowTeamsRows,
    }),
    property({
      id: 'list-roles.prop.pairwise-combinations',
      clause: '§4.6',
      quote: [
        'Request body: `resource_ids` (array of Snowflake), `role_ids` (array of Snowflake).',
        'Retrieves all resource-role associations that the caller is allowed to view.',
      ],
      level: 'MUST',
      runs: 1,
      needs: ['roleKindResource'],
      drive: driveListRoles,
      judge: judgeListRolesRows,
    }),
    property({
      id: 'show-activity-rates.prop.pairwise-combinations',
      clause: '§4.4',
      quote: [
        'Request body: `resource_id` (Snowflake), `date_range` (DateRange).',
        'Retrieves activity rate periods of a resource, with per-weekday patterns and associated or inherited work regimes.',
      ],
      level: 'MUST',
      runs: 1,
      needs: ['roleKindResource'],
      drive: driveShowActivityRates,
      judge: judgeShowActivityRatesRows,
    }),
  ],
});
