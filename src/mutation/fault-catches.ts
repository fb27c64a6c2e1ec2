/**
 * Which rule of the suite must catch each fault of the reference server, and
 * where: the place (`where`, made by `at(step, field)`) one of the rule's
 * violations must show. Rules that fail too are named one by one (a property
 * and the example rule of one clause), and each must FAIL. A rule the engine
 * marks blocked by the owner or by one of those (a shared step stopped it at
 * their departure) is expected without a word here: that is what the fault
 * does, and a new rule that walks lists moves no catch. Rules that SKIP for
 * any other cause are named with why (`skips`), and each must SKIP for that
 * reason. Any other FAIL or SKIP, and any ERROR, is a check that is too broad
 * or a run that is not clean.
 */
import type { FaultName } from '../reference-server/faults.ts';
import type { RuleId } from '../rules/rule-ids.ts';
import { at, type Place } from './place.ts';

export interface Catch {
  /** The rule that must FAIL. */
  rule: RuleId;
  /** The place one of its violations must show: `at(step, field)`, the step written out, never a generic one. */
  where: Place;
  /** Other rules that FAIL against this fault too, each named: each must FAIL. */
  alsoFails?: readonly RuleId[];
  /**
   * Rules that SKIP against this fault for a cause other than being blocked by
   * a rule this catch lets fail, each with a part of its reason (why): each
   * must SKIP for it.
   */
  skips?: Readonly<Partial<Record<RuleId, string>>>;
  /**
   * The rule whose requests show the departure, when the owner's own cannot
   * (the fault lives beside an input only that rule combines): the owner
   * FAILs on what it found, and the owner's judge is proven on its log
   * (src/mutation/judge-logs.ts).
   */
  finder?: RuleId;
  /** Resources the faulty server needs to show the fault (default 120). */
  resources?: number;
}

export const CATCHES: Readonly<Record<FaultName, Catch>> = {
  'pagination-no-trailing-empty-page': {
    rule: 'pagination.exact-multiple-empty-page',
    where: at('limit 2, page 3', 'response.body.next_token'),
    alsoFails: ['pagination.prop.any-limit-once'],
  },
  'pagination-repeats-last-item': {
    rule: 'pagination.each-resource-once',
    where: at('limit 8, page 2'),
  },
  // Shows only in walks with orders, which other rules make: the departure is charged to its owner.
  // The pairwise rows walk with orders too: a walk that misses resources lists fewer than its filters give.
  'pagination-later-pages-drop-orders': {
    rule: 'pagination.each-resource-once',
    where: at('limit ', 'page '),
    alsoFails: ['list.prop.pairwise-combinations'],
  },
  'pagination-orders-change-accepted': {
    rule: 'pagination.changed-orders-422',
    where: at('a next page whose orders were removed', 'response.status'),
    alsoFails: ['pagination.prop.changed-query-422'],
  },
  'pagination-filters-change-accepted': {
    rule: 'pagination.changed-filters-422',
    where: at('a next page whose filters changed', 'response.status'),
    alsoFails: ['pagination.prop.changed-query-422'],
  },
  'pagination-offset-token': {
    rule: 'pagination.hand-built-token-422',
    where: at('a hand-built or altered next_token "eyJvZmZzZXQiOjJ9"', 'response.status'),
    alsoFails: ['pagination.prop.tampered-token-422'],
  },
  'pagination-malformed-token-first-page': {
    rule: 'pagination.malformed-token-422',
    where: at('a malformed next_token "%%%"', 'response.status'),
    alsoFails: ['pagination.prop.tampered-token-422'],
  },
  'pagination-limit-null-pages': {
    rule: 'pagination.limit-null-whole-collection',
    where: at('the whole collection with limit null', 'response.body.next_token'),
    alsoFails: ['list.counts-agree'],
  },
  'pagination-keyset-without-id': {
    rule: 'pagination.stable-with-orders',
    where: at('ids filter of 9 tied resources', 'position'),
  },
  'pagination-keyset-first-order-only': {
    rule: 'list.several-orders-stable',
    where: at('orders on last_name then first_name, limit 2'),
  },
  'pagination-envelope-without-next-token': {
    rule: 'pagination.envelope',
    where: at('resources.list with limit null', 'response.body'),
  },
  'pagination-limit-exceeded': {
    rule: 'pagination.limit-respected',
    where: at('limit 1, page 1', 'response.body.data'),
  },
  'pagination-invalid-limit-accepted': {
    rule: 'errors.prop.invalid-limit-rejected',
    where: at('limit "10"', 'response.status'),
  },
  'list-ids-filter-ignored': {
    rule: 'list.ids-filter',
    where: at('resources.list page 1 (resource.ids (7), limit 2)', 'response.body.data'),
  },
  'list-filters-first-only': {
    rule: 'list.filters-all-applied',
    where: at(
      'filters resource.ids (9 ids) and resource.text last_name starts with "C", page 1',
      'response.body.data[0]',
    ),
  },
  'pagination-422-without-message': {
    rule: 'errors.message-present',
    where: at('resources.list answered 422'),
  },
  'errors-400-without-message': {
    rule: 'errors.message-present',
    where: at('resources.list answered 400'),
  },
  'errors-404-without-message': {
    rule: 'errors.message-present',
    where: at('answered 404 (to show-teams for an unknown resource_id)'),
  },
  'errors-401-without-message': {
    rule: 'errors.message-present',
    where: at('answered 401 (to a request without credentials)'),
  },
  'list-total-count-of-page': {
    rule: 'list.total-count-of-filtered-set',
    where: at(
      'resources.list page 1 (resource.ids (7), with_total_count, counting_mode "strict", limit 2)',
      'response.body.total_count',
    ),
    alsoFails: ['list.counts-agree'],
  },
  'list-total-count-always': {
    rule: 'list.total-count-only-when-asked',
    where: at('resources.list page 1 (limit 3)', 'response.body.total_count'),
  },
  'list-kind-id-optional': {
    rule: 'list.kind-id-required',
    where: at('a list request without kind_id', 'response.status'),
  },
  'list-includes-other-kinds': {
    rule: 'list.resources-of-the-kind',
    where: at('kind integration, resources.list page 1 (limit 8)', 'response.body.data[0].kind_id'),
  },
  'list-orders-descending': {
    rule: 'list.orders-ascending',
    where: at(
      'resources.list page 1 (attributes last_name, orders last_name asc, limit 25)',
      'resource 7000000000000000057',
    ),
  },
  'list-at-date-past-2038-refused': {
    rule: 'list.documented-values-accepted',
    where: at('resources.list with {"at_date":"2038-01-20"}', 'response.status'),
  },
  'list-roles-repeated-resource-listed-twice': {
    rule: 'list-roles.filters-respected',
    where: at('list-roles of several resources, one named twice', 'response.body'),
  },
  'list-roles-unknown-role-empties': {
    rule: 'list-roles.filters-respected',
    where: at('list-roles of several roles and an id of no role', 'response.body'),
  },
  'show-teams-unknown-team-empties': {
    rule: 'show-teams.team-filter',
    where: at('the last of no team'),
  },
  'show-teams-team-named-twice-listed-twice': {
    rule: 'show-teams.team-filter',
    where: at('the first named twice'),
  },
  'list-text-filter-like-wildcards': {
    rule: 'list.text-filter-starts-with',
    where: at('resource.text last_name "G_"', 'attributes.last_name'),
  },
  'list-ids-filter-repeat-listed-twice': {
    rule: 'list.ids-filter',
    where: at('ids filter in another order (walk from resources.list page 1 (resource.ids (4), limit 2))', 'all pages'),
  },
  'list-ids-filter-lists-other-kinds': {
    rule: 'list.ids-filter',
    where: at('resources.list page 2 (resource.ids (6), limit 2)', 'response.body.data'),
  },
  'list-ids-filter-unknown-id-empties': {
    rule: 'list.ids-filter',
    where: at(
      'ids filter in the order listed (walk from a resource.ids filter with an id of no resource)',
      'all pages',
    ),
  },
  'list-text-filter-ignored': {
    rule: 'list.text-filter-starts-with',
    where: at(
      'resources.list page 1 (attributes last_name, resource.text last_name "G", limit 2)',
      'response.body.data[0].attributes.last_name',
    ),
    // Beside an ids filter, an ignored text filter lets through what only the ids match.
    alsoFails: ['list.filters-all-applied'],
  },
  'list-attributes-ignored': {
    rule: 'list.attributes-returned',
    where: at(
      'resources.list page 1 (attributes last_name, first_name, email, employee_number, limit 5)',
      'response.body.data[0].attributes',
    ),
    skips: {
      'list.filters-all-applied': 'no resource of the listed kind has a text value for last_name',
      'list.several-orders-stable':
        'fewer than six of the first resources of the listed kind share their last_name with another',
      'list.text-filter-starts-with': 'no resource of the listed kind has a text value for last_name',
      'list.orders-ascending': 'fewer than two resources carry last_name: no order to judge',
      'pagination.stable-with-orders': 'no two resources share a value of last_name: ties cannot be shown',
      'pagination.prop.changed-query-422': 'no text value of last_name to filter on',
    },
  },
  'list-with-teams-ignored': {
    rule: 'list.with-teams',
    where: at('resources.list page 1 (with_teams, limit 5)', 'response.body.data[0].teams'),
  },
  'list-with-relations-ignored': {
    rule: 'list.with-relations',
    where: at('resources.list page 1 (with_relations, limit 5)', 'response.body.data[0].relations'),
  },
  'list-with-relations-null-rejected': {
    rule: 'list.documented-values-accepted',
    where: at('resources.list with {"with_relations":null}', 'response.status'),
  },
  'list-resource-without-picture': {
    rule: 'list.resource-shape',
    where: at('resources.list page 1 (with_teams, with_relations, limit 7)', 'response.body.data[0]'),
  },
  'list-roles-envelope': {
    rule: 'list-roles.plain-array',
    where: at('list-roles of profile resources', 'response.body'),
  },
  'list-roles-ignores-role-filter': {
    rule: 'list-roles.filters-respected',
    where: at('list-roles of one role (role_ids [', 'response.body'),
  },
  'list-roles-restricted-sees-hidden': {
    rule: 'list-roles.restricted-sees-subset',
    where: at('resources.list-roles with the restricted key', 'response.body'),
  },
  'list-roles-first-resource-only': {
    rule: 'list-roles.filters-respected',
    where: at('list-roles of several resources in listed order', 'response.body'),
    skips: {
      'list-roles.restricted-sees-subset':
        'none of the resources read holds a role the profile lists as hidden from the restricted key',
    },
    // The pairwise rows read several resources beside one and several roles, and compare.
    alsoFails: ['list-roles.prop.pairwise-combinations'],
  },
  'list-roles-first-role-only': {
    rule: 'list-roles.filters-respected',
    where: at('list-roles of one role (role_ids [', 'response.body'),
    skips: {
      'list-roles.restricted-sees-subset':
        'none of the resources read holds a role the profile lists as hidden from the restricted key',
    },
  },
  'list-roles-team-ids-as-string': {
    rule: 'list-roles.association-shape',
    where: at('list-roles of profile resources', '.team_ids'),
  },
  'revoke-star-removes-role': {
    rule: 'revoke-roles.star-leaves-no-team',
    where: at('list-roles after'),
    // The sequences of seed 1 revoke `*` too, on the resource the claims leave them.
    alsoFails: [
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.prop.model-sequences',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'revoke-last-teams-removes-role': {
    rule: 'revoke-roles.last-teams-like-star',
    where: at('list-roles after'),
    alsoFails: ['revoke-roles.prop.pairwise-combinations'],
  },
  'revoke-star-list-includes-disabled': {
    rule: 'revoke-roles.star-to-explicit-enabled',
    where: at('list-roles after', '.team_ids'),
    // narrows-explicit-list revokes from several resources' roles at once, one of them held on `*` at seed 1.
    alsoFails: [
      'revoke-roles.prop.model-sequences',
      'revoke-roles.narrows-explicit-list',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'revoke-defining-role-removed': { rule: 'revoke-roles.defining-role-kept', where: at('list-roles after') },
  'revoke-empty-team-ids-as-star': {
    rule: 'revoke-roles.empty-team-ids-rejected',
    where: at('an empty team_ids array', 'response.status'),
    alsoFails: ['revoke-roles.prop.invalid-team-ids-rejected'],
  },
  'revoke-omitted-team-ids-as-star': {
    rule: 'revoke-roles.omitted-team-ids-removes-role',
    where: at('list-roles after'),
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.pairwise-combinations'],
  },
  'revoke-absent-team-clears-list': {
    rule: 'revoke-roles.absent-role-no-change',
    where: at('state of resource', '(roles)'),
    alsoFails: [
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.prop.pairwise-combinations',
      'revoke-roles.prop.model-sequences',
    ],
  },
  'revoke-star-twice-removes-role': {
    rule: 'revoke-roles.prop.idempotent',
    where: at('list-roles after the second revocation'),
    alsoFails: ['revoke-roles.prop.pairwise-combinations'],
  },
  'revoke-returns-200': { rule: 'revoke-roles.no-content', where: at('resources.revoke-roles', 'response.status') },
  'revoke-non-role-kind-500': {
    rule: 'revoke-roles.kind-must-support-roles',
    where: at('a revocation for a kind without roles', 'response.status'),
  },
  'revoke-star-on-explicit-list-ignored': {
    rule: 'revoke-roles.prop.model-sequences',
    where: at('list-roles after revoke('),
    // `*` is revoked from several resources at once, some holding their role on an explicit list.
    alsoFails: [
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.star-leaves-no-team',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'revoke-first-resource-only': {
    rule: 'revoke-roles.omitted-team-ids-removes-role',
    where: at('list-roles after'),
    // `*` and an explicit list are revoked from several resources at once too.
    alsoFails: [
      'revoke-roles.star-leaves-no-team',
      'revoke-roles.narrows-explicit-list',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'revoke-first-role-only': {
    rule: 'revoke-roles.omitted-team-ids-removes-role',
    where: at('list-roles after'),
    // `*` and an explicit list are revoked from several roles at once too.
    alsoFails: [
      'revoke-roles.prop.model-sequences',
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.star-leaves-no-team',
      'revoke-roles.narrows-explicit-list',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'revoke-first-team-only': {
    rule: 'revoke-roles.narrows-explicit-list',
    where: at('list-roles after', '.team_ids'),
    // Every rule that revokes several teams in one request sees the others kept.
    alsoFails: [
      'revoke-roles.prop.model-sequences',
      'revoke-roles.last-teams-like-star',
      'revoke-roles.star-to-explicit-enabled',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'revoke-star-remembered': {
    rule: 'revoke-roles.star-to-explicit-enabled',
    where: at('list-roles after the second revocation', '.team_ids'),
    alsoFails: ['revoke-roles.prop.model-sequences', 'revoke-roles.prop.pairwise-combinations'],
  },
  'revoke-narrow-drops-all': {
    rule: 'revoke-roles.narrows-explicit-list',
    where: at('list-roles after', '.team_ids'),
    // The second step of rule 6 narrows an explicit list too.
    alsoFails: [
      'revoke-roles.prop.model-sequences',
      'revoke-roles.star-to-explicit-enabled',
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  'auth-anonymous-accepted': {
    rule: 'auth.missing-credentials-rejected',
    where: at('a request without credentials', 'response.status'),
  },
  'auth-any-bearer-accepted': {
    rule: 'auth.unknown-key-rejected',
    where: at('a request with an unknown API key', 'response.status'),
  },
  'redaction-leaks-external-id': {
    rule: 'auth.restricted-fields-redacted',
    where: at('show-teams(7000000000000000002)', '.external_id'),
  },
  'redaction-for-every-caller': {
    rule: 'auth.restricted-fields-redacted',
    where: at('show-teams(7000000000000000002) with the main key', '.contract_number'),
  },
  'redaction-wrong-marker': {
    rule: 'auth.redacted-marker-shape',
    where: at('show-teams', '.contract_number.redacted'),
  },
  'malformed-date-500': {
    rule: 'errors.invalid-date-range-rejected',
    where: at('resources.show-teams with date_range "2026-02-30/2026-03-01"', 'response.status'),
  },
  'mutations-ignore-malformed-date-range': {
    rule: 'errors.prop.malformed-date-range-rejected',
    where: at('resources.assign-team with date_range "2026-01-01"', 'response.status'),
  },
  'malformed-json-500': {
    rule: 'errors.malformed-json-rejected',
    where: at('a body that is not JSON ("kind_id=1")', 'response.status'),
  },
  'assign-team-warning-applied': {
    rule: 'assign-team.warning-changes-nothing',
    where: at('state of resource', '(teams)'),
    alsoFails: ['activity-rates.prop.model-sequences', 'assign-team.prop.pairwise-combinations'],
  },
  'assign-team-warning-without-details': {
    rule: 'assign-team.warning-shape',
    where: at('the conflicting assignment', 'response.body'),
  },
  'assign-team-aware-ignored': {
    rule: 'assign-team.warning-aware-applies',
    where: at('the conflicting assignment', 'response.body'),
    alsoFails: ['activity-rates.prop.model-sequences', 'assign-team.prop.pairwise-combinations'],
  },
  'show-teams-head-filter-ignored': {
    rule: 'show-teams.head-filter',
    where: at('show-teams(head: true', '.head'),
  },
  'show-teams-team-filter-ignored': {
    rule: 'show-teams.team-filter',
    where: at('show-teams(team_ids ['),
  },
  'show-teams-first-team-filter-only': {
    rule: 'show-teams.team-filter',
    where: at('show-teams(3 team_ids in listed order)'),
    // The head filter's reads name every team the resource holds, and miss those of all but the first.
    alsoFails: ['show-teams.head-filter'],
  },
  'show-teams-head-as-string': {
    rule: 'show-teams.response-shape',
    where: at('show-teams of a profile resource', 'response.body[0].head'),
  },
  'activity-rate-overlap': {
    rule: 'activity-rates.no-overlap',
    where: at('read right after the assignment'),
  },
  'activity-rate-assign-200': {
    rule: 'activity-rates.assign-no-content',
    where: at('the assignment', 'response.status'),
  },
  'rates-average-rate-unrounded': {
    rule: 'show-activity-rates.average-rate-integer',
    where: at('show-activity-rates(7000000000000000002)', '.average_rate'),
  },
  'rates-assign-ignores-flags': {
    rule: 'activity-rates.assigned-rate-shown',
    where: at('read right after the assignment'),
    alsoFails: ['activity-rates.prop.assign-then-show', 'activity-rates.prop.pairwise-combinations'],
  },
  'rates-default-pattern-monday-only': {
    rule: 'activity-rates.default-pattern-even',
    where: at('read right after the assignment', 'activity_rate_patterns[0]'),
    // The pairwise rows without a pattern read the default one back.
    alsoFails: ['activity-rates.prop.pairwise-combinations'],
  },
  'rates-unassign-from-stale-state': {
    // A second step on the first step's data: an unassignment right after an assignment. The concurrent rules'
    // first fixed scenario is that too (a prefix assignment, then unassignments).
    rule: 'activity-rates.prop.model-sequences',
    where: at('show-activity-rates after unassignRate', 'average_rate on'),
    // So are the unassignment rows' first row, right after the two periods the rule lays.
    alsoFails: [
      'activity-rates.prop.concurrent-sequences',
      'activity-rates.prop.concurrent-other-days-kept',
      'activity-rates.prop.unassign-pairwise-combinations',
    ],
  },
  'rates-unassign-first-period-only': {
    // The pairwise rows unassign a range over two periods (and across a period's end) every run; the sequences
    // need an assignment and then an unassignment that reaches past it. Of the concurrent rules, only the one
    // that keeps other days' rates: the MUST one leaves open what an assignment after the unassignment does.
    rule: 'activity-rates.prop.unassign-pairwise-combinations',
    where: at('show-activity-rates after unassign-activity-rate pairwise row', 'date_range on '),
    alsoFails: ['activity-rates.prop.model-sequences', 'activity-rates.prop.concurrent-other-days-kept'],
  },
  'activity-rate-unassign-noop': {
    rule: 'activity-rates.unassign-removes-coverage',
    where: at('read right after the unassignment'),
    // Both concurrent rules: their first fixed sequence unassigns two ranges at once, after any assignment.
    alsoFails: [
      'activity-rates.prop.model-sequences',
      'activity-rates.prop.concurrent-sequences',
      'activity-rates.prop.concurrent-other-days-kept',
      'activity-rates.prop.unassign-pairwise-combinations',
    ],
  },
  'activity-rate-external-id-not-unique': {
    rule: 'activity-rates.external-id-unique',
    where: at('a contract whose external_id another resource already uses', 'response.status'),
  },
  'revoke-lost-update': {
    rule: 'revoke-roles.prop.concurrent-sequences',
    // Only revocations that overlap in time lose one: no serial rule sends two at once on one resource.
    where: at('list-roles after the parallel revocations'),
  },
  'rates-lost-update': {
    // An assignment lost to another that overlaps it in time leaves the other's range as it set it: read as
    // worded, §4.2 rule 1 lets the later one modify the earlier one's period, so only the reading that keeps
    // other days' rates (INFERRED) shows it. No serial rule sends two at once on one resource.
    rule: 'activity-rates.prop.concurrent-other-days-kept',
    where: at('show-activity-rates after the parallel commands'),
  },
  'rates-pattern-later-weeks-dropped': {
    // Only a row that sends a pattern of several weeks shows it; every other rule sends one week or none.
    rule: 'activity-rates.prop.pairwise-combinations',
    where: at('show-activity-rates after assign-activity-rate pairwise row', 'activity_rate_patterns'),
  },
  'rates-default-pattern-five-days': {
    // Right for a five-day regime: only a row without a pattern under another regime shows it.
    rule: 'activity-rates.prop.pairwise-combinations',
    where: at('show-activity-rates after assign-activity-rate pairwise row', 'activity_rate_patterns'),
  },
  'rates-non-ascii-external-id-refused': {
    // A complete row with an external_id beyond ASCII is refused.
    rule: 'activity-rates.prop.pairwise-combinations',
    where: at('assign-activity-rate pairwise row', 'response.status'),
  },
  'rates-paid-hourly-ignored-beside-weeks': {
    // An option dropped only beside another: paid_hourly true with a pattern of several weeks.
    rule: 'activity-rates.prop.pairwise-combinations',
    where: at('show-activity-rates after assign-activity-rate pairwise row', 'paid_hourly'),
  },
  'teams-contract-number-html-escaped': {
    // Only the naughty strings hold markup: the pairwise rows of assign-team send them.
    rule: 'assign-team.prop.pairwise-combinations',
    where: at('show-teams after assign-team pairwise row', 'contract_number'),
  },
  'teams-regrouping-non-ascii-mangled': {
    // The sequences' head assignments send a regrouping beyond ASCII, and read it back after each.
    rule: 'activity-rates.prop.model-sequences',
    where: at('show-teams after', 'regrouping'),
    // The pairwise rows of assign-team send a regrouping beyond ASCII too.
    alsoFails: ['assign-team.prop.pairwise-combinations'],
  },
  'revoke-star-first-resource-only': {
    // Only `*` beside several resources: the one rule that revokes `*` names several.
    rule: 'revoke-roles.star-leaves-no-team',
    where: at('list-roles after', '.team_ids'),
  },
  'teams-external-id-dropped-without-regrouping': {
    // An option dropped only beside another left out: external_id sent without a regrouping.
    rule: 'assign-team.prop.pairwise-combinations',
    where: at('show-teams after assign-team pairwise row', 'external_id'),
  },
  'teams-warning-applied-without-contract-number': {
    // A warning that still assigns, only where contract_number is left out (the warning rules send one).
    rule: 'assign-team.prop.pairwise-combinations',
    where: at('show-teams after assign-team pairwise row', 'team'),
  },
  'teams-non-ascii-contract-number-refused': {
    // The complete row whose text goes beyond ASCII is refused.
    rule: 'assign-team.prop.pairwise-combinations',
    where: at('assign-team pairwise row', 'response.status'),
  },
  'revoke-explicit-list-first-resource-only': {
    // Only an explicit list beside several resources: narrows-explicit-list names several.
    rule: 'revoke-roles.narrows-explicit-list',
    where: at('list-roles after', '.team_ids'),
    alsoFails: ['revoke-roles.prop.pairwise-combinations'],
  },
  'rates-unassign-clock-change-day-kept': {
    rule: 'activity-rates.prop.unassign-pairwise-combinations',
    where: at('show-activity-rates after unassign-activity-rate pairwise row', 'date_range on '),
  },
  'rates-unassign-month-start-kept': {
    // Only a range that starts on a month's first day: the pairwise rows' "a month's first and last day".
    rule: 'activity-rates.prop.unassign-pairwise-combinations',
    where: at('show-activity-rates after unassign-activity-rate pairwise row', 'date_range on '),
  },
  'teams-lost-update': {
    // A head assignment lost to another of another team on a disjoint range: read as worded, §4.3 lets the later
    // one modify or delete any association, so only the reading that keeps another team's assignation outside
    // the later range (INFERRED) shows it. No serial rule sends two at once on one resource.
    rule: 'assign-team.prop.concurrent-other-teams-kept',
    where: at('show-teams after the parallel assignments'),
  },
  'teams-concurrent-assignments-dropped': {
    // Both assignments answered success, neither shown: in no order is the last one shown over its range.
    rule: 'assign-team.prop.concurrent-sequences',
    where: at('show-teams after the parallel assignments'),
    alsoFails: ['assign-team.prop.concurrent-other-teams-kept'],
  },
  'rates-concurrent-assignments-dropped': {
    // Both assignments answered 204, neither shown: in no order is the last one's range as it set it.
    rule: 'activity-rates.prop.concurrent-sequences',
    where: at('show-activity-rates after the parallel commands'),
    alsoFails: ['activity-rates.prop.concurrent-other-days-kept'],
  },
  'teams-stale-read': {
    rule: 'assign-team.warning-aware-applies',
    where: at('show-teams after the assignment'),
    // The model-based sequences read show-teams right after each assignment too, and the concurrent ones read
    // it right after their branches: the assignation another team had outside the last range is not shown yet.
    // So do the pairwise rows of assign-team, each read right after it is done.
    alsoFails: [
      'activity-rates.prop.model-sequences',
      'assign-team.prop.concurrent-other-teams-kept',
      'assign-team.prop.pairwise-combinations',
    ],
  },
  'roles-stale-read': {
    rule: 'revoke-roles.star-leaves-no-team',
    where: at('list-roles after', 'team_ids'),
    // Every rule that reads list-roles right after a revocation sees the roles as they were.
    alsoFails: [
      'revoke-roles.omitted-team-ids-removes-role',
      'revoke-roles.last-teams-like-star',
      'revoke-roles.narrows-explicit-list',
      'revoke-roles.star-to-explicit-enabled',
      'revoke-roles.prop.concurrent-sequences',
      'revoke-roles.prop.idempotent',
      'revoke-roles.prop.model-sequences',
      'revoke-roles.prop.pairwise-combinations',
    ],
  },
  // Departures one time in N: found because the rules repeat their judged requests (src/rules/one-in-n.ts).
  'invalid-limit-accepted-one-in-ten': {
    rule: 'errors.prop.invalid-limit-rejected',
    where: at('limit ', 'response.status'),
  },
  'invalid-team-ids-as-star-one-in-five': {
    rule: 'revoke-roles.prop.invalid-team-ids-rejected',
    where: at('team_ids ', 'response.status'),
  },
  'rates-stale-read': {
    rule: 'activity-rates.assigned-rate-shown',
    where: at('read right after the assignment'),
    // Every rule that reads right after its own write sees it stale: unassign's effect, the property
    // that shows each assignment at once, and the concurrent sequences' reads after their branches (two
    // unassignments at once, the first fixed sequence, show it whichever reading of §4.2 rule 1).
    alsoFails: [
      'activity-rates.unassign-removes-coverage',
      'activity-rates.prop.assign-then-show',
      'activity-rates.prop.concurrent-sequences',
      'activity-rates.prop.concurrent-other-days-kept',
      'activity-rates.prop.model-sequences',
      'activity-rates.prop.pairwise-combinations',
      'activity-rates.prop.unassign-pairwise-combinations',
    ],
  },
  'show-rates-without-work-regime': {
    rule: 'show-activity-rates.response-shape',
    where: at('resources.show-activity-rates', 'response.body[0]'),
  },
  'pagination-token-mac-prefix-accepted': {
    rule: 'pagination.prop.tampered-token-422',
    where: at('a next_token altered by "drop the last', 'response.status'),
    alsoFails: ['pagination.hand-built-token-422'],
  },
  'pagination-text-filter-change-accepted': {
    rule: 'pagination.prop.changed-query-422',
    where: at('a next page whose filters or orders changed', 'response.status'),
  },
  'list-ids-filter-after-paging': {
    rule: 'pagination.prop.any-limit-once',
    where: at('filtered ids at limit', 'response.body.data of every page'),
    // Every walk of an ids filter ends early: the rules that walk one to its end miss resources (the
    // ties of stable-with-orders are walked through one).
    alsoFails: [
      'list.ids-filter',
      'list.several-orders-stable',
      'pagination.stable-with-orders',
      'list.prop.pairwise-combinations',
    ],
    skips: {
      'list.total-count-of-filtered-set': 'page(s) holding resources: 3 are needed to show the rule on every page',
    },
  },
  'revoke-string-team-ids-as-star': {
    rule: 'revoke-roles.prop.invalid-team-ids-rejected',
    where: at('team_ids "', 'response.status'),
  },
  'rates-assign-ignores-apprentice': {
    rule: 'activity-rates.prop.assign-then-show',
    where: at('show-activity-rates after the assignment'),
    // The pairwise rows send apprentice true beside every other class.
    alsoFails: ['activity-rates.prop.pairwise-combinations'],
  },
  'list-later-pages-without-picture': {
    rule: 'list.resource-shape',
    where: at('resources.list page 2 (with_teams, with_relations, limit 7)', 'response.body.data[0]'),
  },
  'list-later-pages-other-kinds': {
    rule: 'list.resources-of-the-kind',
    where: at('kind employee, resources.list page 2 (limit 8)', 'response.body.data[0].kind_id'),
    // A resource of another kind on a later page is also outside each filter, order and walk.
    alsoFails: [
      'list.ids-filter',
      'list.text-filter-starts-with',
      'list.orders-ascending',
      'pagination.each-resource-once',
    ],
  },
  'list-later-pages-ignore-ids-filter': {
    rule: 'list.ids-filter',
    where: at('resources.list page 2 (resource.ids (7), limit 2)', 'response.body.data'),
  },
  'list-ids-filter-assumes-sorted': {
    rule: 'list.ids-filter',
    where: at('ids filter reversed', 'all pages'),
    // The rules that send ids in another order than the collection's lose some of them too (the ties
    // of stable-with-orders are walked through an ids filter in their sorted order).
    alsoFails: ['list.filters-all-applied', 'list.several-orders-stable', 'pagination.stable-with-orders'],
  },
  'list-later-pages-drop-attributes': {
    rule: 'list.attributes-returned',
    where: at(
      'resources.list page 2 (attributes last_name, first_name, email, employee_number, limit 5)',
      'response.body.data[0].attributes',
    ),
    // Without the attribute, a later page cannot show that it starts with the filter's text.
    alsoFails: ['list.text-filter-starts-with'],
  },
  'list-attributes-first-only': {
    rule: 'list.attributes-returned',
    where: at(
      'resources.list page 1 (attributes last_name, first_name, email, employee_number, limit 5)',
      'response.body.data[0].attributes',
    ),
  },
  'list-later-pages-without-teams': {
    rule: 'list.with-teams',
    where: at('resources.list page 2 (with_teams, limit 5)', 'response.body.data[0].teams'),
  },
  'list-later-pages-without-relations': {
    rule: 'list.with-relations',
    where: at('resources.list page 2 (with_relations, limit 5)', 'response.body.data[0].relations'),
  },
  'list-later-pages-text-filter-ignored': {
    rule: 'list.text-filter-starts-with',
    where: at(
      'resources.list page 2 (attributes last_name, resource.text last_name "G", limit 2)',
      'response.body.data[0].attributes.last_name',
    ),
    // A pairwise row with a text filter walked past page 1 lists more than the filter alone gives.
    alsoFails: ['list.prop.pairwise-combinations'],
  },
  'list-later-pages-unordered': {
    rule: 'list.orders-ascending',
    where: at(
      'resources.list page 2 (attributes last_name, orders last_name asc, limit 25)',
      'resource 7000000000000000007',
    ),
    // Pages reversed within give another order for another page size, for one order or several.
    alsoFails: ['pagination.stable-with-orders', 'list.several-orders-stable'],
  },
  'list-total-count-later-pages-remaining': {
    rule: 'list.total-count-of-filtered-set',
    where: at(
      'resources.list page 2 (resource.ids (7), with_total_count, counting_mode "strict", limit 2)',
      'response.body.total_count',
    ),
  },
  'list-total-count-later-pages-always': {
    rule: 'list.total-count-only-when-asked',
    where: at('resources.list page 2 (limit 3)', 'response.body.total_count'),
  },
  'pagination-later-pages-limit-exceeded': {
    rule: 'pagination.limit-respected',
    where: at('limit 1, page 2', 'response.body.data'),
  },
  'pagination-later-envelope-token-number': {
    rule: 'pagination.envelope',
    where: at('resources.list page 2 (limit 3)', 'response.body.next_token'),
  },
  'list-limit-null-capped-1000': {
    rule: 'list.counts-agree',
    where: at('the listed kind'),
    resources: 1700,
    // The long ids row lists its hundred where limit null stops at 1,000.
    alsoFails: ['list.prop.pairwise-combinations'],
  },
  'list-total-count-capped-1000': {
    rule: 'list.counts-agree',
    where: at('the listed kind'),
    resources: 1700,
  },
  'pagination-stops-after-1000': {
    rule: 'list.counts-agree',
    where: at('the listed kind'),
    resources: 1700,
  },
  // Faults that live beside another input: only the pairwise rule's rows send them, and each
  // departure is charged to the rule whose clause it breaks (the row's step names the place).
  'list-total-count-dropped-beside-orders': {
    rule: 'list.total-count-of-filtered-set',
    where: at('row 1 of the pairwise array, page 1', 'response.body.total_count'),
    finder: 'list.prop.pairwise-combinations',
  },
  'list-ids-filter-ignored-when-approximate': {
    rule: 'list.ids-filter',
    where: at('row 8 of the pairwise array, page 1', 'response.body.data'),
    finder: 'list.prop.pairwise-combinations',
  },
  'list-attributes-dropped-with-teams': {
    rule: 'list.attributes-returned',
    where: at('row 21 of the pairwise array, page 1', 'response.body.data[0].attributes'),
    finder: 'list.prop.pairwise-combinations',
  },
  'list-with-relations-ignored-beside-orders': {
    rule: 'list.with-relations',
    where: at('row 5 of the pairwise array, page 1', 'response.body.data[0].relations'),
    finder: 'list.prop.pairwise-combinations',
  },
  // The pairwise row counting beside a text filter shows the count gone; counts-agree's own count beside
  // its text filter finds no total_count to compare either.
  'list-total-count-dropped-beside-text-filter': {
    rule: 'list.total-count-of-filtered-set',
    where: at('row 1 of the pairwise array, page 1', 'response.body.total_count'),
    alsoFails: ['list.counts-agree'],
    finder: 'list.prop.pairwise-combinations',
  },
  'list-with-teams-ignored-beside-text-filter': {
    rule: 'list.with-teams',
    where: at('row 27 of the pairwise array, page 1', 'response.body.data[0].teams'),
    finder: 'list.prop.pairwise-combinations',
  },
  'list-with-relations-ignored-beside-text-filter': {
    rule: 'list.with-relations',
    where: at('row 27 of the pairwise array, page 1', 'response.body.data[0].relations'),
    finder: 'list.prop.pairwise-combinations',
  },
  'list-with-relations-null-as-filter': {
    rule: 'list.prop.pairwise-combinations',
    where: at('row 8 of the pairwise array'),
  },
  'list-ids-filter-capped-100': {
    rule: 'list.counts-agree',
    where: at('ids filter of 150 listed ids'),
    resources: 1700,
  },
  // Faults of the reads that live beside another input: only the pairwise rows of the reads send
  // them, each charged to the rule whose clause it breaks (the row's step and field name the place).
  'show-teams-head-ignored-beside-team-ids': {
    rule: 'show-teams.head-filter',
    where: at('show-teams(head: true, with its team_ids)'),
  },
  'show-teams-team-ids-ignored-beside-head': {
    rule: 'show-teams.team-filter',
    where: at('show-teams(one team_ids beside head: ', 'team.id'),
  },
  'show-teams-range-ignored-beside-several-teams': {
    rule: 'show-teams.prop.pairwise-combinations',
    where: at('show-teams pairwise', 'date_range of response.body'),
  },
  'show-teams-disabled-team-refused': {
    rule: 'show-teams.prop.pairwise-combinations',
    where: at('show-teams pairwise', 'response.status'),
  },
  // list-roles.filters-respected reads several resources with several roles, in both orders, too.
  'list-roles-first-resource-only-beside-several-roles': {
    rule: 'list-roles.prop.pairwise-combinations',
    where: at('list-roles pairwise', 'response.body association'),
    alsoFails: ['list-roles.filters-respected'],
    skips: {
      'list-roles.restricted-sees-subset':
        'none of the resources read holds a role the profile lists as hidden from the restricted key',
    },
  },
  'list-roles-role-order-matters': {
    rule: 'list-roles.prop.pairwise-combinations',
    where: at('list-roles pairwise', 'response.body association'),
    alsoFails: ['list-roles.filters-respected'],
  },
  'list-roles-resource-ids-capped': {
    // Only the long class sends more than fifty resource_ids, the rows' own resources last: a hundred
    // resources the suite never changes, which a directory of 200 has.
    rule: 'list-roles.prop.pairwise-combinations',
    where: at('list-roles pairwise', 'response.body association'),
    resources: 200,
  },
  'show-rates-end-overlap-dropped-on-month-start': {
    rule: 'show-activity-rates.prop.pairwise-combinations',
    where: at('show-activity-rates pairwise', 'date_range of response.body'),
  },
  // Faults only a second step on the same data shows: the model-based sequences draw it (the place is
  // the read after the second step, by the relation its range or roles stand in, and the field).
  'rates-unassign-inside-removes-period': {
    // The pairwise rows unassign a range inside one period every run; the sequences when they draw one. The
    // concurrent rules' first fixed sequence unassigns two ranges inside the period its prefix assigned.
    rule: 'activity-rates.prop.unassign-pairwise-combinations',
    where: at('show-activity-rates after unassign-activity-rate pairwise row', 'average_rate on '),
    alsoFails: [
      'activity-rates.prop.model-sequences',
      'activity-rates.prop.concurrent-sequences',
      'activity-rates.prop.concurrent-other-days-kept',
    ],
  },
  'rates-assign-adjacent-merges': {
    rule: 'activity-rates.prop.model-sequences',
    where: at(': adjacent)', 'average_rate on '),
    // The pairwise rows assign weeks that follow one another: each is merged into the one before.
    alsoFails: ['activity-rates.prop.pairwise-combinations'],
  },
  'rates-exact-range-updates-rate-only': {
    // Only the pairwise rows write over exactly the range of a period the resource holds, with other values.
    rule: 'activity-rates.prop.pairwise-combinations',
    where: at('show-activity-rates after assign-activity-rate pairwise row'),
  },
  'rates-exact-range-keeps-pattern': {
    // Only the pairwise rows write a pattern over exactly the range of a period the resource holds.
    rule: 'activity-rates.prop.pairwise-combinations',
    where: at('show-activity-rates after assign-activity-rate pairwise row', 'activity_rate_patterns'),
  },
  'rates-unassign-trims-next-period': {
    // The unassignment rows whose range ends the day before a period (adjacent, or exactly one before another);
    // the sequences' and the concurrent rules' unassignments inside an assigned range end before a period too.
    rule: 'activity-rates.prop.unassign-pairwise-combinations',
    where: at('show-activity-rates after unassign-activity-rate pairwise row', 'average_rate on '),
    alsoFails: [
      'activity-rates.prop.model-sequences',
      'activity-rates.prop.concurrent-sequences',
      'activity-rates.prop.concurrent-other-days-kept',
    ],
  },
  'rates-unassign-exact-range-kept': {
    // Only the unassignment rows send exactly the range of a period the resource holds.
    rule: 'activity-rates.prop.unassign-pairwise-combinations',
    where: at('show-activity-rates after unassign-activity-rate pairwise row', 'date_range on '),
  },
  'teams-reassign-keeps-regrouping': {
    rule: 'activity-rates.prop.model-sequences',
    where: at('show-teams after ', 'regrouping on '),
  },
  'revoke-second-narrowing-restores': {
    // The pairwise rows narrow a list the rows before them narrowed (20 of 20 seeds by drawn runs; the
    // model-based sequences, which find it too, 10 of 20), and the concurrent branches narrow one twice.
    rule: 'revoke-roles.prop.pairwise-combinations',
    where: at('list-roles after revoke-roles pairwise', 'team_ids'),
    alsoFails: ['revoke-roles.prop.concurrent-sequences', 'revoke-roles.prop.model-sequences'],
  },
  'revoke-disabled-teams-from-star-ignored': {
    // Only a disabled team revoked from a role on `*`: a pairing only the pairwise rows send.
    rule: 'revoke-roles.prop.pairwise-combinations',
    where: at('list-roles after revoke-roles pairwise', 'team_ids'),
  },
  'revoke-mixed-absent-team-ignored': {
    // A held and an absent team in one list: the pairwise rows send it, and the narrowing of several
    // resources' lists at once, whose teams one resource holds and another does not.
    rule: 'revoke-roles.prop.pairwise-combinations',
    where: at('list-roles after revoke-roles pairwise', 'team_ids'),
    alsoFails: ['revoke-roles.narrows-explicit-list', 'revoke-roles.prop.model-sequences'],
  },
  'revoke-several-roles-share-first-list': {
    // Several roles with an explicit list: the pairwise rows, and the narrowing of several resources' lists.
    rule: 'revoke-roles.prop.pairwise-combinations',
    where: at('list-roles after revoke-roles pairwise', 'team_ids'),
    alsoFails: ['revoke-roles.narrows-explicit-list', 'revoke-roles.prop.model-sequences'],
  },
};
