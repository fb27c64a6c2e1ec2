/**
 * The fault catalogue: named deviations, each breaking one documented rule.
 * `startReferenceServer({ faults: [name] })` turns a fault on; operation code
 * asks `ctx.faults.has(name)` at the one place the fault lives. Which rule of
 * the suite must catch each one, and where, is the mutation run's business
 * (src/mutation/fault-catches.ts): the server knows nothing of the suite.
 */
export interface Fault {
  /** What the faulty server does. */
  description: string;
  /** The clause of docs/spec.md it breaks. */
  clause: string;
}

export const FAULTS = {
  // §4.9 pagination
  'pagination-no-trailing-empty-page': {
    clause: '§4.9 rule 4',
    description: 'The last full page of an exact-multiple collection has next_token null.',
  },
  'pagination-repeats-last-item': {
    clause: '§4.9 rules 1-3',
    description: 'Off by one: each next page starts again with the last resource of the previous page.',
  },
  'pagination-later-pages-drop-orders': {
    clause: '§4.9 rules 1-3',
    description:
      'Explicit orders are dropped on the pages a next_token asks for: they list the default order from the place of the last resource there, so a walk with orders repeats and misses resources.',
  },
  'pagination-orders-change-accepted': {
    clause: '§4.9 rule 5',
    description: 'Tokens are not bound to orders: a next page with other orders is served.',
  },
  'pagination-filters-change-accepted': {
    clause: '§4.9 rule 5',
    description: 'Tokens are not bound to filters: a next page with other filters is served.',
  },
  'pagination-offset-token': {
    clause: '§4.9 rule 6',
    description: 'Tokens are an unsigned base64 offset, so a hand-built {"offset":n} is accepted.',
  },
  'pagination-malformed-token-first-page': {
    clause: '§4.9 rule 6',
    description: 'A token with characters outside base64 is treated as null (first page) instead of 422.',
  },
  'pagination-limit-null-pages': {
    clause: '§4.9 limit',
    description: 'limit null still pages, 5 resources at a time.',
  },
  'pagination-keyset-without-id': {
    clause: '§4.9 rule 7',
    description: 'With orders, the cursor keeps only the sort value: resources that tie with the last one are skipped.',
  },
  'pagination-keyset-first-order-only': {
    clause: '§4.9 rule 7',
    description:
      'With several orders, the cursor keeps only the first sort value: resources that tie with the last one on the first attribute are skipped.',
  },
  'pagination-envelope-without-next-token': {
    clause: '§4.8 Response',
    description: 'The last page omits next_token instead of sending null (the field is required).',
  },
  'pagination-limit-exceeded': {
    clause: '§4.8 Response; §4.9',
    description: 'Off by one: every page holds limit + 1 resources.',
  },
  'pagination-token-mac-prefix-accepted': {
    clause: '§4.9 rule 6',
    description: 'The signature of a next_token is compared as a prefix: a token cut short is still accepted.',
  },
  'pagination-text-filter-change-accepted': {
    clause: '§4.9 rule 5',
    description: 'Tokens are bound to the resource.ids filters and the orders, not to resource.text filters.',
  },
  'list-ids-filter-after-paging': {
    clause: '§4.9 rules 1-3',
    description:
      'The resource.ids filter is applied to each page after it is cut from the whole kind: pages come back short or empty mid-way, and iteration stops early.',
  },
  'pagination-invalid-limit-accepted': {
    clause: '§4.9 table',
    description: 'A limit that is not an integer ("10", true, 2.5) is served as limit null.',
  },
  'list-filters-first-only': {
    clause: '§4.8 filters',
    description: 'Of several filters, only the first is applied.',
  },
  'list-ids-filter-ignored': {
    clause: '§4.8 Filter shapes',
    description: 'The resource.ids filter is ignored.',
  },
  'errors-400-without-message': {
    clause: '§7',
    description: 'A 400 answer carries the field it is about but no message.',
  },
  'errors-404-without-message': {
    clause: '§7',
    description: 'A 404 answer (unknown identifier) carries no message.',
  },
  'errors-401-without-message': {
    clause: '§7',
    description: 'A 401 answer (missing or unknown credentials) carries no message.',
  },
  'pagination-422-without-message': {
    clause: '§7',
    description: 'The 422 for an invalid next_token has an empty JSON body.',
  },
  // §4.8 list
  'list-total-count-of-page': {
    clause: '§4.8 Response',
    description: 'total_count counts the page, not the filtered set.',
  },
  'list-total-count-always': {
    clause: '§4.8 Response',
    description: 'total_count is sent even when with_total_count is false.',
  },
  'list-kind-id-optional': {
    clause: '§4.8 Request body',
    description: 'A list request without kind_id lists every resource instead of being rejected.',
  },
  'list-includes-other-kinds': {
    clause: '§4.8',
    description: 'Every list starts with one resource of another kind.',
  },
  'list-orders-descending': {
    clause: '§4.8 Order shape',
    description: 'direction asc sorts descending.',
  },
  'list-at-date-past-2038-refused': {
    clause: '§4.8 at_date',
    description: 'An at_date past 2038-01-19 is refused (400): the date is kept as a signed 32-bit count of seconds.',
  },
  'list-roles-repeated-resource-listed-twice': {
    clause: '§4.6',
    description: 'A resource named twice in resource_ids has its associations listed twice.',
  },
  'list-roles-unknown-role-empties': {
    clause: '§4.6 Request body',
    description: 'A role of no one among the role_ids makes list-roles answer an empty list.',
  },
  'show-teams-unknown-team-empties': {
    clause: '§4.5',
    description: 'A team of no one among team_ids makes show-teams answer an empty list.',
  },
  'show-teams-team-named-twice-listed-twice': {
    clause: '§4.5',
    description: 'A team named twice in team_ids has its assignations shown twice.',
  },
  'list-text-filter-like-wildcards': {
    clause: '§4.8 Filter shapes',
    description:
      'starts_with is a SQL LIKE without escaping: an underscore in the value matches any one character, a percent sign any run.',
  },
  'list-ids-filter-repeat-listed-twice': {
    clause: '§4.8 Filter shapes',
    description: 'An id the resource.ids filter names twice lists its resource twice (a join on the list as given).',
  },
  'list-ids-filter-lists-other-kinds': {
    clause: '§4.8',
    description: 'With a resource.ids filter the kind is not applied: ids of another kind among them are listed too.',
  },
  'list-ids-filter-unknown-id-empties': {
    clause: '§4.8 Filter shapes',
    description: 'An id of no resource among those of a resource.ids filter makes the filter list nothing.',
  },
  'list-text-filter-ignored': {
    clause: '§4.8 Filter shapes',
    description: 'The resource.text filter is ignored.',
  },
  'list-attributes-ignored': {
    clause: '§4.8 attributes',
    description: 'Requested attributes are never returned.',
  },
  'list-with-teams-ignored': {
    clause: '§4.8 with_teams',
    description: 'with_teams adds nothing.',
  },
  'list-with-relations-ignored': {
    clause: '§4.8 with_relations',
    description: 'with_relations adds nothing.',
  },
  'list-with-relations-null-rejected': {
    clause: '§4.8 Request body',
    description: 'with_relations null (documented as boolean or null) is refused.',
  },
  'list-resource-without-picture': {
    clause: '§2.2',
    description: 'Resources lack the picture field.',
  },
  'list-later-pages-without-picture': {
    clause: '§2.2',
    description: 'Resources on the pages a next_token asks for lack the picture field.',
  },
  'list-later-pages-other-kinds': {
    clause: '§4.8',
    description: 'Each page a next_token asks for starts with a resource of another kind.',
  },
  'list-later-pages-ignore-ids-filter': {
    clause: '§4.8 Filter shapes',
    description:
      'The resource.ids filter is applied to the first page only; the pages a next_token asks for list the whole kind from there.',
  },
  'list-ids-filter-assumes-sorted': {
    clause: '§4.8 Filter shapes',
    description:
      'The resource.ids filter finds ids by a binary search over the list as given, as if it came sorted: ids sent in another order are lost.',
  },
  'list-later-pages-drop-attributes': {
    clause: '§2.2 attributes; §4.8 attributes',
    description: 'Requested attributes are returned on the first page only.',
  },
  'list-attributes-first-only': {
    clause: '§2.2 attributes; §4.8 attributes',
    description: 'Only the first of the requested attributes is returned.',
  },
  'list-later-pages-without-teams': {
    clause: '§4.8 with_teams',
    description: 'with_teams adds teams on the first page only.',
  },
  'list-later-pages-without-relations': {
    clause: '§4.8 with_relations',
    description: 'with_relations adds relations on the first page only.',
  },
  'list-later-pages-text-filter-ignored': {
    clause: '§4.8 Filter shapes',
    description: 'The resource.text filter is applied to the first page only.',
  },
  'list-later-pages-unordered': {
    clause: '§4.8 Order shape',
    description: 'With orders, the pages a next_token asks for come in reverse order within the page.',
  },
  'list-total-count-later-pages-remaining': {
    clause: '§4.8 Response',
    description:
      'On the pages a next_token asks for, total_count counts the resources that remain, not the filtered set.',
  },
  'list-total-count-later-pages-always': {
    clause: '§4.8 Response',
    description: 'The pages a next_token asks for carry total_count even when with_total_count is not true.',
  },
  'pagination-later-pages-limit-exceeded': {
    clause: '§4.8 Response; §4.9',
    description: 'Off by one on the pages a next_token asks for: they hold limit + 1 resources.',
  },
  'pagination-later-envelope-token-number': {
    clause: '§4.8 Response',
    description: 'On the pages a next_token asks for, next_token is a number.',
  },
  'list-limit-null-capped-1000': {
    clause: '§4.9 table; §8 Page size',
    description: 'limit null returns at most 1,000 resources (and next_token null).',
  },
  'list-total-count-capped-1000': { clause: '§4.8 Response', description: 'total_count never exceeds 1,000.' },
  'pagination-stops-after-1000': {
    clause: '§4.9 rules 1-3',
    description: 'next_token is null once 1,000 resources have been served: walks end early.',
  },
  // §4.8 list: faults that live only beside another input (list.prop.pairwise-combinations finds them)
  'list-total-count-dropped-beside-orders': {
    clause: '§4.8 Response',
    description: 'with_total_count true beside orders: total_count and total_count_approximate are left out.',
  },
  'list-total-count-dropped-beside-text-filter': {
    clause: '§4.8 Response',
    description:
      'with_total_count true beside a resource.text filter: total_count and total_count_approximate are left out.',
  },
  'list-with-teams-ignored-beside-text-filter': {
    clause: '§4.8 with_teams',
    description: 'with_teams true beside a resource.text filter adds nothing (the text search skips the team join).',
  },
  'list-with-relations-ignored-beside-text-filter': {
    clause: '§4.8 with_relations',
    description: 'with_relations true beside a resource.text filter adds nothing.',
  },
  'list-ids-filter-ignored-when-approximate': {
    clause: '§4.8 Filter shapes',
    description:
      'counting_mode approximate: the resource.ids filter is ignored (the approximate path reads the whole kind).',
  },
  'list-attributes-dropped-with-teams': {
    clause: '§2.2 attributes; §4.8 attributes',
    description: 'with_teams true: the requested attributes are left out (the team join replaces them).',
  },
  'list-with-relations-ignored-beside-orders': {
    clause: '§4.8 with_relations',
    description: 'with_relations true beside orders adds nothing.',
  },
  'list-with-relations-null-as-filter': {
    clause: '§4.8',
    description:
      'with_relations null beside a resource.ids filter is read as a condition: only resources without relations are listed.',
  },
  'list-ids-filter-capped-100': {
    clause: '§4.8 Filter shapes',
    description: 'Only the first 100 ids of a resource.ids filter count.',
  },
  // §4.6 list-roles
  'list-roles-envelope': {
    clause: '§4.6; §4.9 rule 8',
    description: 'list-roles is wrapped in a pagination envelope.',
  },
  'list-roles-ignores-role-filter': {
    clause: '§4.6 Request body',
    description: 'role_ids is ignored.',
  },
  'list-roles-restricted-sees-hidden': {
    clause: '§4.6; §5',
    description: 'The restricted key sees the associations of roles hidden from it.',
  },
  'list-roles-first-resource-only': {
    clause: '§4.6 Request body',
    description: 'Only the first of several resource_ids is answered.',
  },
  'list-roles-first-role-only': {
    clause: '§4.6 Request body',
    description: 'Only the first of several role_ids filters; the others are dropped.',
  },
  'list-roles-team-ids-as-string': {
    clause: '§2.3',
    description: 'Explicit team lists are sent as a comma-joined string.',
  },
  // §4.1 revoke-roles
  'revoke-star-on-explicit-list-ignored': {
    clause: '§4.1 rule 5',
    description: 'Revoking `*` from a role held on an explicit list of teams changes nothing.',
  },
  'revoke-star-first-resource-only': {
    clause: '§4.1 rule 5',
    description:
      'With team_ids `*` and several resource_ids, only the first resource named loses the teams: the TeamList form and several resources together.',
  },
  'revoke-explicit-list-first-resource-only': {
    clause: '§4.1',
    description:
      'With team_ids an explicit list and several resource_ids, only the first resource named has its teams narrowed: the TeamList form and several resources together.',
  },
  'revoke-first-resource-only': {
    clause: '§4.1 Request body',
    description: 'Only the first of several resource_ids loses the roles.',
  },
  'revoke-first-role-only': {
    clause: '§4.1 Request body',
    description: 'Only the first of several role_ids is revoked.',
  },
  'revoke-first-team-only': {
    clause: '§4.1 Request body',
    description: 'Only the first of several team_ids is revoked.',
  },
  'revoke-star-remembered': {
    clause: '§4.1 rule 6',
    description:
      'A list made from `*` is recomputed from every enabled team at the next revocation: the teams revoked before come back.',
  },
  'revoke-star-removes-role': {
    clause: '§4.1 rule 5',
    description: 'team_ids "*" removes the role entirely.',
  },
  'revoke-last-teams-removes-role': {
    clause: '§4.1 rule 5',
    description: 'Revoking the last listed teams removes the role entirely.',
  },
  'revoke-star-list-includes-disabled': {
    clause: '§4.1 rule 6',
    description: 'The explicit list made from "*" includes disabled teams.',
  },
  'revoke-defining-role-removed': {
    clause: '§4.1 rule 2',
    description: 'The kind-defining role can be removed entirely.',
  },
  'revoke-empty-team-ids-as-star': {
    clause: '§4.1 rule 7',
    description: 'An empty team_ids is treated as "*" instead of rejected.',
  },
  'revoke-omitted-team-ids-as-star': {
    clause: '§4.1 rule 4',
    description: 'Omitted team_ids revokes every team but keeps the role.',
  },
  'revoke-absent-team-clears-list': {
    clause: '§4.1 rule 3',
    description: 'Revoking a team the role does not have empties its team list.',
  },
  'revoke-star-twice-removes-role': {
    clause: '§4.1 rule 3',
    description: 'Revoking "*" from a role already on no team removes the role: revoking twice differs from once.',
  },
  'revoke-string-team-ids-as-star': {
    clause: '§4.1 rule 7',
    description: 'A team_ids string other than "*" (such as "all") is treated as "*" instead of rejected.',
  },
  'revoke-returns-200': {
    clause: '§4.1 Response',
    description: 'revoke-roles answers 200 with a body instead of 204.',
  },
  'revoke-non-role-kind-500': {
    clause: '§4.1 rule 1',
    description: 'Revoking for a kind without roles crashes with a 500.',
  },
  'revoke-narrow-drops-all': {
    clause: '§4.1',
    description: 'Revoking one listed team drops every team.',
  },
  // §5 auth and redaction
  'auth-anonymous-accepted': {
    clause: '§5',
    description: 'Requests without credentials are served as the full key.',
  },
  'auth-any-bearer-accepted': {
    clause: '§5',
    description: 'Any Bearer key is accepted.',
  },
  'redaction-leaks-external-id': {
    clause: '§5; §2.1',
    description: 'external_id of team assignations is shown to the restricted key.',
  },
  'redaction-for-every-caller': {
    clause: '§5',
    description: 'contract_number is redacted for every caller, the fully permitted key included.',
  },
  'redaction-wrong-marker': {
    clause: '§2.1 Redacted value',
    description: 'The Redacted marker of team assignations is {"redacted": true}.',
  },
  // §7 and request format
  'malformed-date-500': {
    clause: '§2.1 DateRange',
    description: 'show-teams crashes (500) on a date_range starting on 30 or 31 February.',
  },
  'mutations-ignore-malformed-date-range': {
    clause: '§2.1 DateRange',
    description:
      'assign-team, assign-activity-rate and unassign-activity-rate answer success to a date_range that is not a DateRange, changing nothing.',
  },
  'malformed-json-500': {
    clause: '§4',
    description: 'A body that is not JSON gets a 500.',
  },
  // §4.3 / §4.5 teams
  'assign-team-warning-applied': {
    clause: '§4.3',
    description: 'A conflict warning is returned but the assignment is applied anyway.',
  },
  'assign-team-warning-without-details': {
    clause: '§4.3 Responses',
    description: 'The conflict warning has no details object.',
  },
  'assign-team-aware-ignored': {
    clause: '§4.3',
    description: 'warning_aware true still gets the warning and nothing is applied.',
  },
  'show-teams-head-filter-ignored': {
    clause: '§4.5',
    description: 'The head filter of show-teams is ignored.',
  },
  'show-teams-team-filter-ignored': {
    clause: '§4.5',
    description: 'The team_ids filter of show-teams is ignored.',
  },
  'show-teams-first-team-filter-only': {
    clause: '§4.5',
    description: 'Only the first of several team_ids filters show-teams.',
  },
  'show-teams-head-as-string': {
    clause: '§2.4',
    description: 'head is sent as the string "true"/"false".',
  },
  // §4.2 / §4.4 / §4.7 / §8 activity rates
  'activity-rate-overlap': {
    clause: '§4.2',
    description: 'A new rate is added without trimming the periods it overlaps.',
  },
  'activity-rate-assign-200': {
    clause: '§4.2 Response',
    description: 'assign-activity-rate answers 200 with a body instead of 204.',
  },
  'rates-average-rate-unrounded': {
    clause: '§2.5',
    description: 'average_rate is shown with a fraction (x.25).',
  },
  'rates-assign-ignores-flags': {
    clause: '§4.2; §4.4',
    description: 'assign-activity-rate ignores trainee and paid_hourly.',
  },
  'rates-assign-ignores-apprentice': {
    clause: '§4.2; §4.4',
    description: 'assign-activity-rate ignores apprentice: every assigned period shows apprentice false.',
  },
  'rates-default-pattern-monday-only': {
    clause: '§4.2 activity_rate_patterns',
    description: 'Without activity_rate_patterns, the whole week is put on Monday.',
  },
  'rates-unassign-first-period-only': {
    clause: '§4.7',
    description: 'An unassignment over several periods trims only the first of them.',
  },
  'rates-pattern-later-weeks-dropped': {
    clause: '§4.2 activity_rate_patterns',
    description: 'Of a pattern of several weeks, only the first week is kept: the later weeks are dropped.',
  },
  'rates-default-pattern-five-days': {
    clause: '§4.2 activity_rate_patterns',
    description:
      'Without activity_rate_patterns, the rate is spread over five days whatever the work regime: right for a five-day regime only.',
  },
  'rates-non-ascii-external-id-refused': {
    clause: '§4.2 Request body',
    description: 'An external_id holding characters beyond ASCII (accents, ß, CJK, emoji) is refused as invalid.',
  },
  'rates-paid-hourly-ignored-beside-weeks': {
    clause: '§4.2 Request body',
    description: 'paid_hourly is ignored (stored false) when it comes with a pattern of several weeks.',
  },
  'rates-unassign-from-stale-state': {
    clause: '§4.7',
    description:
      'An unassignment right after an assignment starts from a stale copy of the periods, taken before that assignment: the assignment is lost around the unassigned range (a second step on an earlier step’s data).',
  },
  'activity-rate-unassign-noop': {
    clause: '§4.7',
    description: 'unassign-activity-rate answers 204 and changes nothing.',
  },
  'activity-rate-external-id-not-unique': {
    clause: '§8 Uniqueness',
    description: 'A contract external_id already used by another resource is accepted.',
  },
  'revoke-lost-update': {
    clause: '§4.1 Response',
    description:
      'revoke-roles reads the roles, waits a moment, then writes what it computed from them: of two revocations on one resource that overlap in time, the second overwrites the first, and both answer 204.',
  },
  'rates-lost-update': {
    clause: '§4.2 Response',
    description:
      'assign-activity-rate reads the periods, waits a moment, then writes what it computed from them: of two assignments on one resource that overlap in time, the second overwrites the first, and both answer 204.',
  },
  'rates-concurrent-assignments-dropped': {
    clause: '§4.2 Response',
    description:
      'assign-activity-rate waits a moment before writing: two assignments on one resource that overlap in time are taken as a conflict and neither is written, both answered 204.',
  },
  'teams-contract-number-html-escaped': {
    clause: '§4.3 Request body',
    description: 'show-teams answers a contract_number escaped for HTML (&, <, >, quotes as entities), not as written.',
  },
  'teams-regrouping-non-ascii-mangled': {
    clause: '§4.3 Request body',
    description:
      'A regrouping holding characters beyond ASCII is stored with each of them replaced by a question mark, and shown so.',
  },
  'teams-external-id-dropped-without-regrouping': {
    clause: '§4.3 Request body',
    description:
      'An assignment that sends an external_id but leaves the regrouping out drops the external id (shown empty): the two are written together.',
  },
  'teams-warning-applied-without-contract-number': {
    clause: '§4.3 warning_aware',
    description:
      'A conflicting assignment without warning_aware true and without a contract_number is answered with the warning but done all the same.',
  },
  'teams-non-ascii-contract-number-refused': {
    clause: '§4.3 Request body',
    description: 'A contract_number holding characters beyond ASCII is refused (422) as invalid.',
  },
  'rates-unassign-clock-change-day-kept': {
    clause: '§4.7',
    description:
      'An unassignment whose range starts or ends on a day clocks change in Paris leaves that day covered (days stepped as 24 hours from local midnight).',
  },
  'rates-unassign-month-start-kept': {
    clause: '§4.7',
    description:
      'An unassignment whose range starts on the first day of a month leaves that day covered: an off-by-one where a month starts.',
  },
  'teams-lost-update': {
    clause: '§4.3',
    description:
      'assign-team reads the assignations, waits a moment, then writes what it computed from them: of two head assignments of different teams on disjoint ranges that overlap in time, the second overwrites the first, and both answer success.',
  },
  'teams-concurrent-assignments-dropped': {
    clause: '§4.3',
    description:
      'assign-team waits a moment before writing: two assignments on one resource that overlap in time are taken as a conflict and neither is written, both answered success.',
  },
  'teams-stale-read': {
    clause: '§4.3',
    description:
      'show-teams serves what a resource held before its last assignment to the first read after it however late, and until reads of it pause for the stale window of the server timing: a read right after the assignment does not show it, a read a moment later does.',
  },
  'rates-stale-read': {
    clause: '§4.2; §4.7',
    description:
      'show-activity-rates serves what a resource held before its last assignment or unassignment to the first read after it however late, and until reads of it pause for the stale window of the server timing: a read right after a write does not show it, a read a moment later does.',
  },
  'roles-stale-read': {
    clause: '§4.1',
    description:
      'list-roles serves what a resource held before its last revocation to the first read after it however late, and until reads of it pause for the stale window of the server timing: a read right after the revocation does not show it, a read a moment later does.',
  },
  'invalid-limit-accepted-one-in-ten': {
    clause: '§4.9 table; §7',
    description:
      "One invalid pagination.limit in ten (every tenth the server receives, from a request the server's seed places) is accepted and lists the whole collection, as if it were null; the others are refused.",
  },
  'invalid-team-ids-as-star-one-in-five': {
    clause: '§2.1 TeamList; §4.1',
    description:
      "One revoke-roles request in five whose team_ids is no TeamList (a string other than `*`, a list holding what is not a Snowflake; every fifth, from a request the server's seed places) is taken as `*` and revokes every team; the others are refused.",
  },
  'show-rates-without-work-regime': {
    clause: '§2.5',
    description: 'Activity rate periods lack work_regime.',
  },
  'show-teams-head-ignored-beside-team-ids': {
    clause: '§4.5',
    description: 'show-teams ignores head when team_ids is also given.',
  },
  'show-teams-team-ids-ignored-beside-head': {
    clause: '§4.5',
    description: 'show-teams ignores team_ids when head is also given.',
  },
  'show-teams-range-ignored-beside-several-teams': {
    clause: '§4.5',
    description: 'show-teams drops the date_range filter when team_ids holds several ids.',
  },
  'show-teams-disabled-team-refused': {
    clause: '§4.5',
    description: 'show-teams refuses (400) a team_ids that names a disabled team.',
  },
  'list-roles-first-resource-only-beside-several-roles': {
    clause: '§4.6',
    description:
      'list-roles answers only the first resource’s associations when several resource_ids and several role_ids are given.',
  },
  'list-roles-role-order-matters': {
    clause: '§4.6',
    description: 'list-roles leaves out the last role of role_ids when they are not in ascending order.',
  },
  'list-roles-resource-ids-capped': {
    clause: '§4.6 Request body',
    description:
      'list-roles reads only the first 50 of resource_ids: the associations of the resources named after them are left out of a long list.',
  },
  'show-rates-end-overlap-dropped-on-month-start': {
    clause: '§4.4',
    description:
      'show-activity-rates leaves out a period across the end of date_range when the range starts on a month’s first day.',
  },
  'rates-unassign-inside-removes-period': {
    clause: '§4.7',
    description:
      'An unassignment whose range lies inside one period removes that whole period, not only the unassigned days.',
  },
  'rates-assign-adjacent-merges': {
    clause: '§4.2',
    description:
      'An assignment that starts the day after a period ends extends that period over its range instead: the earlier rate is kept and the assigned one lost.',
  },
  'rates-exact-range-updates-rate-only': {
    clause: '§4.2',
    description:
      'An assignment over exactly the range of a period the resource holds is taken for an update of that period: only its average rate changes, its work regime, flags and pattern stay as they were.',
  },
  'rates-exact-range-keeps-pattern': {
    clause: '§4.2',
    description:
      'An assignment over exactly the range of a period the resource holds updates that period but keeps its weekly pattern: the pattern sent is lost.',
  },
  'rates-unassign-trims-next-period': {
    clause: '§4.7',
    description:
      "An unassignment whose range ends the day before a period starts takes that period's first day too: an off-by-one only a period right after the range shows.",
  },
  'rates-unassign-exact-range-kept': {
    clause: '§4.7',
    description:
      'An unassignment over exactly the range of a period keeps that period: the server carves the periods across or around the range, and one over exactly the range is neither.',
  },
  'teams-reassign-keeps-regrouping': {
    clause: '§4.3',
    description:
      'Assigning a team again (same head flag) over days it is already assigned keeps the regrouping of the assignation it had, not the one sent.',
  },
  'revoke-second-narrowing-restores': {
    clause: '§4.1 rules 3-6',
    description:
      'Narrowing an explicit team list again starts from the list before its first narrowing: the teams the first narrowing revoked come back.',
  },
  'revoke-disabled-teams-from-star-ignored': {
    clause: '§4.1 rule 6',
    description:
      'Revoking only disabled teams from a role held on `*` leaves it on `*` (nothing enabled to revoke), where it must become the explicit list of the enabled teams: a disabled team and a role on `*` together.',
  },
  'revoke-mixed-absent-team-ignored': {
    clause: '§4.1 rule 3',
    description:
      'A team_ids list naming a team the role does not hold beside teams it holds changes nothing: a held and an absent team together.',
  },
  'revoke-several-roles-share-first-list': {
    clause: '§4.1 Request body',
    description:
      'With several role_ids and an explicit team list, every role named on a resource is left with the teams the first of them is left with: several roles and an explicit list together.',
  },
} as const satisfies Record<string, Fault>;

export type FaultName = keyof typeof FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** Every fault's name, in the catalogue's order. */
export const FAULT_NAMES: readonly FaultName[] = Object.keys(FAULTS).filter(isFaultName);
