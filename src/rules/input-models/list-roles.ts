/** The input model of resources.list-roles, derived from its request schema (see reads.ts). */
import type { InputModelOf } from './model.ts';
import { readInputModel } from './reads.ts';

export const listRolesInputModel: InputModelOf = (profile) => readInputModel('resources.list-roles', profile);
