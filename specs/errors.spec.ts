/**
 * §7 Errors, and the request format every operation shares (§4, §2.1).
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectJsonBodyOn2xx, precondition, recordedErrorMessage } from '../src/rules/assertions.ts';
import { listBody } from '../src/rules/steps/list.ts';
import { firstWithStep, judgeAll, noEvidence, rejected } from '../src/rules/judges/judgement.ts';
import { bodySummary, type Observed } from '../src/rules/judges/observed.ts';
import { isWarning } from '../src/rules/judges/assign-team-warning.ts';
import { listKindId } from '../src/target/profile.ts';

function anyResourceId(ctx: CheckContext): string {
  const id = ctx.profile.mutableResources[0]?.id;
  precondition(id, 'the target profile lists no resource');
  return id;
}

/** DateRange values that are not "two dates separated by `/`" (§2.1). */
const NOT_DATE_RANGES = [
  'not-a-range',
  '2026-01-01',
  '2026-02-30/2026-03-01',
  '2026-01-01/2026-13-01',
  '2026-01-01/2026-01-05/2026-02-01',
  '01/02/2026',
  '',
];

/** Bodies that are not JSON (§4: every operation takes a JSON request body). */
const NOT_JSON = ['{"kind_id": ', 'kind_id=1', '[]{}'];

const DATE_RANGE_OPERATIONS = ['resources.show-teams', 'resources.show-activity-rates'] as const;

/**
 * Each malformed shape sent once, to the read operations in turn: both reads
 * take the same DateRange, and `errors.prop.malformed-date-range-rejected`
 * draws shapes for every operation that takes one.
 */
const MALFORMED_READS = NOT_DATE_RANGES.map((range, i) => ({
  range,
  operation: DATE_RANGE_OPERATIONS[i % DATE_RANGE_OPERATIONS.length] ?? 'resources.show-teams',
}));

/** The steps drivers of this group tag their requests with, which their judges read. */
const STEP = {
  forgedToken: 'a forged next_token',
  malformedRange: 'show-teams with a date_range that is not one',
  notJson: 'a body that is not JSON',
  noCredentials: 'a request without credentials',
  unknownResource: 'show-teams for an unknown resource_id',
  notJsonBody: (raw: string) => `a body that is not JSON (${JSON.stringify(raw)})`,
  withDateRange: (operation: string, range: string) => `${operation} with date_range ${JSON.stringify(range)}`,
  reversedRange: 'show-teams with a reversed date_range',
  unknownKind: 'resources.list with an unknown kind_id',
  wrongType: 'resources.list with a wrongly typed field',
} as const;

/**
 * Requests the server has reason to refuse, so the rule shows its point when
 * it runs alone: an invalid token or date_range, a body that is not JSON, no
 * credentials, an unknown identifier. Whether they are refused is the
 * business of other rules, so this one does not ask; a 2xx must still be
 * JSON. A list request with a forged next_token needs a kind to list;
 * without one, a read that needs only a resource id (show-teams with a
 * date_range that is not one).
 */
async function provokeRefusals(ctx: CheckContext): Promise<void> {
  const kindId = listKindId(ctx.profile);
  const resourceId = ctx.profile.mutableResources[0]?.id;
  if (kindId) {
    const forged = await ctx.client.post(
      'resources.list',
      listBody({ listKindId: kindId }, { pagination: { limit: 1, next_token: 'dc-forged' } }),
      { step: STEP.forgedToken },
    );
    expectJsonBodyOn2xx(forged, { step: STEP.forgedToken });
  } else if (resourceId) {
    const malformedRange = await ctx.client.post(
      'resources.show-teams',
      { resource_id: resourceId, date_range: 'not-a-range' },
      { step: STEP.malformedRange },
    );
    expectJsonBodyOn2xx(malformedRange, { step: STEP.malformedRange });
  }
  const malformed = await ctx.client.postRaw('resources.list', { text: '{"kind_id": ' }, { step: STEP.notJson });
  expectJsonBodyOn2xx(malformed, { step: STEP.notJson });
  const unknownResource = { resource_id: '1', date_range: '2026-01-01/2026-01-31' };
  const anonymous = await ctx.anonymous.post('resources.show-teams', unknownResource, { step: STEP.noCredentials });
  expectJsonBodyOn2xx(anonymous, { step: STEP.noCredentials });
  const unknown = await ctx.client.post('resources.show-teams', unknownResource, { step: STEP.unknownResource });
  expectJsonBodyOn2xx(unknown, { step: STEP.unknownResource });
}

/** The assign-team warning (§4.3): its status code is not shown, so it may come as a 4xx. */
function isWarningBody(o: Observed): boolean {
  return o.operation === 'resources.assign-team' && isWarning(o.body);
}

/** Names an error answer: what answered, and to which request. */
function errorAnswerPlace(o: Observed): string {
  const answered = `${o.operation} answered ${o.status}`;
  return o.step === o.operation ? answered : `${answered} (to ${o.step})`;
}

export default defineRuleGroup({
  section: '§7',
  title: 'Errors and request format',
  rules: [
    rule({
      id: 'errors.message-present',
      traffic: TRAFFIC.errorAnswers,
      clause: '§7',
      quote: 'The error response body contains a message describing the problem.',
      level: 'MUST',
      judges: 'error answers of the run',
      async drive(ctx) {
        await provokeRefusals(ctx);
        // This rule runs after all the others: its judge reads every 4xx the run received, kept
        // as recorded (src/runner/error-answers.ts). How many there were is recorded here.
        const seen = ctx.errorAnswers();
        const byStatus: Record<string, number> = {};
        for (const a of seen.kept)
          byStatus[a.exchange.response.status] = (byStatus[a.exchange.response.status] ?? 0) + 1;
        ctx.observe('4xx answers of the run', seen.kept.length + seen.withMessageNotKept + seen.withoutMessageNotKept);
        ctx.observe('4xx answers kept, by status', byStatus);
        if (seen.withMessageNotKept + seen.withoutMessageNotKept > 0) {
          ctx.observe('4xx answers counted past the kept ones', {
            withMessage: seen.withMessageNotKept,
            withoutMessage: seen.withoutMessageNotKept,
          });
        }
      },
      judge(log) {
        // A §4.3 warning body is a documented answer whose status is open, not an error; a 429 says
        // the request was not processed (its answer is not shown, §8).
        const answers = log.filter((o) => o.status >= 400 && o.status < 500 && o.status !== 429 && !isWarningBody(o));
        if (answers.length === 0) return noEvidence('no request of the run was answered with a 4xx');
        const silent = answers.filter((o) => recordedErrorMessage(o.text) === undefined);
        const message = `must contain a message describing the problem (${silent.length} of ${answers.length} error answers have none)`;
        return silent.slice(0, 20).map((o) => ({
          where: errorAnswerPlace(o),
          message,
          expected: '{"message": "..."} (or problem details)',
          actual: bodySummary(o) || '(empty)',
        }));
      },
    }),
    rule({
      id: 'errors.malformed-json-rejected',
      clause: '§4',
      quote:
        'All operations: method POST, path `{base_url}/api/directory/<operation>`, request header `Content-Type: application/json`, JSON request body.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        for (const raw of NOT_JSON) {
          await ctx.client.postRaw('resources.list', { text: raw }, { retry: 'judged', step: STEP.notJsonBody(raw) });
        }
      },
      judge: (log) =>
        judgeAll(
          NOT_JSON.map((raw) => {
            const o = firstWithStep(log, STEP.notJsonBody(raw));
            return o ? rejected(o) : noEvidence(`no ${STEP.notJsonBody(raw)} was sent`);
          }),
        ),
    }),
    rule({
      id: 'errors.invalid-date-range-rejected',
      clause: '§2.1 DateRange',
      quote: '| DateRange | string made of two dates separated by `/`: `<start_date>/<end_date>` |',
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const resourceId = anyResourceId(ctx);
        for (const { range, operation } of MALFORMED_READS) {
          await ctx.client.post(
            operation,
            { resource_id: resourceId, date_range: range },
            { retry: 'judged', step: STEP.withDateRange(operation, range) },
          );
        }
      },
      judge: (log) =>
        judgeAll(
          MALFORMED_READS.map(({ range, operation }) => {
            const step = STEP.withDateRange(operation, range);
            const o = firstWithStep(log, step);
            return o ? rejected(o) : noEvidence(`no ${step} was sent`);
          }),
        ),
    }),
    rule({
      id: 'errors.reversed-date-range',
      clause: '§2.1 DateRange',
      quote: '| DateRange | string made of two dates separated by `/`: `<start_date>/<end_date>` |',
      open: 'a DateRange is two dates; whether its end may precede its start is not said',
      level: 'OBSERVED',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const res = await ctx.client.post(
          'resources.show-teams',
          { resource_id: anyResourceId(ctx), date_range: '2026-03-10/2026-03-01' },
          { step: STEP.reversedRange },
        );
        ctx.observe('status of show-teams with a reversed date_range', res.status);
      },
      // Whatever the answer, it is the server's choice where the spec is open: recorded above.
      judge: (log) => (firstWithStep(log, STEP.reversedRange) ? [] : noEvidence(`no ${STEP.reversedRange} was sent`)),
    }),
    rule({
      id: 'errors.status-codes',
      clause: '§7',
      quote:
        'Structure of the error body beyond the message, and status codes for authentication, permission, unknown identifier and validation failures: not shown.',
      level: 'OBSERVED',
      needs: ['listKind'],
      async drive(ctx) {
        const unknownKind = await ctx.client.post(
          'resources.list',
          { kind_id: '1', pagination: { limit: 1, next_token: null } },
          { step: STEP.unknownKind },
        );
        ctx.observe('status of resources.list with an unknown kind_id', unknownKind.status);
        const wrongType = await ctx.client.postRaw(
          'resources.list',
          { json: { ...listBody(ctx, { pagination: { limit: 1, next_token: null } }), with_teams: 'yes' } },
          { step: STEP.wrongType },
        );
        ctx.observe('status of resources.list with a wrongly typed field', wrongType.status);
        const unknownResource = await ctx.client.post(
          'resources.show-teams',
          { resource_id: '1', date_range: '2026-01-01/2026-01-31' },
          { step: STEP.unknownResource },
        );
        ctx.observe('status of show-teams for an unknown resource_id', unknownResource.status);
      },
      // Every status is the server's choice where the spec is open: recorded above.
      judge(log) {
        const missing = [STEP.unknownKind, STEP.wrongType, STEP.unknownResource].filter(
          (step) => !firstWithStep(log, step),
        );
        return missing.length === 0 ? [] : noEvidence(`not sent: ${missing.join(', ')}`);
      },
    }),
  ],
});
