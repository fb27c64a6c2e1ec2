/** The directory the reference server holds in memory. */
import type { Span } from './days.ts';

export interface Kind {
  id: string;
  name: string;
  supportsRoles: boolean;
  definingRoleId?: string;
}

export interface Role {
  id: string;
  name: string;
  definesKindId?: string;
  /** The restricted key may not view associations of this role. */
  hiddenFromRestricted?: boolean;
}

export interface Team {
  id: string;
  name: string;
  enabled: boolean;
}

export interface WorkRegime {
  id: string;
  label: { en: string; fr: string; de: string };
  weekly_worked_hours: string;
  weekly_worked_days: number;
}

export interface Sector {
  id: string;
  workRegimeId: string;
}

export interface Resource {
  id: string;
  kindId: string;
  index: number;
  label: string;
  shortLabel: string;
  sortLabel: string;
  pictureUrl: string;
  sectorId: string;
  attributes: Record<string, string>;
}

export interface RoleHolding {
  roleId: string;
  /** '*' follows every team, also those created later; an array is an explicit list. */
  teams: '*' | string[];
  /** Variant 'unassigned-rows': a removed role still listed with is_assigned false. */
  unassigned?: boolean;
  /** Fault 'revoke-star-remembered': the list came from `*`, and the server still thinks of it so. */
  fromStar?: boolean;
  /** Fault 'revoke-second-narrowing-restores': the explicit list before its first narrowing. */
  narrowedFrom?: string[];
}

export interface TeamAssignation {
  teamId: string;
  head: boolean;
  span: Span;
  regrouping: string;
  contractNumber: string;
  externalId: string;
}

export type Pattern = Record<
  'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday',
  number
>;

export interface RatePeriod {
  span: Span;
  averageRate: number;
  patterns: Pattern[];
  workRegimeId: string;
  paidHourly: boolean;
  apprentice: boolean;
  trainee: boolean;
  indemnityEnabled: boolean;
  compensationEnabled: boolean;
  externalId?: string;
}

export interface Relation {
  relation_type_id: string;
  related_to: string;
  related_by: string[];
}

/** State of one resource that operations change; created on first use. */
export interface ResourceDetails {
  roles: RoleHolding[];
  teams: TeamAssignation[];
  rates: RatePeriod[];
  relations: Relation[];
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
