/**
 * §5 Authentication and permissions, §2.1 Redacted value, §9 versioning.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectEach, expectRejected, expectSuccess, precondition } from '../src/rules/assertions.ts';
import { isRecord, recordsOf } from '../src/rules/json-values.ts';
import { listBody, listPage } from '../src/rules/steps/list.ts';
import { validateSchema } from '../src/schemas/index.ts';

const WIDE = '2000-01-01/2099-12-31';
const TEAM_FIELDS = ['regrouping', 'contract_number', 'external_id'];
const RATE_FIELDS = ['indemnity_enabled', 'compensation_enabled'];

function firstPageBody(ctx: CheckContext<'listKind'>) {
  return listBody(ctx, { pagination: { limit: 1, next_token: null } });
}

/** Some Redacted marker stands in place of the value (its exact shape is auth.redacted-marker-shape's business). */
function isRedacted(v: unknown): boolean {
  return isRecord(v) && 'redacted' in v;
}

type Records = Record<string, unknown>[];

/** A profile resource with team assignations and activity rates, as the restricted key sees them. */
async function resourceWithRecords(
  ctx: CheckContext<'restrictedKey'>,
): Promise<{ id: string; teams: Records; rates: Records }> {
  const restricted = ctx.restricted;
  for (const r of ctx.profile.mutableResources) {
    const body = { resource_id: r.id, date_range: WIDE };
    const t = await restricted.post('resources.show-teams', body);
    expectSuccess(t, { step: 'show-teams with the restricted key', status: 200 });
    const a = await restricted.post('resources.show-activity-rates', body);
    expectSuccess(a, { step: 'show-activity-rates with the restricted key', status: 200 });
    const teams = recordsOf(t.json);
    const rates = recordsOf(a.json);
    if (teams.length > 0 && rates.length > 0) return { id: r.id, teams, rates };
  }
  precondition(false, 'no profile resource has both team assignations and activity rates');
}

export default defineRuleGroup({
  section: '§5',
  title: 'Authentication and permissions',
  rules: [
    rule({
      id: 'auth.missing-credentials-rejected',
      clause: '§5',
      quote: 'The request carries an `Authorization` header with the scheme `Bearer` and an API key value `<API_KEY>`.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const res = await expectRejected(
          () => ctx.anonymous.post('resources.list', firstPageBody(ctx), { retry: 'judged' }),
          {
            step: 'a request without credentials',
            credentialsUnderTest: true,
          },
        );
        ctx.observe('status without credentials', res.status);
      },
    }),
    rule({
      id: 'auth.unknown-key-rejected',
      clause: '§5',
      quote: 'The request carries an `Authorization` header with the scheme `Bearer` and an API key value `<API_KEY>`.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const res = await expectRejected(
          () =>
            ctx.anonymous.post('resources.list', firstPageBody(ctx), {
              retry: 'judged',
              headers: { authorization: 'Bearer dc-not-a-real-key-0000000000' },
            }),
          { step: 'a request with an unknown API key', credentialsUnderTest: true },
        );
        ctx.observe('status with an unknown key', res.status);
      },
    }),
    rule({
      id: 'auth.redacted-marker-shape',
      clause: '§2.1 Redacted value; §4.4; §4.5',
      quote:
        '| Redacted value | object with field `redacted` whose value is the string `forbidden`; it stands in place of a field value that the caller is not allowed to view |',
      level: 'MUST',
      needs: ['restrictedKey', 'roleKindResource'],
      async check(ctx) {
        // A redactable field holds its plain value or exactly the Redacted value.
        const { teams, rates } = await resourceWithRecords(ctx);
        const fields = [
          ...teams.flatMap((t, i) => TEAM_FIELDS.map((f) => ({ where: `show-teams[${i}].${f}`, value: t[f] }))),
          ...rates.flatMap((r, i) =>
            RATE_FIELDS.map((f) => ({ where: `show-activity-rates[${i}].${f}`, value: r[f] })),
          ),
        ];
        const markers = fields.filter((f) => typeof f.value === 'object' && f.value !== null);
        precondition(markers.length > 0, 'the restricted key sees no field replaced by a marker: no shape to judge');
        expectEach(markers, (m) => validateSchema('Redacted', m.value, m.where));
        ctx.observe('redacted markers seen by the restricted key', markers.length);
      },
    }),
    rule({
      id: 'auth.restricted-fields-redacted',
      clause: '§5; §2.1',
      quote: 'individual fields are replaced by a Redacted value (section 2.1) when the caller may not view them',
      level: 'MUST',
      needs: ['restrictedKey', 'roleKindResource'],
      async check(ctx) {
        const fields = ctx.profile.restrictedRedactedFields ?? [];
        precondition(
          fields.length > 0,
          'the target profile declares no field the restricted key may not view (restrictedRedactedFields)',
        );
        const { id, teams, rates } = await resourceWithRecords(ctx);
        const shown = [
          ...teams.flatMap((t, i) =>
            TEAM_FIELDS.filter((f) => fields.includes(f)).map((f) => ({
              where: `show-teams(${id})[${i}].${f}`,
              value: t[f],
            })),
          ),
          ...rates.flatMap((r, i) =>
            RATE_FIELDS.filter((f) => fields.includes(f)).map((f) => ({
              where: `show-activity-rates(${id})[${i}].${f}`,
              value: r[f],
            })),
          ),
        ];
        precondition(shown.length > 0, 'the resource shows none of the fields the restricted key may not view');
        expectEach(shown, ({ where, value }) =>
          isRedacted(value)
            ? undefined
            : {
                where,
                message: 'must be the Redacted value for a caller that may not view it',
                expected: { redacted: 'forbidden' },
                actual: value,
              },
        );
        // Redaction is per caller: the main key (which the profile gives every permission) sees the values.
        const body = { resource_id: id, date_range: WIDE };
        const fullTeams = await ctx.client.post('resources.show-teams', body);
        expectSuccess(fullTeams, { step: 'show-teams with the main key', status: 200 });
        const fullRates = await ctx.client.post('resources.show-activity-rates', body);
        expectSuccess(fullRates, { step: 'show-activity-rates with the main key', status: 200 });
        const plain = [
          ...recordsOf(fullTeams.json).flatMap((t, i) =>
            TEAM_FIELDS.filter((f) => fields.includes(f)).map((f) => ({
              where: `show-teams(${id}) with the main key[${i}].${f}`,
              value: t[f],
            })),
          ),
          ...recordsOf(fullRates.json).flatMap((r, i) =>
            RATE_FIELDS.filter((f) => fields.includes(f)).map((f) => ({
              where: `show-activity-rates(${id}) with the main key[${i}].${f}`,
              value: r[f],
            })),
          ),
        ];
        expectEach(plain, ({ where, value }) =>
          isRedacted(value)
            ? {
                where,
                message: 'must show the value to a caller that may view it: only callers that may not get the marker',
                expected: '(the value)',
                actual: value,
              }
            : undefined,
        );
      },
    }),
    rule({
      id: 'auth.basic-scheme',
      clause: '§5',
      quote: [
        'The interface description also declares a basic authentication scheme as its security requirement.',
        'How credentials are issued, their lifetime, and the permission names: not shown.',
      ],
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const res = await ctx.anonymous.post('resources.list', firstPageBody(ctx), {
          headers: { authorization: `Basic ${Buffer.from('user:dc-not-a-real-key').toString('base64')}` },
        });
        ctx.observe('status with unknown Basic credentials', res.status);
      },
    }),
    rule({
      id: 'versioning.service-version-header',
      clause: '§9',
      quote: [
        'A request carries a version header named `Service-Version` with a `<version>` value.',
        'Behaviour when the version header is absent, and the retirement policy for versions: not shown.',
      ],
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const absent = await ctx.client.post('resources.list', firstPageBody(ctx), {
          headers: { 'service-version': null },
        });
        ctx.observe('status without Service-Version', absent.status);
        const unknown = await ctx.client.post('resources.list', firstPageBody(ctx), {
          headers: { 'service-version': '1999.01.01' },
        });
        ctx.observe('status with an unknown Service-Version', unknown.status);
        // With the header, the same request is an ordinary valid one.
        await listPage(ctx, firstPageBody(ctx));
      },
    }),
  ],
});
