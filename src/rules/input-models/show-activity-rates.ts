/** The input model of resources.show-activity-rates, derived from its request schema (see reads.ts). */
import type { InputModelOf } from './model.ts';
import { readInputModel } from './reads.ts';

export const showActivityRatesInputModel: InputModelOf = (profile) =>
  readInputModel('resources.show-activity-rates', profile);
