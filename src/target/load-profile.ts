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
  return withKnownZones(profile, path);
}

/** The profile, once each of its time zones is one the runtime's time-zone database knows. */
function withKnownZones(profile: TargetProfile, what: string): TargetProfile {
  const unknown = (profile.timeZones ?? []).findIndex((zone) => !isTimeZone(zone));
  if (unknown >= 0) {
    throw new ProfileError(
      `the target profile ${what}: timeZones[${unknown}] ${JSON.stringify(profile.timeZones?.[unknown])} is not a time zone of the time-zone database this runtime carries (an IANA name such as Europe/Paris)`,
    );
  }
  return profile;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A profile given as an object (runConformance's `profile`), checked as a file's is; `what` names it. */
export function checkProfile(data: unknown, what: string): TargetProfile {
  if (validate(data)) return withKnownZones(data, what);
  const problems = problemsOf(validate.errors ?? [], data);
  throw new ProfileError(`${oneLine(what, problems)} (the format: fixtures/target-profile.schema.json)`);
}
