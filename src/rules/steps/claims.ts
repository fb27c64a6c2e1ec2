/** Claiming the profile's mutable resources, by what the rule needs of them. */
import { kindById } from '../../target/profile.ts';
import { precondition } from '../assertions.ts';
import type { BaseCheckContext, ResourcePredicate } from '../types.ts';

type ClaimContext = Pick<BaseCheckContext, 'profile' | 'claimResource'>;

/** Resources of a kind that supports roles (employees and integrations, §4.1 rule 1). */
export function ofRoleKind(ctx: Pick<BaseCheckContext, 'profile'>): ResourcePredicate {
  return (_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true;
}

/** Resources of a kind without roles. */
export function ofKindWithoutRoles(ctx: Pick<BaseCheckContext, 'profile'>): ResourcePredicate {
  return (_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === false;
}

/** A mutable resource of a role-supporting kind, or SKIP when none is left. */
export async function claimRoleResource(ctx: ClaimContext): Promise<string> {
  const id = await ctx.claimResource(ofRoleKind(ctx));
  precondition(id, 'no mutable resource of a role-supporting kind is left');
  return id;
}
