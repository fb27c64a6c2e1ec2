/**
 * Which rule of the suite must catch each fault of the reference server, and
 * where: the violated place (`where`, a part of one violation's `where`) the
 * rule must report. Rules that fail too are named one by one (a property and
 * the example rule of one clause); any other FAIL, and any ERROR, is a
 * check that is too broad or a run that is not clean.
 */
import type { FaultName } from '../reference-server/faults.ts';
import type { RuleId } from '../rules/rule-ids.ts';

export interface Catch {
  /** The rule that must FAIL. */
  rule: RuleId;
  /** A part of the `where` of one of its violations. */
  where: string;
  /** Other rules allowed to fail against this fault, each named. */
  alsoFails?: readonly RuleId[];
  /** Resources the faulty server needs to show the fault (default 120). */
  resources?: number;
}

export const CATCHES: Readonly<Record<FaultName, Catch>> = {
  'pagination-no-trailing-empty-page': {
    rule: 'pagination.exact-multiple-empty-page',
    where: 'limit 2, page 3: response.body.next_token',
    alsoFails: ['pagination.prop.any-limit-once'],
  },
  'pagination-repeats-last-item': { rule: 'pagination.each-resource-once', where: 'page 2' },
  // Shows only in walks with orders, which other rules make: the departure is charged to its owner.
  // The pairwise rows walk with orders too: a walk that misses resources lists fewer than its filters give.
  'pagination-later-pages-drop-orders': {
    rule: 'pagination.each-resource-once',
    where: 'page',
    // The ordered walk of orders-ascending shows pages out of order before a repeat stops it.
    alsoFails: ['list.prop.pairwise-combinations', 'list.orders-ascending'],
  },
  'pagination-orders-change-accepted': {
    rule: 'pagination.changed-orders-422',
    where: 'a next page whose orders were removed: response.status',
    alsoFails: ['pagination.prop.changed-query-422'],
  },
  'pagination-filters-change-accepted': {
    rule: 'pagination.changed-filters-422',
    where: 'a next page whose filters changed: response.status',
    alsoFails: ['pagination.prop.changed-query-422'],
  },
  'pagination-offset-token': {
    rule: 'pagination.hand-built-token-422',
    where: 'a hand-built or altered next_token "eyJvZmZzZXQiOjJ9": response.status',
    alsoFails: ['pagination.prop.tampered-token-422'],
  },
  'pagination-malformed-token-first-page': {
    rule: 'pagination.malformed-token-422',
    where: 'a malformed next_token "%%%": response.status',
    alsoFails: ['pagination.prop.tampered-token-422'],
  },
  'pagination-limit-null-pages': {
    rule: 'pagination.limit-null-whole-collection',
    where: 'the whole collection with limit null: response.body.next_token',
    alsoFails: ['list.counts-agree'],
  },
  'pagination-keyset-without-id': { rule: 'pagination.stable-with-orders', where: 'tied resources, position ' },
  'pagination-keyset-first-order-only': {
    rule: 'list.several-orders-stable',
    where: 'orders on last_name then first_name, limit 2: all pages',
    // A pairwise row with two orders walks past ties too, and misses the same resources.
    alsoFails: ['list.prop.pairwise-combinations'],
  },
  'pagination-envelope-without-next-token': {
    rule: 'pagination.envelope',
    where: 'resources.list with limit null: response.body',
  },
  'pagination-limit-exceeded': { rule: 'pagination.limit-respected', where: 'limit 1, page 1: response.body.data' },
  'pagination-invalid-limit-accepted': {
    rule: 'errors.prop.invalid-limit-rejected',
    where: 'limit "10": response.status',
  },
  'list-ids-filter-ignored': {
    rule: 'list.ids-filter',
    where: 'response.body.data',
    // The walk with both filters lists what the ids filter stops before the list step stops it.
    alsoFails: ['list.filters-all-applied'],
  },
  'list-filters-first-only': { rule: 'list.filters-all-applied', where: 'page 1: response.body.data' },
  'pagination-422-without-message': { rule: 'errors.message-present', where: 'answered 422' },
  'errors-400-without-message': { rule: 'errors.message-present', where: 'answered 400' },
  'errors-404-without-message': { rule: 'errors.message-present', where: 'answered 404' },
  'errors-401-without-message': { rule: 'errors.message-present', where: 'answered 401' },
  'list-total-count-of-page': {
    rule: 'list.total-count-of-filtered-set',
    where: 'response.body.total_count',
    alsoFails: ['list.counts-agree'],
  },
  'list-total-count-always': { rule: 'list.total-count-only-when-asked', where: 'response.body.total_count' },
  'list-kind-id-optional': { rule: 'list.kind-id-required', where: 'a list request without kind_id: response.status' },
  'list-includes-other-kinds': { rule: 'list.resources-of-the-kind', where: 'response.body.data' },
  'list-orders-descending': { rule: 'list.orders-ascending', where: 'page 1, resource ' },
  'list-text-filter-ignored': {
    rule: 'list.text-filter-starts-with',
    where: '.attributes.last_name',
    // Beside an ids filter, an ignored text filter lets through what only the ids match.
    alsoFails: ['list.filters-all-applied'],
  },
  'list-attributes-ignored': { rule: 'list.attributes-returned', where: '.attributes' },
  'list-with-teams-ignored': { rule: 'list.with-teams', where: '.teams' },
  'list-with-relations-ignored': { rule: 'list.with-relations', where: '.relations' },
  'list-with-relations-null-rejected': {
    rule: 'list.documented-values-accepted',
    where: 'resources.list with {"with_relations":null}: response.status',
  },
  'list-resource-without-picture': { rule: 'list.resource-shape', where: 'response.body.data[0]' },
  'list-roles-envelope': { rule: 'list-roles.plain-array', where: 'list-roles of profile resources: response.body' },
  'list-roles-ignores-role-filter': {
    rule: 'list-roles.filters-respected',
    where: 'list-roles of one role (role_ids [',
  },
  'list-roles-restricted-sees-hidden': {
    rule: 'list-roles.restricted-sees-subset',
    where: 'with the restricted key: response.body',
  },
  'list-roles-first-resource-only': {
    rule: 'list-roles.filters-respected',
    where: 'list-roles of several resources in listed order: response.body',
  },
  'list-roles-first-role-only': {
    rule: 'list-roles.filters-respected',
    where: 'list-roles of one role (role_ids [',
  },
  'list-roles-team-ids-as-string': { rule: 'list-roles.association-shape', where: '.team_ids' },
  'revoke-star-removes-role': {
    rule: 'revoke-roles.star-leaves-no-team',
    where: 'list-roles after',
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.concurrent-sequences'],
  },
  'revoke-last-teams-removes-role': {
    rule: 'revoke-roles.last-teams-like-star',
    where: 'list-roles after',
    alsoFails: ['revoke-roles.prop.model-sequences'],
  },
  'revoke-star-list-includes-disabled': {
    rule: 'revoke-roles.star-to-explicit-enabled',
    where: 'list-roles after.team_ids',
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.concurrent-sequences'],
  },
  'revoke-defining-role-removed': { rule: 'revoke-roles.defining-role-kept', where: 'list-roles after' },
  'revoke-empty-team-ids-as-star': {
    rule: 'revoke-roles.empty-team-ids-rejected',
    where: 'an empty team_ids array: response.status',
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.invalid-team-ids-rejected'],
  },
  'revoke-omitted-team-ids-as-star': {
    rule: 'revoke-roles.omitted-team-ids-removes-role',
    where: 'list-roles after',
    alsoFails: ['revoke-roles.prop.model-sequences'],
  },
  'revoke-absent-team-clears-list': {
    rule: 'revoke-roles.absent-role-no-change',
    where: '(roles)',
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.concurrent-sequences'],
  },
  'revoke-star-twice-removes-role': {
    rule: 'revoke-roles.prop.idempotent',
    where: 'list-roles after the second revocation',
    alsoFails: ['revoke-roles.prop.model-sequences'],
  },
  'revoke-returns-200': { rule: 'revoke-roles.no-content', where: 'resources.revoke-roles: response.status' },
  'revoke-non-role-kind-500': {
    rule: 'revoke-roles.kind-must-support-roles',
    where: 'a revocation for a kind without roles: response.status',
  },
  'revoke-star-on-explicit-list-ignored': {
    rule: 'revoke-roles.prop.model-sequences',
    where: 'list-roles after revoke(',
    alsoFails: ['revoke-roles.prop.concurrent-sequences'],
  },
  'revoke-first-resource-only': { rule: 'revoke-roles.omitted-team-ids-removes-role', where: 'list-roles after' },
  'revoke-first-role-only': {
    rule: 'revoke-roles.omitted-team-ids-removes-role',
    where: 'list-roles after',
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.concurrent-sequences'],
  },
  'revoke-first-team-only': {
    rule: 'revoke-roles.narrows-explicit-list',
    where: 'list-roles after.team_ids',
    // Every rule that revokes several teams in one request sees the others kept.
    alsoFails: [
      'revoke-roles.prop.model-sequences',
      'revoke-roles.last-teams-like-star',
      'revoke-roles.star-to-explicit-enabled',
      'revoke-roles.prop.concurrent-sequences',
    ],
  },
  'revoke-star-remembered': {
    rule: 'revoke-roles.star-to-explicit-enabled',
    where: 'list-roles after the second revocation.team_ids',
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.concurrent-sequences'],
  },
  'revoke-narrow-drops-all': {
    rule: 'revoke-roles.narrows-explicit-list',
    where: 'list-roles after.team_ids',
    // The second step of rule 6 narrows an explicit list too.
    alsoFails: [
      'revoke-roles.prop.model-sequences',
      'revoke-roles.star-to-explicit-enabled',
      'revoke-roles.prop.concurrent-sequences',
    ],
  },
  'auth-anonymous-accepted': {
    rule: 'auth.missing-credentials-rejected',
    where: 'a request without credentials: response.status',
  },
  'auth-any-bearer-accepted': {
    rule: 'auth.unknown-key-rejected',
    where: 'a request with an unknown API key: response.status',
  },
  'redaction-leaks-external-id': { rule: 'auth.restricted-fields-redacted', where: '.external_id' },
  'redaction-for-every-caller': { rule: 'auth.restricted-fields-redacted', where: 'with the main key' },
  'redaction-wrong-marker': { rule: 'auth.redacted-marker-shape', where: '.redacted' },
  'malformed-date-500': {
    rule: 'errors.invalid-date-range-rejected',
    where: 'resources.show-teams with date_range "2026-02-30/2026-03-01": response.status',
  },
  'mutations-ignore-malformed-date-range': {
    rule: 'errors.prop.malformed-date-range-rejected',
    where: 'resources.assign-team with date_range "2026-01-01": response.status',
  },
  'malformed-json-500': {
    rule: 'errors.malformed-json-rejected',
    where: 'a body that is not JSON ("kind_id=1"): response.status',
  },
  'assign-team-warning-applied': {
    rule: 'assign-team.warning-changes-nothing',
    where: '(teams)',
    alsoFails: ['activity-rates.prop.model-sequences'],
  },
  'assign-team-warning-without-details': {
    rule: 'assign-team.warning-shape',
    where: 'the conflicting assignment: response.body',
  },
  'assign-team-aware-ignored': {
    rule: 'assign-team.warning-aware-applies',
    where: 'the conflicting assignment: response.body',
    alsoFails: ['activity-rates.prop.model-sequences'],
  },
  'show-teams-head-filter-ignored': { rule: 'show-teams.head-filter', where: '.head' },
  'show-teams-team-filter-ignored': { rule: 'show-teams.team-filter', where: 'show-teams(team_ids [' },
  'show-teams-first-team-filter-only': { rule: 'show-teams.team-filter', where: 'team_ids in listed order' },
  'show-teams-head-as-string': {
    rule: 'show-teams.response-shape',
    where: 'show-teams of a profile resource: response.body[0].head',
  },
  'activity-rate-overlap': {
    rule: 'activity-rates.no-overlap',
    where: 'read right after the assignment',
  },
  'activity-rate-assign-200': {
    rule: 'activity-rates.assign-no-content',
    where: 'the assignment: response.status',
  },
  'rates-average-rate-unrounded': { rule: 'show-activity-rates.average-rate-integer', where: '.average_rate' },
  'rates-assign-ignores-flags': {
    rule: 'activity-rates.assigned-rate-shown',
    where: 'read right after the assignment',
    alsoFails: ['activity-rates.prop.assign-then-show'],
  },
  'rates-default-pattern-monday-only': {
    rule: 'activity-rates.default-pattern-even',
    where: 'activity_rate_patterns[0]',
  },
  'rates-unassign-first-period-only': {
    rule: 'activity-rates.prop.model-sequences',
    where: 'show-activity-rates after unassignRate',
    // It takes an assignment and then an unassignment that reaches past it: a user's 25 runs find it.
    alsoFails: ['activity-rates.prop.concurrent-sequences'],
  },
  'activity-rate-unassign-noop': {
    rule: 'activity-rates.unassign-removes-coverage',
    where: 'read right after the unassignment',
    alsoFails: ['activity-rates.prop.model-sequences', 'activity-rates.prop.concurrent-sequences'],
  },
  'activity-rate-external-id-not-unique': {
    rule: 'activity-rates.external-id-unique',
    where: 'a contract whose external_id another resource already uses: response.status',
  },
  'revoke-lost-update': {
    rule: 'revoke-roles.prop.concurrent-sequences',
    // Only revocations that overlap in time lose one: no serial rule sends two at once on one resource.
    where: 'no serial order of the revocations explains the answers',
  },
  'rates-lost-update': {
    rule: 'activity-rates.prop.concurrent-sequences',
    // Only requests that overlap in time lose an update: no serial rule sends two at once on one resource.
    where: 'no serial order of the commands explains the answers',
  },
  'teams-stale-read': {
    rule: 'assign-team.warning-aware-applies',
    where: 'show-teams after the assignment',
    // The model-based sequences read show-teams right after each assignment too.
    alsoFails: ['activity-rates.prop.model-sequences'],
  },
  'roles-stale-read': {
    rule: 'revoke-roles.star-leaves-no-team',
    where: 'list-roles after.team_ids',
    // Every rule that reads list-roles right after a revocation sees the roles as they were.
    alsoFails: [
      'revoke-roles.omitted-team-ids-removes-role',
      'revoke-roles.last-teams-like-star',
      'revoke-roles.narrows-explicit-list',
      'revoke-roles.star-to-explicit-enabled',
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.prop.idempotent',
      'revoke-roles.prop.model-sequences',
    ],
  },
  // Departures one time in N: found because the rules repeat their judged requests (src/rules/one-in-n.ts).
  'invalid-limit-accepted-one-in-ten': {
    rule: 'errors.prop.invalid-limit-rejected',
    where: 'response.status',
  },
  'invalid-team-ids-as-star-one-in-five': {
    rule: 'revoke-roles.prop.invalid-team-ids-rejected',
    where: 'response.status',
  },
  'rates-stale-read': {
    rule: 'activity-rates.assigned-rate-shown',
    where: 'read right after the assignment',
    // Every rule that reads right after its own write sees it stale: unassign's effect, the property
    // that shows each assignment at once, and the concurrent sequences' reads after their branches.
    alsoFails: [
      'activity-rates.unassign-removes-coverage',
      'activity-rates.prop.assign-then-show',
      'activity-rates.prop.concurrent-sequences',
      'activity-rates.prop.model-sequences',
    ],
  },
  'show-rates-without-work-regime': { rule: 'show-activity-rates.response-shape', where: 'response.body[0]' },
  'pagination-token-mac-prefix-accepted': {
    rule: 'pagination.prop.tampered-token-422',
    where: 'response.status',
    alsoFails: ['pagination.hand-built-token-422'],
  },
  'pagination-text-filter-change-accepted': {
    rule: 'pagination.prop.changed-query-422',
    where: 'a next page whose filters or orders changed: response.status',
  },
  'list-ids-filter-after-paging': {
    rule: 'pagination.prop.any-limit-once',
    where: 'pages',
    // Every walk of an ids filter ends early: the rules that walk one to its end miss resources (the
    // ties of stable-with-orders are walked through one).
    alsoFails: [
      'list.ids-filter',
      'list.several-orders-stable',
      'pagination.stable-with-orders',
      'list.prop.pairwise-combinations',
    ],
  },
  'revoke-string-team-ids-as-star': { rule: 'revoke-roles.prop.invalid-team-ids-rejected', where: 'team_ids "' },
  'rates-assign-ignores-apprentice': {
    rule: 'activity-rates.prop.assign-then-show',
    where: 'show-activity-rates after the assignment',
  },
  'list-later-pages-without-picture': { rule: 'list.resource-shape', where: 'page 2: response.body.data' },
  'list-later-pages-other-kinds': {
    rule: 'list.resources-of-the-kind',
    where: 'page 2: response.body.data[0].kind_id',
    // A resource of another kind on a later page is also outside each filter, order and walk.
    alsoFails: [
      'list.ids-filter',
      'list.text-filter-starts-with',
      'list.orders-ascending',
      'pagination.each-resource-once',
      'list.filters-all-applied',
    ],
  },
  'list-later-pages-ignore-ids-filter': {
    rule: 'list.ids-filter',
    where: 'page 2: response.body.data',
    // The walk with both filters lists what the ids filter stops before the list step stops it.
    alsoFails: ['list.filters-all-applied'],
  },
  'list-ids-filter-assumes-sorted': {
    rule: 'list.ids-filter',
    where: 'reversed',
    // The rules that send ids in another order than the collection's lose some of them too (the ties
    // of stable-with-orders are walked through an ids filter in their sorted order).
    alsoFails: ['list.filters-all-applied', 'list.several-orders-stable', 'pagination.stable-with-orders'],
  },
  'list-later-pages-drop-attributes': {
    rule: 'list.attributes-returned',
    where: 'page 2: response.body.data[0].attributes',
    // Without the attribute, a later page cannot show that it starts with the filter's text.
    alsoFails: ['list.text-filter-starts-with'],
  },
  'list-attributes-first-only': { rule: 'list.attributes-returned', where: 'page 1: response.body.data[0].attributes' },
  'list-later-pages-without-teams': { rule: 'list.with-teams', where: 'page 2: response.body.data[0].teams' },
  'list-later-pages-without-relations': {
    rule: 'list.with-relations',
    where: 'page 2: response.body.data[0].relations',
  },
  'list-later-pages-text-filter-ignored': {
    rule: 'list.text-filter-starts-with',
    where: 'page 2: response.body.data',
    // A pairwise row with a text filter walked past page 1 lists more than the filter alone gives.
    alsoFails: ['list.prop.pairwise-combinations'],
  },
  'list-later-pages-unordered': {
    rule: 'list.orders-ascending',
    where: 'page 2, resource',
    // Pages reversed within give another order for another page size, for one order or several.
    alsoFails: ['pagination.stable-with-orders', 'list.several-orders-stable'],
  },
  'list-total-count-later-pages-remaining': {
    rule: 'list.total-count-of-filtered-set',
    where: 'page 2: response.body.total_count',
    // A pairwise row counted strictly and walked past page 1 disagrees with limit null's count.
    alsoFails: ['list.counts-agree'],
  },
  'list-total-count-later-pages-always': {
    rule: 'list.total-count-only-when-asked',
    where: 'page 2: response.body.total_count',
  },
  'pagination-later-pages-limit-exceeded': {
    rule: 'pagination.limit-respected',
    where: 'limit 1, page 2: response.body.data',
  },
  'pagination-later-envelope-token-number': {
    rule: 'pagination.envelope',
    where: 'resources.list page 2: response.body.next_token',
  },
  'list-limit-null-capped-1000': { rule: 'list.counts-agree', where: 'the listed kind', resources: 1700 },
  'list-total-count-capped-1000': { rule: 'list.counts-agree', where: 'the listed kind', resources: 1700 },
  'pagination-stops-after-1000': {
    rule: 'list.counts-agree',
    where: 'the listed kind',
    resources: 1700,
    alsoFails: ['pagination.stable-with-orders'],
  },
  // Faults that live beside another input: only the pairwise rule's rows send them, and each
  // departure is charged to the rule whose clause it breaks (the row's step names the place).
  'list-total-count-dropped-beside-orders': {
    rule: 'list.total-count-of-filtered-set',
    where: 'of the pairwise array, page 1: response.body.total_count',
  },
  'list-ids-filter-ignored-when-approximate': {
    rule: 'list.ids-filter',
    where: 'of the pairwise array, page 1: response.body.data',
  },
  'list-attributes-dropped-with-teams': {
    rule: 'list.attributes-returned',
    where: 'of the pairwise array, page 1: response.body.data[0].attributes',
  },
  'list-with-relations-ignored-beside-orders': {
    rule: 'list.with-relations',
    where: 'of the pairwise array, page 1: response.body.data[0].relations',
  },
  'list-with-relations-null-as-filter': {
    rule: 'list.prop.pairwise-combinations',
    where: 'of the pairwise array: all pages',
  },
  'list-ids-filter-capped-100': { rule: 'list.counts-agree', where: 'ids filter of', resources: 1700 },
};
