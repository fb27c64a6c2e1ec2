import { writeFile } from 'node:fs/promises';
import { startReferenceServer } from '../reference-server/index.ts';
import { SERVE_HELP, namesList } from './help.ts';
import { FAULTS } from '../reference-server/faults.ts';
import { VARIANTS } from '../reference-server/variants.ts';
import { faultNames, variantNames } from './embedded-names.ts';
import { intOption, listening, parseOptions, portOption } from './options.ts';
import type { Output } from './run-command.ts';
import { shellWord } from '../report/shell-quote.ts';

export async function serveCommand(argv: string[], io: Output, stop: Promise<void>): Promise<number> {
  const { values } = parseOptions(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    resources: { type: 'string' },
    fault: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    'profile-out': { type: 'string' },
    'api-key': { type: 'string' },
    'restricted-api-key': { type: 'string' },
    list: { type: 'boolean' },
  });
  if (values.help) {
    io.out(SERVE_HELP);
    return 0;
  }
  if (values.list) {
    io.out(namesList(FAULTS, VARIANTS));
    return 0;
  }
  const host = values.host ?? '127.0.0.1';
  const port = portOption(values.port, 8080);
  const server = await listening(host, port, () =>
    startReferenceServer({
      port,
      host,
      seed: intOption(values.seed, 'seed', 1),
      resources: intOption(values.resources, 'resources', 200, 10),
      ...(values.fault?.length ? { faults: faultNames(values.fault) } : {}),
      ...(values.variant?.length ? { variants: variantNames(values.variant) } : {}),
      ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
      ...(values['restricted-api-key'] ? { restrictedApiKey: values['restricted-api-key'] } : {}),
    }),
  );
  const { restrictedApiKey: _hidden, ...profile } = server.profile;
  io.out(`Directory reference server listening at ${server.url}`);
  if (values.fault?.length) io.out(`faults: ${values.fault.join(', ')} (this server breaks the spec on purpose)`);
  io.out(`API key:            ${server.apiKey}`);
  io.out(`restricted API key: ${server.restrictedApiKey}`);
  io.out('');
  io.out('Run the suite against it:');
  io.out(`  DIRECTORY_API_KEY=<API key> DIRECTORY_RESTRICTED_API_KEY=<restricted API key> \\`);
  const profileFile = values['profile-out'] ?? 'profile.json';
  io.out(
    `  npx directory-conformance run --base-url ${server.url} --profile ${shellWord(profileFile)} --allow-mutations`,
  );
  if (values['profile-out']) {
    await writeFile(values['profile-out'], `${JSON.stringify(profile, null, 2)}\n`);
    io.out(`target profile written to ${values['profile-out']}`);
  } else {
    io.out('');
    io.out('Target profile (save as profile.json):');
    io.out(JSON.stringify(profile, null, 2));
  }
  await stop;
  await server.close();
  return 0;
}
