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
