/**
 * Judges of one answer of the other reads (§4.4, §4.5, §4.6), each for the
 * rule whose clause holds the answer's shape. The steps that read them run
 * these for every rule; recorded traffic can be judged by them too.
 */
import type { Violation } from '../../core/types.ts';
import { validateSchema, type SchemaName } from '../../schemas/index.ts';
import { answered, noVerdict, type ExchangeJudge, type Observed } from './observed.ts';

/** The answer is a 200 whose body matches `schema`. */
function shapeOf(schema: SchemaName): (o: Observed) => Violation[] {
  return (o) => {
    if (noVerdict(o)) return [];
    const missing = answered(o, schema);
    return missing.length > 0 ? missing : validateSchema(schema, o.body, `${o.step}: response.body`);
  };
}

/** list-roles answers a plain array, without a pagination envelope (§4.6, §4.9 rule 8). */
function plainArray(o: Observed): Violation[] {
  if (noVerdict(o)) return [];
  const missing = answered(o, 'array');
  if (missing.length > 0) return missing;
  if (Array.isArray(o.body)) return [];
  return [
    {
      where: `${o.step}: response.body`,
      message: 'must be a plain JSON array (no pagination envelope)',
      expected: 'array',
      actual: o.body,
    },
  ];
}

/** Each association's shape, once the answer is an array (the array itself is the plain-array rule's). */
function associations(o: Observed): Violation[] {
  if (o.status !== 200 || !Array.isArray(o.body)) return [];
  return validateSchema('RoleAssociationList', o.body, `${o.step}: response.body`);
}

/** list-roles answers a plain array. */
export const ROLES_PLAIN_ARRAY: ExchangeJudge = {
  name: 'a plain array of associations',
  operation: 'resources.list-roles',
  judge: plainArray,
};
/** Each association list-roles answers has its §2.3 shape. */
export const ROLES_ASSOCIATIONS: ExchangeJudge = {
  name: 'the shape of each association',
  operation: 'resources.list-roles',
  judge: associations,
};
/** show-teams answers a list of §2.4 assignations. */
export const TEAMS_SHAPE: ExchangeJudge = {
  name: 'the shape of the team assignations',
  operation: 'resources.show-teams',
  judge: shapeOf('TeamAssignationList'),
};
/** show-activity-rates answers a list of §2.5 periods. */
export const RATES_SHAPE: ExchangeJudge = {
  name: 'the shape of the activity rate periods',
  operation: 'resources.show-activity-rates',
  judge: shapeOf('ActivityRatePeriodList'),
};

export const READ_ANSWER_JUDGES: readonly ExchangeJudge[] = [
  ROLES_PLAIN_ARRAY,
  ROLES_ASSOCIATIONS,
  TEAMS_SHAPE,
  RATES_SHAPE,
];

/** The judges of one operation's answers, in order. */
export function judgesOf(operation: string): readonly ExchangeJudge[] {
  return READ_ANSWER_JUDGES.filter((j) => j.operation === operation);
}
