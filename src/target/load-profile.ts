import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import schema from '../../fixtures/target-profile.schema.json' with { type: 'json' };
import { oneLine, problemsOf } from '../schemas/files.ts';
import type { TargetProfile } from './profile.ts';

/** A profile file that cannot be read or does not match fixtures/target-profile.schema.json. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  readonly code = 'DC_ERR_PROFILE';
}

/** The schema allows `$schema` beside the profile's fields, for editors; the profile itself has none. */
const validate = new Ajv({ strict: true, allErrors: true, verbose: true }).compile<
  TargetProfile & { $schema?: string }
>(schema);

export async function loadProfile(path: string): Promise<TargetProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ProfileError(`cannot read the target profile ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(`the target profile ${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!validate(data)) {
    const problems = problemsOf(validate.errors ?? [], data);
    throw new ProfileError(
      `the target profile ${oneLine(path, problems)} (the format: fixtures/target-profile.schema.json)`,
    );
  }
  const { $schema: _ignored, ...profile } = data;
  return profile;
}

/** A profile given as an object (runConformance's `profile`), checked as a file's is; `what` names it. */
export function checkProfile(data: unknown, what: string): TargetProfile {
  if (validate(data)) return data;
  const problems = problemsOf(validate.errors ?? [], data);
  throw new ProfileError(`${oneLine(what, problems)} (the format: fixtures/target-profile.schema.json)`);
}
