/**
 * §5 Authentication and permissions, §2.1 Redacted value, §9 versioning.
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { precondition } from '../src/rules/assertions.ts';
import { recordsOf } from '../src/rules/json-values.ts';
import { isRedacted, RATE_FIELDS, TEAM_FIELDS } from '../src/rules/judges/redaction.ts';
import { listBody, listPage } from '../src/rules/steps/list.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  judgeAll,
  judgeEach,
  noEvidence,
  rejected,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { field, type Credential, type Observed } from '../src/rules/judges/observed.ts';
import { validateSchema } from '../src/schemas/index.ts';
import type { Violation } from '../src/core/types.ts';

const WIDE = '2000-01-01/2099-12-31';

function firstPageBody(ctx: CheckContext<'listKind'>) {
  return listBody(ctx, { pagination: { limit: 1, next_token: null } });
}

type Records = Record<string, unknown>[];

/** The steps drivers of this group tag their requests with, which their judges read. */
const STEP = {
  noCredentials: 'a request without credentials',
  unknownKey: 'a request with an unknown API key',
  basic: 'a request with unknown Basic credentials',
  restrictedTeams: 'show-teams with the restricted key',
  restrictedRates: 'show-activity-rates with the restricted key',
  mainTeams: 'show-teams with the main key',
  mainRates: 'show-activity-rates with the main key',
  noVersion: 'a request without Service-Version',
  unknownVersion: 'a request with an unknown Service-Version',
  withVersion: 'the same request with Service-Version',
} as const;

/**
 * Reads the profile resources' team assignations and activity rates with the
 * restricted key until one has both: that resource, or undefined when none
 * has (or a read was refused: its judge says what the refusal means).
 */
async function readWithRestrictedKey(
  ctx: CheckContext<'restrictedKey'>,
): Promise<{ id: string; teams: Records; rates: Records } | undefined> {
  for (const r of ctx.profile.mutableResources) {
    const body = { resource_id: r.id, date_range: WIDE };
    const t = await ctx.restricted.post('resources.show-teams', body, { step: STEP.restrictedTeams });
    const a = await ctx.restricted.post('resources.show-activity-rates', body, { step: STEP.restrictedRates });
    if (t.status !== 200 || a.status !== 200) return undefined;
    const teams = recordsOf(t.json);
    const rates = recordsOf(a.json);
    if (teams.length > 0 && rates.length > 0) return { id: r.id, teams, rates };
  }
  return undefined;
}

/** The exchanges tagged `step` that carried `credential`: one that carried another says nothing here. */
function sentWith(log: readonly Observed[], step: string, credential: Credential): Observed[] {
  return withStep(log, step).filter((o) => o.credential === credential);
}

/**
 * The resource the restricted key's reads settled on (the first whose team
 * assignations and activity rates both hold records), with what it was shown;
 * or the judgement that stops there (a read refused, no such resource).
 */
function restrictedView(
  log: readonly Observed[],
): { id: string; teams: Records; rates: Records } | { judgement: Judgement } {
  const teams = sentWith(log, STEP.restrictedTeams, 'restricted');
  const rates = sentWith(log, STEP.restrictedRates, 'restricted');
  const answers = judgeAll([...teams, ...rates].map((o) => accepted(o, { status: 200 })));
  if (!isClean(answers)) return { judgement: answers };
  for (const t of teams) {
    const id = field(t.request, 'resource_id');
    const a = rates.find((o) => field(o.request, 'resource_id') === id);
    if (typeof id !== 'string' || !a) continue;
    const shown = { id, teams: recordsOf(t.body), rates: recordsOf(a.body) };
    if (shown.teams.length > 0 && shown.rates.length > 0) return shown;
  }
  return { judgement: noEvidence('no profile resource has both team assignations and activity rates') };
}

/** The named fields of each team assignation and activity rate period, as `<label>[i].<field>`. */
function fieldsOf(
  shown: { teams: Records; rates: Records },
  labels: { teams: string; rates: string },
  fields: { teams: readonly string[]; rates: readonly string[] },
): { where: string; value: unknown }[] {
  return [
    ...shown.teams.flatMap((t, i) => fields.teams.map((f) => ({ where: `${labels.teams}[${i}].${f}`, value: t[f] }))),
    ...shown.rates.flatMap((r, i) => fields.rates.map((f) => ({ where: `${labels.rates}[${i}].${f}`, value: r[f] }))),
  ];
}

/** Markers in a restricted view: the redactable fields whose value is an object. */
function markersIn(shown: { teams: Records; rates: Records }): { where: string; value: unknown }[] {
  return fieldsOf(
    shown,
    { teams: 'show-teams', rates: 'show-activity-rates' },
    { teams: TEAM_FIELDS, rates: RATE_FIELDS },
  ).filter((f) => typeof f.value === 'object' && f.value !== null);
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
      async drive(ctx) {
        const res = await ctx.anonymous.post('resources.list', firstPageBody(ctx), {
          retry: 'judged',
          step: STEP.noCredentials,
        });
        ctx.observe('status without credentials', res.status);
      },
      judge: (log) =>
        judgeEach(sentWith(log, STEP.noCredentials, 'none'), 'no request without credentials was sent', (o) =>
          rejected(o, { credentialsUnderTest: true }),
        ),
    }),
    rule({
      id: 'auth.unknown-key-rejected',
      clause: '§5',
      quote: 'The request carries an `Authorization` header with the scheme `Bearer` and an API key value `<API_KEY>`.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        const res = await ctx.anonymous.post('resources.list', firstPageBody(ctx), {
          retry: 'judged',
          headers: { authorization: 'Bearer dc-not-a-real-key-0000000000' },
          step: STEP.unknownKey,
        });
        ctx.observe('status with an unknown key', res.status);
      },
      // Neither the main nor the restricted key: what the request carried is some other credential.
      judge: (log) =>
        judgeEach(sentWith(log, STEP.unknownKey, 'other'), 'no request with an unknown API key was sent', (o) =>
          rejected(o, { credentialsUnderTest: true }),
        ),
    }),
    rule({
      id: 'auth.redacted-marker-shape',
      traffic: TRAFFIC.markersShaped,
      clause: '§2.1 Redacted value; §4.4; §4.5',
      quote:
        '| Redacted value | object with field `redacted` whose value is the string `forbidden`; it stands in place of a field value that the caller is not allowed to view |',
      level: 'MUST',
      needs: ['restrictedKey', 'roleKindResource'],
      async drive(ctx) {
        const shown = await readWithRestrictedKey(ctx);
        if (shown) ctx.observe('redacted markers seen by the restricted key', markersIn(shown).length);
      },
      // A redactable field holds its plain value or exactly the Redacted value.
      judge(log) {
        const shown = restrictedView(log);
        if ('judgement' in shown) return shown.judgement;
        const markers = markersIn(shown);
        if (markers.length === 0)
          return noEvidence('the restricted key sees no field replaced by a marker: no shape to judge');
        return markers.flatMap((m) => validateSchema('Redacted', m.value, m.where));
      },
    }),
    rule({
      id: 'auth.restricted-fields-redacted',
      traffic: TRAFFIC.restrictedFieldsRedacted,
      clause: '§5; §2.1',
      quote: 'individual fields are replaced by a Redacted value (section 2.1) when the caller may not view them',
      level: 'MUST',
      needs: ['restrictedKey', 'roleKindResource'],
      async drive(ctx) {
        precondition(
          (ctx.profile.restrictedRedactedFields ?? []).length > 0,
          'the target profile declares no field the restricted key may not view (restrictedRedactedFields)',
        );
        const shown = await readWithRestrictedKey(ctx);
        if (!shown) return;
        // Redaction is per caller: the main key (which the profile gives every permission) reads the same.
        const body = { resource_id: shown.id, date_range: WIDE };
        await ctx.client.post('resources.show-teams', body, { step: STEP.mainTeams });
        await ctx.client.post('resources.show-activity-rates', body, { step: STEP.mainRates });
      },
      judge(log, profile) {
        const redacted = profile.restrictedRedactedFields ?? [];
        if (redacted.length === 0)
          return noEvidence(
            'the target profile declares no field the restricted key may not view (restrictedRedactedFields)',
          );
        const fields = {
          teams: TEAM_FIELDS.filter((f) => redacted.includes(f)),
          rates: RATE_FIELDS.filter((f) => redacted.includes(f)),
        };
        const shown = restrictedView(log);
        if ('judgement' in shown) return shown.judgement;
        const { id } = shown;
        const restricted = fieldsOf(shown, { teams: `show-teams(${id})`, rates: `show-activity-rates(${id})` }, fields);
        if (restricted.length === 0)
          return noEvidence('the resource shows none of the fields the restricted key may not view');
        const leaked = restricted.flatMap(({ where, value }): Violation[] =>
          isRedacted(value)
            ? []
            : [
                {
                  where,
                  message: 'must be the Redacted value for a caller that may not view it',
                  expected: { redacted: 'forbidden' },
                  actual: value,
                },
              ],
        );
        const ofResource = (o: Observed): boolean => field(o.request, 'resource_id') === id;
        const teams = sentWith(log, STEP.mainTeams, 'main').find(ofResource);
        const rates = sentWith(log, STEP.mainRates, 'main').find(ofResource);
        if (!teams || !rates) return judgeAll([leaked, noEvidence(`no read of resource ${id} with the main key`)]);
        const answers = judgeAll([accepted(teams, { status: 200 }), accepted(rates, { status: 200 })]);
        if (!isClean(answers)) return judgeAll([leaked, answers]);
        const plain = fieldsOf(
          { teams: recordsOf(teams.body), rates: recordsOf(rates.body) },
          { teams: `show-teams(${id}) with the main key`, rates: `show-activity-rates(${id}) with the main key` },
          fields,
        );
        const hidden = plain.flatMap(({ where, value }): Violation[] =>
          isRedacted(value)
            ? [
                {
                  where,
                  message: 'must show the value to a caller that may view it: only callers that may not get the marker',
                  expected: '(the value)',
                  actual: value,
                },
              ]
            : [],
        );
        return [...leaked, ...hidden];
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
      async drive(ctx) {
        const res = await ctx.anonymous.post('resources.list', firstPageBody(ctx), {
          headers: { authorization: `Basic ${Buffer.from('user:dc-not-a-real-key').toString('base64')}` },
          step: STEP.basic,
        });
        ctx.observe('status with unknown Basic credentials', res.status);
      },
      // Whatever the answer, it is the server's choice where the spec is open: recorded above.
      judge: (log) => (firstWithStep(log, STEP.basic) ? [] : noEvidence('no request with Basic credentials was sent')),
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
      async drive(ctx) {
        const absent = await ctx.client.post('resources.list', firstPageBody(ctx), {
          headers: { 'service-version': null },
          step: STEP.noVersion,
        });
        ctx.observe('status without Service-Version', absent.status);
        const unknown = await ctx.client.post('resources.list', firstPageBody(ctx), {
          headers: { 'service-version': '1999.01.01' },
          step: STEP.unknownVersion,
        });
        ctx.observe('status with an unknown Service-Version', unknown.status);
        // With the header, the same request is an ordinary valid one.
        await listPage(ctx, firstPageBody(ctx), { step: STEP.withVersion });
      },
      // Both answers are the server's choice where the spec is open: recorded above.
      judge: (log) =>
        firstWithStep(log, STEP.noVersion) && firstWithStep(log, STEP.unknownVersion)
          ? []
          : noEvidence('no request without or with an unknown Service-Version was sent'),
    }),
  ],
});
