/**
 * The fault catalogue: named deviations, each breaking exactly one documented
 * rule. `startReferenceServer({ faults: [name] })` turns a fault on; operation
 * code asks `ctx.faults.has(name)` at the one place the fault lives. The
 * mutation run (test/mutation) proves the suite catches each one by `rule`.
 */
export interface Fault {
  /** What the faulty server does. */
  description: string;
  /** The clause of docs/spec.md it breaks. */
  clause: string;
  /** The rule id of the suite that must catch it. */
  rule: string;
}

export const FAULTS = {
  // §4.9 pagination
  'pagination-no-trailing-empty-page': {
    clause: '§4.9 rule 4',
    rule: 'pagination.exact-multiple-empty-page',
    description: 'The last full page of an exact-multiple collection has next_token null.',
  },
  'pagination-repeats-last-item': {
    clause: '§4.9 rules 1-3',
    rule: 'pagination.each-resource-once',
    description: 'Off by one: each next page starts again with the last resource of the previous page.',
  },
  'pagination-orders-change-accepted': {
    clause: '§4.9 rule 5',
    rule: 'pagination.changed-orders-422',
    description: 'Tokens are not bound to orders: a next page with other orders is served.',
  },
  'pagination-filters-change-accepted': {
    clause: '§4.9 rule 5',
    rule: 'pagination.changed-filters-422',
    description: 'Tokens are not bound to filters: a next page with other filters is served.',
  },
  'pagination-offset-token': {
    clause: '§4.9 rule 6',
    rule: 'pagination.hand-built-token-422',
    description: 'Tokens are an unsigned base64 offset, so a hand-built {"offset":n} is accepted.',
  },
  'pagination-malformed-token-first-page': {
    clause: '§4.9 rule 6',
    rule: 'pagination.malformed-token-422',
    description: 'A token with characters outside base64 is treated as null (first page) instead of 422.',
  },
  'pagination-limit-null-pages': {
    clause: '§4.9 limit',
    rule: 'pagination.limit-null-whole-collection',
    description: 'limit null still pages, 5 resources at a time.',
  },
  'pagination-keyset-without-id': {
    clause: '§4.9 rule 7',
    rule: 'pagination.stable-with-orders',
    description: 'With orders, the cursor keeps only the sort value: resources that tie with the last one are skipped.',
  },
  'pagination-envelope-without-next-token': {
    clause: '§4.8 Response',
    rule: 'pagination.envelope',
    description: 'The last page omits next_token instead of sending null (the field is required).',
  },
  'pagination-limit-exceeded': {
    clause: '§4.8 Response; §4.9',
    rule: 'pagination.limit-respected',
    description: 'Off by one: every page holds limit + 1 resources.',
  },
  'pagination-invalid-limit-accepted': {
    clause: '§4.9 table',
    rule: 'errors.prop.invalid-limit-rejected',
    description: 'A limit that is not an integer ("10", true, 2.5) is served as limit null.',
  },
  'list-ids-filter-ignored': {
    clause: '§4.8 Filter shapes',
    rule: 'list.ids-filter',
    description: 'The resource.ids filter is ignored.',
  },
  'pagination-422-without-message': {
    clause: '§7',
    rule: 'errors.message-present',
    description: 'The 422 for an invalid next_token has an empty JSON body.',
  },
  // §4.8 list
  'list-total-count-of-page': {
    clause: '§4.8 Response',
    rule: 'list.total-count-of-filtered-set',
    description: 'total_count counts the page, not the filtered set.',
  },
  'list-total-count-always': {
    clause: '§4.8 Response',
    rule: 'list.total-count-only-when-asked',
    description: 'total_count is sent even when with_total_count is false.',
  },
  'list-kind-id-optional': {
    clause: '§4.8 Request body',
    rule: 'list.kind-id-required',
    description: 'A list request without kind_id lists every resource instead of being rejected.',
  },
  'list-includes-other-kinds': {
    clause: '§4.8',
    rule: 'list.resources-of-the-kind',
    description: 'Every list starts with one resource of another kind.',
  },
  'list-orders-descending': {
    clause: '§4.8 Order shape',
    rule: 'list.orders-ascending',
    description: 'direction asc sorts descending.',
  },
  'list-text-filter-ignored': {
    clause: '§4.8 Filter shapes',
    rule: 'list.text-filter-starts-with',
    description: 'The resource.text filter is ignored.',
  },
  'list-attributes-ignored': {
    clause: '§4.8 attributes',
    rule: 'list.attributes-returned',
    description: 'Requested attributes are never returned.',
  },
  'list-with-teams-ignored': {
    clause: '§4.8 with_teams',
    rule: 'list.with-teams',
    description: 'with_teams adds nothing.',
  },
  'list-with-relations-ignored': {
    clause: '§4.8 with_relations',
    rule: 'list.with-relations',
    description: 'with_relations adds nothing.',
  },
  'list-with-relations-null-rejected': {
    clause: '§4.8 Request body',
    rule: 'list.documented-values-accepted',
    description: 'with_relations null (documented as boolean or null) is refused.',
  },
  'list-resource-without-picture': {
    clause: '§2.2',
    rule: 'list.resource-shape',
    description: 'Resources lack the picture field.',
  },
  // §4.6 list-roles
  'list-roles-envelope': {
    clause: '§4.6; §4.9 rule 8',
    rule: 'list-roles.plain-array',
    description: 'list-roles is wrapped in a pagination envelope.',
  },
  'list-roles-ignores-role-filter': {
    clause: '§4.6 Request body',
    rule: 'list-roles.filters-respected',
    description: 'role_ids is ignored.',
  },
  'list-roles-restricted-sees-hidden': {
    clause: '§4.6; §5',
    rule: 'list-roles.restricted-sees-subset',
    description: 'The restricted key sees the associations of roles hidden from it.',
  },
  'list-roles-team-ids-as-string': {
    clause: '§2.3',
    rule: 'list-roles.association-shape',
    description: 'Explicit team lists are sent as a comma-joined string.',
  },
  // §4.1 revoke-roles
  'revoke-star-removes-role': {
    clause: '§4.1 rule 5',
    rule: 'revoke-roles.star-leaves-no-team',
    description: 'team_ids "*" removes the role entirely.',
  },
  'revoke-last-teams-removes-role': {
    clause: '§4.1 rule 5',
    rule: 'revoke-roles.last-teams-like-star',
    description: 'Revoking the last listed teams removes the role entirely.',
  },
  'revoke-star-list-includes-disabled': {
    clause: '§4.1 rule 6',
    rule: 'revoke-roles.star-to-explicit-enabled',
    description: 'The explicit list made from "*" includes disabled teams.',
  },
  'revoke-defining-role-removed': {
    clause: '§4.1 rule 2',
    rule: 'revoke-roles.defining-role-kept',
    description: 'The kind-defining role can be removed entirely.',
  },
  'revoke-empty-team-ids-as-star': {
    clause: '§4.1 rule 7',
    rule: 'revoke-roles.empty-team-ids-rejected',
    description: 'An empty team_ids is treated as "*" instead of rejected.',
  },
  'revoke-omitted-team-ids-as-star': {
    clause: '§4.1 rule 4',
    rule: 'revoke-roles.omitted-team-ids-removes-role',
    description: 'Omitted team_ids revokes every team but keeps the role.',
  },
  'revoke-absent-team-clears-list': {
    clause: '§4.1 rule 3',
    rule: 'revoke-roles.absent-role-no-change',
    description: 'Revoking a team the role does not have empties its team list.',
  },
  'revoke-star-twice-removes-role': {
    clause: '§4.1 rule 3',
    rule: 'revoke-roles.prop.idempotent',
    description: 'Revoking "*" from a role already on no team removes the role: revoking twice differs from once.',
  },
  'revoke-returns-200': {
    clause: '§4.1 Response',
    rule: 'revoke-roles.no-content',
    description: 'revoke-roles answers 200 with a body instead of 204.',
  },
  'revoke-non-role-kind-500': {
    clause: '§4.1 rule 1',
    rule: 'revoke-roles.kind-must-support-roles',
    description: 'Revoking for a kind without roles crashes with a 500.',
  },
  'revoke-narrow-drops-all': {
    clause: '§4.1',
    rule: 'revoke-roles.narrows-explicit-list',
    description: 'Revoking one listed team drops every team.',
  },
  // §5 auth and redaction
  'auth-anonymous-accepted': {
    clause: '§5',
    rule: 'auth.missing-credentials-rejected',
    description: 'Requests without credentials are served as the full key.',
  },
  'auth-any-bearer-accepted': {
    clause: '§5',
    rule: 'auth.unknown-key-rejected',
    description: 'Any Bearer key is accepted.',
  },
  'redaction-leaks-external-id': {
    clause: '§5; §2.1',
    rule: 'auth.restricted-fields-redacted',
    description: 'external_id of team assignations is shown to the restricted key.',
  },
  'redaction-wrong-marker': {
    clause: '§2.1 Redacted value',
    rule: 'auth.redacted-marker-shape',
    description: 'The Redacted marker of team assignations is {"redacted": true}.',
  },
  // §7 and request format
  'malformed-date-500': {
    clause: '§2.1 DateRange',
    rule: 'errors.invalid-date-range-rejected',
    description: 'show-teams crashes (500) on a date_range starting on 30 or 31 February.',
  },
  'mutations-ignore-malformed-date-range': {
    clause: '§2.1 DateRange',
    rule: 'errors.prop.malformed-date-range-rejected',
    description:
      'assign-team, assign-activity-rate and unassign-activity-rate answer success to a date_range that is not a DateRange, changing nothing.',
  },
  'malformed-json-500': {
    clause: '§4',
    rule: 'errors.malformed-json-rejected',
    description: 'A body that is not JSON gets a 500.',
  },
  // §4.3 / §4.5 teams
  'assign-team-warning-applied': {
    clause: '§4.3',
    rule: 'assign-team.warning-changes-nothing',
    description: 'A conflict warning is returned but the assignment is applied anyway.',
  },
  'assign-team-warning-without-details': {
    clause: '§4.3 Responses',
    rule: 'assign-team.warning-shape',
    description: 'The conflict warning has no details object.',
  },
  'assign-team-aware-ignored': {
    clause: '§4.3',
    rule: 'assign-team.warning-aware-applies',
    description: 'warning_aware true still gets the warning and nothing is applied.',
  },
  'show-teams-head-filter-ignored': {
    clause: '§4.5',
    rule: 'show-teams.head-filter',
    description: 'The head filter of show-teams is ignored.',
  },
  'show-teams-team-filter-ignored': {
    clause: '§4.5',
    rule: 'show-teams.team-filter',
    description: 'The team_ids filter of show-teams is ignored.',
  },
  'show-teams-head-as-string': {
    clause: '§2.4',
    rule: 'show-teams.response-shape',
    description: 'head is sent as the string "true"/"false".',
  },
  // §4.2 / §4.4 / §4.7 / §8 activity rates
  'activity-rate-overlap': {
    clause: '§4.2',
    rule: 'activity-rates.no-overlap',
    description: 'A new rate is added without trimming the periods it overlaps.',
  },
  'activity-rate-assign-200': {
    clause: '§4.2 Response',
    rule: 'activity-rates.assign-no-content',
    description: 'assign-activity-rate answers 200 with a body instead of 204.',
  },
  'rates-average-rate-unrounded': {
    clause: '§2.5',
    rule: 'show-activity-rates.average-rate-integer',
    description: 'average_rate is shown with a fraction (x.25).',
  },
  'rates-assign-ignores-flags': {
    clause: '§4.2; §4.4',
    rule: 'activity-rates.assigned-rate-shown',
    description: 'assign-activity-rate ignores trainee and paid_hourly.',
  },
  'rates-default-pattern-monday-only': {
    clause: '§4.2 activity_rate_patterns',
    rule: 'activity-rates.default-pattern-even',
    description: 'Without activity_rate_patterns, the whole week is put on Monday.',
  },
  'activity-rate-unassign-noop': {
    clause: '§4.7',
    rule: 'activity-rates.unassign-removes-coverage',
    description: 'unassign-activity-rate answers 204 and changes nothing.',
  },
  'activity-rate-external-id-not-unique': {
    clause: '§8 Uniqueness',
    rule: 'activity-rates.external-id-unique',
    description: 'A contract external_id already used by another resource is accepted.',
  },
  'show-rates-without-work-regime': {
    clause: '§2.5',
    rule: 'show-activity-rates.response-shape',
    description: 'Activity rate periods lack work_regime.',
  },
} as const satisfies Record<string, Fault>;

export type FaultName = keyof typeof FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
