/**
 * Variants: other choices where the spec says "not shown", each still
 * conformant. The suite must pass against every one of them; that proves its
 * checks do not lean on the reference server's own choices.
 */
export const VARIANTS = {
  'assign-team-204': 'assign-team answers 204 without a body on success, and 200 with the warning body on a conflict.',
  'clip-ranges': 'show-teams and show-activity-rates clip the returned date ranges to the requested one.',
  'status-422': 'validation failures and unknown identifiers answer 422 instead of 400 and 404.',
  'lenient-revoke':
    'revoking for a kind without roles, or removing a kind-defining role entirely, answers 204 and changes nothing.',
  'version-required': 'a request without Service-Version is refused (400).',
  'default-page': 'resources.list without a pagination object returns a first page of 50 with a next_token.',
  'unassigned-rows': 'list-roles keeps listing a role removed from a resource, with is_assigned false and no team.',
  'exclusive-end': 'DateRange ends are exclusive (the range 2026-01-01/2026-02-01 is January).',
  'locale-collation': 'orders on an attribute use a case-insensitive locale collation instead of code units.',
  'problem-details':
    'error bodies are RFC 9457 problem details ({type, title, status, detail}) without a message field.',
  'rounded-approximate-count': 'counting_mode approximate rounds total_count to a multiple of 10 and says so.',
  'ids-of-other-kinds-refused':
    'a resource.ids filter naming a resource of another kind than kind_id is refused (400).',
} as const;

export type VariantName = keyof typeof VARIANTS;

export function isVariantName(name: string): name is VariantName {
  return Object.hasOwn(VARIANTS, name);
}

/** Every variant's name. */
export const VARIANT_NAMES: readonly VariantName[] = Object.keys(VARIANTS).filter(isVariantName);
