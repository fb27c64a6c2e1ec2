/**
 * §4.3 resources.assign-team over its whole input space, pairwise: the
 * operation's input model (src/rules/input-models/assign-team.ts, derived
 * from its request schema) gives each field its value classes, a covering
 * array drawn from the run's seed holds every pair of classes in some row,
 * and each row assigns, as head, a team the resource holds no assignation of
 * over a week of its own inside the resource's head assignation (a day apart
 * from the next row's week), read back over that week at once. A row answered
 * with a warning (its `warning_aware` false or left out) is sent again with
 * `warning_aware` true, as the warning asks, and read back again: the second
 * step on the same data. Then one complete row (every field sent) with ASCII
 * text and one with text beyond ASCII. The resource is restored once after
 * the rows (only head assignations are sent: restoring the head assignation
 * the weeks lie in removes them).
 *
 * Oracles that need no open choice, judged by `judgeTeamRows`:
 * - a warning changes nothing: after one, the row's team is shown on no day
 *   of its week (it held none there);
 * - `warning_aware` true is done: the answer is no warning, and the row's
 *   team is shown as head on every day of its week (the end day left open:
 *   whether a range includes it is not shown);
 * - round trip: wherever the row's team is shown over its week after an
 *   assignment answered as done, the assignation carries the regrouping,
 *   contract_number and external_id the row sent, byte for byte (a Redacted
 *   value is the redaction rule's business);
 * - documented values are accepted: a row whose every field is sent, each
 *   documented and valid for the target (its resource, an enabled team, a
 *   well-formed range, booleans, text), is never refused.
 * Open, and so only observed: whether a row without `warning_aware` true and
 * answered as done took effect ("the assignment is done only when this is
 * true" is worded as a condition, not as a refusal), and a row refused with
 * a field left out (which fields are required is not shown).
 */
import { naughtyString } from '../src/arbitraries/naughty-strings.ts';
import { NAUGHTY } from '../src/rules/input-models/assign-team.ts';
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { addDays, splitRange, type DateSpan } from '../src/rules/dates.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import { assignTeamInputModel } from '../src/rules/input-models/assign-team.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showTeams } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import type { CheckContext, Judging } from '../src/rules/types.ts';
import {
  accepted,
  isClean,
  isNoVerdict,
  noEvidence,
  refusedComplete,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import { matchesSchema, type AssignTeamRequest, type TeamAssignation } from '../src/schemas/index.ts';
import type { Violation } from '../src/core/types.ts';
import { isWarning } from '../src/rules/judges/assign-team-warning.ts';
import { certainDays } from '../src/rules/judges/effects-model.ts';
import { longestHead } from './concurrent-teams.properties.ts';

/** Each row's assignment, its resending after a warning, and the read after each. */
export const TEAM_ROW_STEP = {
  assign: (n: number, complete: boolean) => `assign-team pairwise row ${n}${complete ? ' (complete)' : ''}`,
  resend: (assignStep: string) => `${assignStep} resent with warning_aware true`,
  read: (assignStep: string) => `show-teams after ${assignStep}`,
} as const;
const ASSIGN_PREFIX = 'assign-team pairwise row ';

/** Each row's week, and the day left between it and the next row's, so two rows' assignations never touch. */
const ROW_DAYS = 7;
const ROW_STRIDE = ROW_DAYS + 1;

type Row = ReadonlyMap<string, string>;
const TEXT_FIELDS = ['regrouping', 'contract_number', 'external_id'] as const;

/** A number to tell one run's text from another's. */
let runNumber = 0;

/** The text a row's class asks for; undefined when it is left out. */
function textOf(cls: string | undefined, field: (typeof TEXT_FIELDS)[number], n: number, tag: string, seed: number) {
  if (cls === 'ascii') return `dc-${field}-${tag}-${n}`;
  if (cls === 'non-ascii') return `dc-${field}-${tag}-${n}-Zürich-Straße-東京-🚀`;
  // The corpus's string as it is ("null", "0", a quote, markup); an external_id after the run's prefix, since
  // it is unique across the instance (§8).
  if (cls === NAUGHTY) {
    const text = naughtyString(seed, n, TEXT_FIELDS.indexOf(field));
    return field === 'external_id' ? `dc-${field}-${tag}-${n}-${text}` : text;
  }
  return undefined;
}

/** The body a row's classes ask for. */
function bodyOf(row: Row, n: number, resourceId: string, teamId: string, range: DateSpan, tag: string, seed: number) {
  const body: AssignTeamRequest = {
    resource_id: resourceId,
    team_id: teamId,
    head: true,
    date_range: `${range.start}/${range.end}`,
  };
  for (const field of TEXT_FIELDS) {
    const text = textOf(row.get(field), field, n, tag, seed);
    if (text !== undefined) body[field] = text;
  }
  const aware = row.get('warning_aware');
  if (aware === 'true' || aware === 'false') body.warning_aware = aware === 'true';
  return body;
}

/** Two complete rows, `warning_aware` true: one with ASCII text, one with text beyond it. */
const COMPLETE_ROWS: Row[] = ['ascii', 'non-ascii'].map(
  (text) => new Map([...TEXT_FIELDS.map((f) => [f, text] as const), ['warning_aware', 'true']]),
);

async function drive(ctx: CheckContext<'roleKindResource'> & Judging): Promise<void> {
  const model = assignTeamInputModel(ctx.profile);
  const array = drawCoveringArray(model, ctx.options.seed, ctx.options.depth);
  precondition(array, 'no covering array was drawn for resources.assign-team');
  const rows: Row[] = array.rows.map((classes) => new Map(classes.map((c, f) => [array.factors[f]?.name ?? '', c])));
  const judged = rows.map(() => false);
  const resourceId = await claimRoleResource(ctx);
  const assignations = await showTeams(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
  const head = longestHead(assignations);
  const needed = (rows.length + COMPLETE_ROWS.length) * ROW_STRIDE + 2;
  precondition(
    head && addDays(head.span.start, needed) < head.span.end,
    `the resource has no head assignation of ${needed} days to assign the rows inside`,
  );
  // Teams the resource holds no assignation of: whatever is shown of one over a row's week is that row's doing.
  const held = new Set(assignations.map((a) => a.team.id));
  const teamIds = ctx.profile.teams.filter((t) => t.enabled && !held.has(t.id)).map((t) => t.id);
  precondition(teamIds.length > 0, 'the target profile names no enabled team the resource holds no assignation of');
  runNumber += 1;
  const tag = `${ctx.options.seed}-${runNumber}`;
  const guard = guardResource(ctx, resourceId, ['teams'], { known: { resourceId, teams: assignations } });
  const readWeek = (range: DateSpan, step: string) =>
    showTeams(ctx, { resource_id: resourceId, date_range: `${range.start}/${range.end}` }, { step, fresh: true });
  try {
    await checkProperty(ctx, fc.constant(null), () =>
      ctx.judged(() =>
        guard.around(async () => {
          for (const [i, row] of [...rows, ...COMPLETE_ROWS].entries()) {
            const start = addDays(head.span.start, 1 + i * ROW_STRIDE);
            const range = { start, end: addDays(start, ROW_DAYS - 1) };
            const step = TEAM_ROW_STEP.assign(i + 1, i >= rows.length);
            const body = bodyOf(
              row,
              i + 1,
              resourceId,
              teamIds[i % teamIds.length] ?? '',
              range,
              tag,
              ctx.options.seed,
            );
            const res = await ctx.client.post('resources.assign-team', body, { step });
            if (i < rows.length) judged[i] = res.status < 500 && res.status !== 429;
            const warned = isWarning(res.json);
            if (!warned && (res.status < 200 || res.status >= 300)) {
              ctx.observe(`${step}: refused`, { status: res.status, row: Object.fromEntries(row) });
              continue;
            }
            await readWeek(range, TEAM_ROW_STEP.read(step));
            if (!warned || body.warning_aware === true) continue;
            // What the warning asks for: the same request with warning_aware true.
            const again = TEAM_ROW_STEP.resend(step);
            const resent = await ctx.client.post(
              'resources.assign-team',
              { ...body, warning_aware: true },
              {
                step: again,
              },
            );
            if (resent.status >= 200 && resent.status < 300) await readWeek(range, TEAM_ROW_STEP.read(again));
          }
        }),
      ),
    );
  } finally {
    ctx.observe('pairwise coverage of resources.assign-team', pairCoverage(model, array, judged));
  }
}

/** Does a request send every field, each documented and valid for the target? */
function isComplete(body: AssignTeamRequest): boolean {
  return (
    typeof body.head === 'boolean' &&
    typeof body.warning_aware === 'boolean' &&
    TEXT_FIELDS.every((f) => typeof body[f] === 'string')
  );
}

/** The days of `range` the row's team is shown on, and its assignations shown over them. */
function shownOver(teamId: string, range: DateSpan, shown: readonly TeamAssignation[]) {
  const days = certainDays(range);
  const mine = shown.filter((a) => {
    const span = splitRange(a.date_range);
    return a.team.id === teamId && span !== undefined && days.some((d) => span.start <= d && d <= span.end);
  });
  const headDays = days.filter((d) =>
    mine.some((a) => {
      const span = splitRange(a.date_range);
      return a.head && span !== undefined && span.start <= d && d <= span.end;
    }),
  );
  return { days, mine, headDays };
}

/** What the read after one assignment departs from; undefined when it says nothing (no verdict or no list). */
function judgeRead(o: Observed, body: AssignTeamRequest, read: Observed): Judgement {
  const answer = accepted(read, { status: 200 });
  if (!isClean(answer)) return answer;
  // The read's shape is show-teams.response-shape's: a body of another shape says nothing here.
  if (!matchesSchema('TeamAssignationList', read.body)) return noEvidence(`${read.step} showed no list`);
  const range = splitRange(body.date_range);
  if (!range) return noEvidence(`${o.step} sent no range`);
  const { days, mine, headDays } = shownOver(body.team_id, range, read.body);
  const v: Violation[] = [];
  if (isWarning(o.body)) {
    if (mine.length > 0) {
      v.push({
        where: `${read.step}: team`,
        message: `must be unchanged after a warning (warning_aware ${String(body.warning_aware ?? 'left out')}): the assignment was not done`,
        expected: `no assignation of team ${body.team_id} over ${body.date_range}`,
        actual: mine,
      });
    }
    return v;
  }
  if (body.warning_aware === true && headDays.length < days.length) {
    v.push({
      where: `${read.step}: date_range`,
      message: 'must show the team as head over the whole range of an assignment done (warning_aware true)',
      expected: { team: body.team_id, head: true, date_range: body.date_range },
      actual: read.body.map((a) => `${a.team.id}/${a.head ? 'head' : 'side'} ${a.date_range}`),
    });
  }
  for (const a of mine) {
    for (const field of TEXT_FIELDS) {
      const sent = body[field];
      // Left out, the value is the server's; a Redacted value is the redaction rule's business.
      if (sent === undefined || typeof a[field] !== 'string' || a[field] === sent) continue;
      v.push({
        where: `${read.step}: ${field}`,
        message: `must show the ${field} the assignment sent, byte for byte`,
        expected: sent,
        actual: a[field],
      });
    }
  }
  return v;
}

/**
 * The judge of the rows: each assignment (and its resending) with the read
 * of its week. Pure: the same function judges a recorded run.
 */
export function judgeTeamRows(log: readonly Observed[]): Judgement {
  const assigns = log.filter((o) => o.step.startsWith(ASSIGN_PREFIX) && o.operation === 'resources.assign-team');
  if (assigns.length === 0) return noEvidence('no pairwise row was sent');
  const violations: Violation[] = [];
  let judgedRows = 0;
  for (const o of assigns) {
    if (!matchesSchema('AssignTeamRequest', o.request)) continue;
    const body = o.request;
    if (isWarning(o.body)) {
      if (body.warning_aware === true) {
        violations.push({
          where: `${o.step}: response.body`,
          message: 'must not be a warning when warning_aware is true: the assignment is done',
          expected: 'success',
          actual: o.body,
        });
        continue;
      }
    } else {
      // A 401, 429 or 5xx says nothing of the clause.
      const done = accepted(o);
      if (isNoVerdict(done)) return done;
      if (!isClean(done)) {
        const refused = isComplete(body)
          ? refusedComplete(o, 'a resource it holds, an enabled team, a range, booleans, text', '2xx or a warning')
          : undefined;
        if (refused) violations.push(refused);
        continue;
      }
    }
    const read = log.find((r) => r.step === TEAM_ROW_STEP.read(o.step));
    if (!read) continue;
    const judgement = judgeRead(o, body, read);
    if (isNoVerdict(judgement)) return judgement;
    if (!Array.isArray(judgement)) continue;
    judgedRows += 1;
    violations.push(...judgement);
  }
  if (violations.length > 0) return violations;
  return judgedRows === 0 ? noEvidence('no row was answered and read back') : [];
}

export default defineRuleGroup({
  section: '§4.3',
  title: 'Team assignments: every pair of input classes',
  rules: [
    property({
      id: 'assign-team.prop.pairwise-combinations',
      clause: '§4.3 Request body; §4.3 Responses; §4.5',
      quote: [
        'Assigns a resource to a team (head or side) for a date range.',
        '| warning_aware | boolean | the assignment is done only when this is true; example value is false |',
        'Warning body (returned when the assignment conflicts with existing associations)',
        'Retrieves team assignations of a resource.',
      ],
      level: 'MUST',
      // One covering array per run: its rows are the run's assignments.
      runs: 1,
      mutates: 'reversible',
      needs: ['roleKindResource'],
      drive,
      judge: judgeTeamRows,
    }),
  ],
});
