import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import schema from '../../fixtures/target-profile.schema.json' with { type: 'json' };
import type { TargetProfile } from './profile.ts';

/** A profile file that cannot be read or does not match fixtures/target-profile.schema.json. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  readonly code = 'DC_ERR_PROFILE';
}

const validate = new Ajv({ strict: true, allErrors: true }).compile<TargetProfile>(schema);

export async function loadProfile(path: string): Promise<TargetProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ProfileError(`cannot read the target profile ${path}: ${(e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(`the target profile ${path} is not JSON: ${(e as Error).message}`);
  }
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    throw new ProfileError(
      `the target profile ${path} does not match fixtures/target-profile.schema.json: ${problems}`,
    );
  }
  const { $schema: _ignored, ...profile } = data as TargetProfile & { $schema?: string };
  return profile;
}

/** A profile given as an object (runConformance's `profile`), checked as a file's is; `what` names it. */
export function checkProfile(data: unknown, what: string): TargetProfile {
  if (validate(data)) return data;
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
  throw new ProfileError(`${what} does not match fixtures/target-profile.schema.json: ${problems}`);
}
