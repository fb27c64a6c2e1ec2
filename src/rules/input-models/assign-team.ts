/**
 * The input space of resources.assign-team (§4.3), derived from its request
 * schema (src/schemas/definitions.ts): the resource, the team and the range
 * are held fixed (a resource the rule holds; for each row a team the resource
 * holds no assignation of, over a week of its own inside its head assignation,
 * so the assignation shown over that week is the row's own); a boolean is
 * true, false or omitted; a string the caller supplies is omitted, ASCII or
 * non-ASCII text (accents, ß, CJK, emoji), or a string of the Big List of
 * Naughty Strings (src/arbitraries/naughty-strings.ts). Every field may be omitted: which
 * are required is not shown (§4.3).
 *
 * `head` is the one boolean held: a side assignation (head false, or head
 * left out, whose default is not shown) could not be taken back with the
 * documented operations, so a run on a shared target never sends one.
 */
import { DEFINITIONS } from '../../schemas/definitions.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import type { CoveringFactor } from '../../arbitraries/index.ts';
import { TEXT_CLASSES } from './assign-activity-rate.ts';
import { BOOLEAN_CLASSES } from './reads.ts';
import { FROM, OMITTED, type FixedField, type InputModelOf, type Unservable } from './model.ts';

type SchemaNode = Record<string, unknown>;
const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The class of caller text drawn from the corpus of naughty strings. */
export const NAUGHTY = 'from the naughty strings';

const SIDE_WHY =
  'a side assignation could not be taken back with the documented operations (no operation removes one): only head assignations are sent';

export const assignTeamInputModel: InputModelOf = () => {
  const request: SchemaNode = DEFINITIONS[OPERATION_REQUESTS['resources.assign-team']];
  const properties = isNode(request.properties) ? request.properties : {};
  const factors: CoveringFactor[] = [];
  const sources: Record<string, string> = {};
  const fixed: FixedField[] = [];
  const unservable: Unservable[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isNode(schema)) throw new Error(`the input model cannot read assign-team.${name}`);
    if (schema.$ref === '#/definitions/Snowflake') {
      fixed.push({
        field: name,
        why:
          name === 'resource_id'
            ? 'a resource the rule holds, restored after the rows'
            : 'for each row an enabled team the resource holds no assignation of: the assignation shown over its week is the row’s own',
      });
    } else if (schema.$ref === '#/definitions/DateRange') {
      fixed.push({
        field: name,
        why: 'a week of its own for each row inside the resource’s head assignation, a day apart from the next',
      });
    } else if (schema.type === 'boolean' && name === 'head') {
      fixed.push({ field: name, why: 'true: ' + SIDE_WHY });
      for (const cls of ['false', OMITTED]) unservable.push({ factor: name, class: cls, why: SIDE_WHY });
    } else if (schema.type === 'boolean') {
      factors.push({ name, classes: [...BOOLEAN_CLASSES] });
      sources[name] = FROM.schema;
    } else if (schema.type === 'string') {
      factors.push({ name, classes: [...TEXT_CLASSES, NAUGHTY] });
      sources[name] = FROM.naughty;
    } else {
      throw new Error(`the input model has no classes for assign-team.${name}`);
    }
  }
  return { operation: 'resources.assign-team', factors, sources, unservable, fixed, allowed: () => true };
};
