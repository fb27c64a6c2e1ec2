/**
 * What every operation's input model is: the factors a covering array
 * varies (each field of the request schema, with its value classes), the
 * classes a target profile cannot serve and why, and the fields held fixed.
 * Each operation's model lives in its own file (`<operation>.ts`, a function
 * of the profile) and is registered in `index.ts`.
 */
import type { CoveringFactor } from '../../arbitraries/index.ts';
import type { OperationName } from '../../schemas/operations.ts';
import type { TargetProfile } from '../../target/profile.ts';

export const OMITTED = 'omitted';
/** The class of a factor that applies only beside another, in a row where that other is not sent. */
export const NOT_SENT = 'not sent';
/** How many ids a list input's long class sends: enough to show a server that caps or truncates lists. */
export const LONG_LIST = 100;

/** Where a factor's classes come from, as `rules --coverage` says it. */
export const FROM = {
  schema: 'the request schema',
  profile: "the target profile's work regimes",
  attributes: "the target profile's attribute names",
  ranges: "the target's own periods or assignations, as a wide read shows them",
  calendar: 'the calendar around the data; the days clocks change from the time-zone database (Intl)',
  idLists: "the target profile's resources, roles and teams",
  text: 'examples of text beyond ASCII',
  naughty: 'examples of text beyond ASCII; the Big List of Naughty Strings 2.0.4 (MIT, fixtures/naughty-strings.json)',
  ownRange: "the resource's own periods",
  listIds: 'the ids the list answered',
  listText: 'the values the list answered; examples of text beyond ASCII',
  limit: 'the request schema; the size of the data',
  revocations: 'the roles and teams the resources hold, as last read',
  orderOfLists: 'the order of a list input (it never matters)',
  heldOn: "the first role's scope, as last read",
} as const;

/** A class of a factor this target cannot be sent, and why. */
export interface Unservable {
  factor: string;
  class: string;
  why: string;
}

/** A field of the request the covering array does not vary, and why. */
export interface FixedField {
  field: string;
  why: string;
}

export interface InputModel {
  operation: OperationName;
  /** The factors and the classes this target can be sent (what the covering array covers). */
  factors: CoveringFactor[];
  /** Where each factor's classes come from, by factor name (`rules --coverage` shows it). */
  sources: Readonly<Record<string, string>>;
  unservable: Unservable[];
  fixed: FixedField[];
  /** False for a (partial) row whose classes exclude each other (a text value without a text filter). */
  allowed(row: ReadonlyArray<string | undefined>): boolean;
}

/** An operation's input model for a target profile. */
export type InputModelOf = (profile: TargetProfile) => InputModel;

/** `factors` without the classes `unservable` names. */
export function servableFactors(
  factors: readonly CoveringFactor[],
  unservable: readonly Unservable[],
): CoveringFactor[] {
  return factors.map((f) => ({
    name: f.name,
    classes: f.classes.filter((c) => !unservable.some((u) => u.factor === f.name && u.class === c)),
  }));
}
