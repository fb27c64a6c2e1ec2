/**
 * The place a fault-catch declares: the step of the departure (the request or
 * read, as the rule's violations name it) and the field it names there, so a
 * catch says where the departure is, not only that the rule failed. A place is
 * made by `at(step, field)` alone, whose types refuse an empty or a generic
 * step (a page of any walk, a field where the step goes): such a step matches
 * nearly every violation of a rule.
 */

/** Steps that name no departure of their own: any walk has pages, any answer a response. */
export type GenericStep = '' | 'page' | 'pages' | 'all pages' | 'response' | `response.${string}` | `.${string}`;

/** A written step that is not generic (a computed string cannot be checked: it is refused too). */
type SpecificStep<S extends string> = string extends S ? never : S extends GenericStep ? never : S;
/** A written field that is not empty. */
type NonEmpty<F extends string> = string extends F ? never : F extends '' ? never : F;

/** The same list, for places made at run time (a test reads every catch with it). */
export function isGenericStep(step: string): boolean {
  return ['', 'page', 'pages', 'all pages', 'response'].includes(step.trim()) || /^(response\.|\.)/.test(step.trim());
}

export class Place {
  /** Only `at` makes a place: an object of the same shape is not one. */
  declare private readonly brand: 'place';

  private constructor(
    /** A part of the step as the violation's `where` names it. */
    readonly step: string,
    /** The field the violation names after the step; absent where the rule's violations name none. */
    readonly field?: string,
  ) {}

  /**
   * The place of a departure: `at('limit 1, page 2', 'response.body.data')`.
   * The step must be written out and not be generic; the field, when given,
   * not empty. Leave the field out only where the rule's violations name none.
   */
  static readonly at = <S extends string, F extends string = never>(
    step: S & SpecificStep<S>,
    field?: F & NonEmpty<F>,
  ): Place => new Place(step, field);

  /** Does a violation's `where` show this place: the step, and the field after it? */
  shownBy(where: string): boolean {
    const step = where.indexOf(this.step);
    return step >= 0 && (this.field === undefined || where.includes(this.field, step + this.step.length));
  }

  toString(): string {
    return this.field === undefined ? this.step : `${this.step}: ${this.field}`;
  }
}

export const at = Place.at;
