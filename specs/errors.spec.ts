/**
 * §7 Errors, and the request format every operation shares (§4, §2.1).
 */
import type { Exchange } from '../src/core/exchange.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import {
  expectJsonBodyOn2xx,
  expectRejected,
  failAll,
  precondition,
  recordedErrorMessage,
} from '../src/rules/assertions.ts';
import { listBody } from '../src/rules/steps/list.ts';
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

/**
 * Requests the server has reason to refuse, so the rule shows its point when
 * it runs alone. Whether they are refused is the business of other rules, so
 * this one does not ask; a 2xx must still be JSON. A list request with a
 * forged next_token needs a kind to list; without one, a read that needs only
 * a resource id (show-teams with a date_range that is not one).
 */
async function provokeRefusals(ctx: CheckContext): Promise<void> {
  const kindId = listKindId(ctx.profile);
  const resourceId = ctx.profile.mutableResources[0]?.id;
  if (kindId) {
    const forged = await ctx.client.post(
      'resources.list',
      listBody({ listKindId: kindId }, { pagination: { limit: 1, next_token: 'dc-forged' } }),
    );
    expectJsonBodyOn2xx(forged, { step: 'a forged next_token' });
  } else if (resourceId) {
    const malformedRange = await ctx.client.post('resources.show-teams', {
      resource_id: resourceId,
      date_range: 'not-a-range',
    });
    expectJsonBodyOn2xx(malformedRange, { step: 'show-teams with a date_range that is not one' });
  }
  const malformed = await ctx.client.postRaw('resources.list', { text: '{"kind_id": ' });
  expectJsonBodyOn2xx(malformed, { step: 'a body that is not JSON' });
}

/** The assign-team warning (§4.3): its status code is not shown, so it may come as a 4xx. */
function isWarningBody(exchange: Exchange): boolean {
  if (exchange.operation !== 'resources.assign-team' || !exchange.response) return false;
  try {
    const body: unknown = JSON.parse(exchange.response.body);
    return typeof body === 'object' && body !== null && 'warning_type' in body;
  } catch {
    return false;
  }
}

export default defineRuleGroup({
  section: '§7',
  title: 'Errors and request format',
  rules: [
    rule({
      id: 'errors.message-present',
      clause: '§7',
      quote: 'The error response body contains a message describing the problem.',
      level: 'MUST',
      judges: 'error answers of the run',
      async check(ctx) {
        await provokeRefusals(ctx);
        // Every 4xx the run received, from every rule (this one runs after all the others), those
        // kept and those only counted. A §4.3 warning body is a documented answer whose status is
        // open, not an error; a body cut short cannot be read.
        const seen = ctx.errorAnswers();
        const answers = seen.kept.filter((a) => !a.exchange.response.truncated && !isWarningBody(a.exchange));
        const judged = answers.length + seen.withMessageNotKept + seen.withoutMessageNotKept;
        precondition(judged > 0, 'no request of the run was answered with a 4xx');
        const byStatus: Record<string, number> = {};
        for (const a of answers) byStatus[a.exchange.response.status] = (byStatus[a.exchange.response.status] ?? 0) + 1;
        ctx.observe('4xx answers judged', judged);
        ctx.observe('4xx answers kept, by status', byStatus);
        const silent = answers.filter((a) => !recordedErrorMessage(a.exchange.response.body));
        const without = silent.length + seen.withoutMessageNotKept;
        const message = `must contain a message describing the problem (${without} of ${judged} error answers have none)`;
        failAll([
          ...silent.slice(0, 20).map(({ ruleId, exchange }) => ({
            where: `${exchange.operation} answered ${exchange.response.status} (to a request of ${ruleId})`,
            message,
            expected: '{"message": "..."} (or problem details)',
            actual: exchange.response.body.slice(0, 300) || '(empty)',
          })),
          ...(seen.withoutMessageNotKept > 0
            ? [
                {
                  where: `${seen.withoutMessageNotKept} 4xx answers past the ${seen.kept.length} kept`,
                  message,
                  expected: 'a message in each',
                  actual: `${seen.withoutMessageNotKept} without one (counted, not kept)`,
                },
              ]
            : []),
        ]);
      },
    }),
    rule({
      id: 'errors.malformed-json-rejected',
      clause: '§4',
      quote:
        'All operations: method POST, path `{base_url}/api/directory/<operation>`, request header `Content-Type: application/json`, JSON request body.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const raw of ['{"kind_id": ', 'kind_id=1', '[]{}']) {
          await expectRejected(() => ctx.client.postRaw('resources.list', { text: raw }, { retry: 'judged' }), {
            step: `a body that is not JSON (${JSON.stringify(raw)})`,
          });
        }
      },
    }),
    rule({
      id: 'errors.invalid-date-range-rejected',
      clause: '§2.1 DateRange',
      quote: '| DateRange | string made of two dates separated by `/`: `<start_date>/<end_date>` |',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = anyResourceId(ctx);
        for (const range of NOT_DATE_RANGES) {
          for (const operation of ['resources.show-teams', 'resources.show-activity-rates'] as const) {
            await expectRejected(
              () => ctx.client.post(operation, { resource_id: resourceId, date_range: range }, { retry: 'judged' }),
              {
                step: `${operation} with date_range ${JSON.stringify(range)}`,
              },
            );
          }
        }
      },
    }),
    rule({
      id: 'errors.reversed-date-range',
      clause: '§2.1 DateRange',
      quote: '| DateRange | string made of two dates separated by `/`: `<start_date>/<end_date>` |',
      open: 'a DateRange is two dates; whether its end may precede its start is not said',
      level: 'OBSERVED',
      needs: ['roleKindResource'],
      async check(ctx) {
        const res = await ctx.client.post('resources.show-teams', {
          resource_id: anyResourceId(ctx),
          date_range: '2026-03-10/2026-03-01',
        });
        ctx.observe('status of show-teams with a reversed date_range', res.status);
      },
    }),
    rule({
      id: 'errors.status-codes',
      clause: '§7',
      quote:
        'Structure of the error body beyond the message, and status codes for authentication, permission, unknown identifier and validation failures: not shown.',
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const unknownKind = await ctx.client.post('resources.list', {
          kind_id: '1',
          pagination: { limit: 1, next_token: null },
        });
        ctx.observe('status of resources.list with an unknown kind_id', unknownKind.status);
        const wrongType = await ctx.client.postRaw('resources.list', {
          json: { ...listBody(ctx, { pagination: { limit: 1, next_token: null } }), with_teams: 'yes' },
        });
        ctx.observe('status of resources.list with a wrongly typed field', wrongType.status);
        const unknownResource = await ctx.client.post('resources.show-teams', {
          resource_id: '1',
          date_range: '2026-01-01/2026-01-31',
        });
        ctx.observe('status of show-teams for an unknown resource_id', unknownResource.status);
      },
    }),
  ],
});
