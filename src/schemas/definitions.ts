/**
 * JSON Schemas of spec §2 (types and records) and of the §4 request bodies.
 * Faithful to the spec: required fields are those its tables list; records
 * allow additional properties (the spec does not forbid them); keys inside
 * `attributes` are not shown, so not constrained.
 */
// The helpers keep literal types (`const` type parameters), so FromSchema can
// read the TypeScript type of each definition off the schema itself.
const ref = <const N extends string>(name: N) => ({ $ref: `#/definitions/${name}` }) as const;
const arrayOf = <const I>(items: I) => ({ type: 'array', items }) as const;
const orRedacted = <const S>(schema: S) => ({ anyOf: [schema, ref('Redacted')] }) as const;
const record = <const R extends readonly string[], const P>(required: R, properties: P) =>
  ({ type: 'object', required, properties }) as const;
const WEEKDAY_NUMBER = { type: 'number' } as const;

export const DEFINITIONS = {
  Snowflake: { type: 'string', pattern: '^[0-9]{1,20}$' },
  LocalDate: { type: 'string', format: 'local-date' },
  DateRange: { type: 'string', format: 'date-range' },
  Duration: { type: 'string', format: 'iso-duration' },
  TeamList: { anyOf: [{ const: '*' }, arrayOf(ref('Snowflake'))] },
  Label: record(['en', 'fr', 'de'], { en: { type: 'string' }, fr: { type: 'string' }, de: { type: 'string' } }),
  Redacted: {
    type: 'object',
    required: ['redacted'],
    properties: { redacted: { const: 'forbidden' } },
    additionalProperties: false,
  },
  Picture: record(['shape', 'initial', 'url'], {
    shape: { type: 'string' },
    initial: { type: 'string' },
    url: { type: 'string' },
  }),
  Resource: record(['id', 'kind_id', 'label', 'short_label', 'sort_label', 'picture', 'attributes'], {
    id: ref('Snowflake'),
    kind_id: ref('Snowflake'),
    label: { type: 'string' },
    short_label: { type: 'string' },
    sort_label: { type: 'string' },
    picture: ref('Picture'),
    attributes: { type: 'object' },
    teams: arrayOf(
      record(['id', 'head', 'name'], { id: ref('Snowflake'), head: { type: 'boolean' }, name: { type: 'string' } }),
    ),
    relations: arrayOf(
      record(['relation_type_id', 'related_to', 'related_by'], {
        relation_type_id: ref('Snowflake'),
        related_to: ref('Snowflake'),
        related_by: arrayOf(ref('Snowflake')),
      }),
    ),
  }),
  RoleAssociation: record(['resource_id', 'role_id', 'is_assigned', 'team_ids'], {
    resource_id: ref('Snowflake'),
    role_id: ref('Snowflake'),
    is_assigned: { type: 'boolean' },
    team_ids: ref('TeamList'),
  }),
  TeamAssignation: record(['team', 'head', 'date_range', 'regrouping', 'contract_number', 'external_id'], {
    team: record(['id', 'name'], { id: ref('Snowflake'), name: { type: 'string' } }),
    head: { type: 'boolean' },
    date_range: ref('DateRange'),
    regrouping: orRedacted({ type: 'string' }),
    contract_number: orRedacted({ type: 'string' }),
    external_id: orRedacted({ type: 'string' }),
  }),
  ActivityRatePattern: record(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], {
    monday: WEEKDAY_NUMBER,
    tuesday: WEEKDAY_NUMBER,
    wednesday: WEEKDAY_NUMBER,
    thursday: WEEKDAY_NUMBER,
    friday: WEEKDAY_NUMBER,
    saturday: WEEKDAY_NUMBER,
    sunday: WEEKDAY_NUMBER,
  }),
  WorkRegime: record(['id', 'label', 'weekly_worked_hours', 'weekly_worked_days'], {
    id: ref('Snowflake'),
    label: ref('Label'),
    weekly_worked_hours: ref('Duration'),
    weekly_worked_days: { type: 'integer' },
  }),
  ActivityRatePeriod: record(
    [
      'average_rate',
      'date_range',
      'activity_rate_patterns',
      'work_regime',
      'paid_hourly',
      'apprentice',
      'trainee',
      'indemnity_enabled',
      'compensation_enabled',
    ],
    {
      average_rate: { type: 'number' },
      date_range: ref('DateRange'),
      activity_rate_patterns: arrayOf(ref('ActivityRatePattern')),
      work_regime: ref('WorkRegime'),
      paid_hourly: { type: 'boolean' },
      apprentice: { type: 'boolean' },
      trainee: { type: 'boolean' },
      indemnity_enabled: orRedacted({ type: 'boolean' }),
      compensation_enabled: orRedacted({ type: 'boolean' }),
    },
  ),
  // The envelope only: each Resource is checked by its own rule (list.resource-shape).
  ListEnvelope: record(['data', 'next_token'], {
    data: arrayOf({
      type: 'object',
      required: ['id'],
      properties: { id: ref('Snowflake') },
      additionalProperties: true,
    }),
    next_token: { type: ['string', 'null'] },
    total_count: { type: 'integer' },
    total_count_approximate: { type: 'boolean' },
  }),
  AssignTeamWarning: record(['warning_type', 'description', 'details', 'required_action'], {
    warning_type: { type: 'string' },
    description: { type: 'string' },
    details: record(['modifications', 'deletions'], { modifications: { type: 'array' }, deletions: { type: 'array' } }),
    required_action: { type: 'string' },
  }),
  ErrorBody: { type: 'object' },
  RoleAssociationList: arrayOf(ref('RoleAssociation')),
  TeamAssignationList: arrayOf(ref('TeamAssignation')),
  ActivityRatePeriodList: arrayOf(ref('ActivityRatePeriod')),
  RevokeRolesRequest: record(['resource_ids', 'role_ids'], {
    resource_ids: arrayOf(ref('Snowflake')),
    role_ids: arrayOf(ref('Snowflake')),
    team_ids: { anyOf: [{ const: '*' }, { ...arrayOf(ref('Snowflake')), minItems: 1 }] },
  }),
  AssignActivityRateRequest: record(['resource_id', 'date_range'], {
    resource_id: ref('Snowflake'),
    date_range: ref('DateRange'),
    average_rate: { type: 'number' },
    work_regime_id: { anyOf: [ref('Snowflake'), { type: 'null' }] },
    indemnity_enabled: { type: 'boolean' },
    compensation_enabled: { type: 'boolean' },
    trainee: { type: 'boolean' },
    apprentice: { type: 'boolean' },
    paid_hourly: { type: 'boolean' },
    activity_rate_patterns: arrayOf(ref('ActivityRatePattern')),
    external_id: { type: 'string' },
  }),
  AssignTeamRequest: record(['resource_id', 'team_id', 'date_range'], {
    resource_id: ref('Snowflake'),
    team_id: ref('Snowflake'),
    head: { type: 'boolean' },
    date_range: ref('DateRange'),
    regrouping: { type: 'string' },
    contract_number: { type: 'string' },
    external_id: { type: 'string' },
    warning_aware: { type: 'boolean' },
  }),
  ListRequest: record(['kind_id'], {
    kind_id: ref('Snowflake'),
    at_date: ref('LocalDate'),
    attributes: arrayOf({ type: 'string' }),
    with_teams: { type: 'boolean' },
    with_relations: { type: ['boolean', 'null'] },
    with_total_count: { type: 'boolean' },
    filters: arrayOf(record(['key', 'value'], { key: { type: 'string' }, value: {} })),
    orders: arrayOf(
      record(['key', 'direction', 'attribute'], {
        key: { type: 'string' },
        direction: { type: 'string' },
        attribute: { type: 'string' },
      }),
    ),
    pagination: record(['limit', 'next_token'], {
      limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      next_token: { type: ['string', 'null'] },
    }),
    counting_mode: { enum: ['strict', 'approximate'] },
  }),
  ShowTeamsRequest: record([], {
    resource_id: ref('Snowflake'),
    team_ids: arrayOf(ref('Snowflake')),
    head: { type: 'boolean' },
    date_range: ref('DateRange'),
  }),
  ShowActivityRatesRequest: record([], { resource_id: ref('Snowflake'), date_range: ref('DateRange') }),
  ListRolesRequest: record([], { resource_ids: arrayOf(ref('Snowflake')), role_ids: arrayOf(ref('Snowflake')) }),
  UnassignActivityRateRequest: record([], { resource_id: ref('Snowflake'), date_range: ref('DateRange') }),
} as const;
