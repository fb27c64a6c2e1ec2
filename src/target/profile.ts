/**
 * A target profile names what the suite cannot discover through the documented
 * operations: which kinds exist and support roles, which roles and teams exist,
 * which resources the suite may change. Format documented by
 * fixtures/target-profile.schema.json.
 */
export interface ProfileKind {
  id: string;
  name: string;
  /** Employees and integrations support roles (spec §1, §4.1 rule 1). */
  supportsRoles: boolean;
  /** The role that defines this kind (spec §4.1 rule 2), for role-supporting kinds. */
  definingRoleId?: string;
}

export interface ProfileRole {
  id: string;
  name?: string;
  /** Set on a kind-defining role: the kind it defines. */
  definesKindId?: string;
}

export interface ProfileTeam {
  id: string;
  name?: string;
  /** Disabled teams must not reappear when a `*` role becomes an explicit list (§4.1 rule 6). */
  enabled: boolean;
}

export interface ProfileResource {
  id: string;
  kindId: string;
}

export interface TargetProfile {
  /** Free text shown in reports, e.g. "embedded reference server". */
  name?: string;
  kinds: ProfileKind[];
  roles: ProfileRole[];
  teams: ProfileTeam[];
  /** Work regimes that may be referenced by assign-activity-rate. */
  workRegimeIds?: string[];
  /** Kind whose resources are listed by the pagination checks; defaults to the first kind. */
  listKindId?: string;
  /** An attribute name that every resource of listKindId has, usable in `orders` and `resource.text` filters. */
  sortAttribute?: string;
  /** Attribute names every resource of listKindId carries; three or more let rules request several at once. */
  attributes?: string[];
  /**
   * Time zones (IANA names) of the target's users: the days their clocks
   * change are drawn as date-range ends and at_date values (default
   * CLOCK_ZONES, core/clock-changes.ts).
   */
  timeZones?: string[];
  /** Resources the suite may change (team assignments, activity rates, roles). Nothing else is ever mutated. */
  mutableResources: ProfileResource[];
  /** Role revocation cannot be undone with documented operations: opt in explicitly. */
  allowRoleRevocation?: boolean;
  /** A second credential with fewer permissions, to observe redaction (§2.1, §5). */
  restrictedApiKey?: string;
  /**
   * Fields the restricted credential may not view (permission names are "not
   * shown" in the spec, so the user declares them): any of regrouping,
   * contract_number, external_id (show-teams), indemnity_enabled,
   * compensation_enabled (show-activity-rates).
   */
  restrictedRedactedFields?: string[];
  /** Roles whose associations the restricted credential may not view in list-roles (§4.6, §5). */
  restrictedHiddenRoleIds?: string[];
}

export function kindById(profile: TargetProfile, id: string): ProfileKind | undefined {
  return profile.kinds.find((k) => k.id === id);
}

/** Does the role define a kind (§4.1 rule 2), as the profile says by its kinds or by the role itself? */
export function definesAKind(profile: TargetProfile, roleId: string): boolean {
  return (
    profile.kinds.some((k) => k.definingRoleId === roleId) ||
    profile.roles.some((r) => r.id === roleId && r.definesKindId !== undefined)
  );
}

export function listKindId(profile: TargetProfile): string | undefined {
  return profile.listKindId ?? profile.kinds[0]?.id;
}
