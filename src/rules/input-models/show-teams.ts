/** The input model of resources.show-teams, derived from its request schema (see reads.ts). */
import type { InputModelOf } from './model.ts';
import { readInputModel } from './reads.ts';

export const showTeamsInputModel: InputModelOf = (profile) => readInputModel('resources.show-teams', profile);
