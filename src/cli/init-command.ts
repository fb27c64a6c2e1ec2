import { writeFile } from 'node:fs/promises';
import { UsageError, isHarnessError } from '../core/errors.ts';
import { discoverProfile } from '../init/discover-profile.ts';
import { checkBaseUrl } from '../session/run-session.ts';
import { INIT_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import { targetClient } from './target-client.ts';
import type { Output } from './run-command.ts';

const INIT_OPTIONS = {
  'base-url': { type: 'string' },
  kinds: { type: 'string' },
  mutable: { type: 'string' },
  attributes: { type: 'string' },
  out: { type: 'string' },
  sample: { type: 'string' },
  force: { type: 'boolean' },
  'service-version': { type: 'string' },
  header: { type: 'string', multiple: true },
  proxy: { type: 'string' },
  'ca-cert': { type: 'string' },
} as const;

/** A comma-separated list of a flag, each item once, none empty. */
function listOf(flag: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${flag} is a comma-separated list with no empty item`);
  return [...new Set(items)];
}

/**
 * `directory-conformance init`: writes a starting profile from the documented
 * reads of a live target (src/init/discover-profile.ts), then names in one
 * line each value the reads could not settle. It sends only reads. It never
 * writes a key: the run takes both keys from the environment.
 * Exit 0 when the profile is written, 2 on a usage or target mistake.
 */
export async function initCommand(argv: string[], io: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseOptions(argv, INIT_OPTIONS);
  if (values.help) {
    io.out(INIT_HELP);
    return 0;
  }
  const baseUrl = values['base-url'] ?? env.DIRECTORY_BASE_URL;
  if (!baseUrl) throw new UsageError('init needs --base-url (or DIRECTORY_BASE_URL): the target to read');
  checkBaseUrl(baseUrl);
  const kinds = listOf('kinds', values.kinds);
  if (kinds.length === 0) throw new UsageError('init needs --kinds ID,ID…: the kinds to test, the listed one first');
  const mutable = listOf('mutable', values.mutable);
  const out = values.out;
  if (!out) throw new UsageError('init needs --out FILE: where the profile goes');
  const sampleSize = Number(values.sample ?? '500');
  if (!Number.isInteger(sampleSize) || sampleSize < 1 || sampleSize > 100_000)
    throw new UsageError(`--sample must be a whole number from 1 to 100000, not ${JSON.stringify(values.sample)}`);
  const apiKey = env.DIRECTORY_API_KEY;
  if (!apiKey) throw new UsageError('init reads with the key in DIRECTORY_API_KEY, which is not set');
  const restrictedKey = env.DIRECTORY_RESTRICTED_API_KEY;
  const { client, redactor, dispatcher } = await targetClient(
    {
      baseUrl,
      serviceVersion: values['service-version'] ?? env.DIRECTORY_SERVICE_VERSION ?? '26.06.25',
      apiKey,
      restrictedApiKey: restrictedKey,
      header: values.header,
      proxy: values.proxy,
      caCert: values['ca-cert'],
    },
    env,
  );
  const restricted = restrictedKey
    ? client.derive({ credential: { apiKey: restrictedKey, placeholder: '$DIRECTORY_RESTRICTED_API_KEY' } })
    : undefined;
  try {
    const { profile, toFill } = await discoverProfile(client, restricted, {
      kinds,
      mutable,
      attributes: listOf('attributes', values.attributes),
      sampleSize,
    });
    const text = `${JSON.stringify({ $schema: './target-profile.schema.json', ...profile }, null, 2)}\n`;
    await writeFile(out, text, { flag: values.force ? 'w' : 'wx' }).catch((e: unknown) => {
      const exists = e instanceof Error && 'code' in e && e.code === 'EEXIST';
      throw new UsageError(
        exists
          ? `${out} exists; give --force to replace it`
          : `cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`,
      );
    });
    io.out(
      `wrote ${out}: ${profile.kinds.length} kinds, ${profile.roles.length} roles, ${profile.teams.length} teams, ` +
        `${profile.mutableResources.length} sandbox resources`,
    );
    if (toFill.length > 0) io.out(`to check or fill in ${out} before a run:`);
    for (const line of toFill) io.out(`  - ${redactor.redact(line)}`);
    io.out(
      `next: directory-conformance run --base-url ${baseUrl} --profile ${out} --dry-run, then without --dry-run ` +
        '(read-only until --allow-mutations)',
    );
    return 0;
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(redactor.redact(e.message));
    if (isHarnessError(e))
      throw new UsageError(`the target cannot be reached: ${redactor.redact(`${e.code}: ${e.message}`)}`);
    throw e;
  } finally {
    await dispatcher.close();
  }
}
