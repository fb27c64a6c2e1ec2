/**
 * The vitest helper reads the environment variables `run` reads: with only
 * DIRECTORY_BASE_URL, DIRECTORY_PROFILE, DIRECTORY_API_KEY and
 * DIRECTORY_RESTRICTED_API_KEY set, a rule that needs the restricted key runs
 * (it is not skipped with "set DIRECTORY_RESTRICTED_API_KEY").
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { childElements, parseXml, type XmlElement } from '../report/helpers/xml-tree.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let server: ReferenceServer;

function all(el: XmlElement, name: string): XmlElement[] {
  return childElements(el).flatMap((c) => [...(c.name === name ? [c] : []), ...all(c, name)]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-vitest-env-'));
  server = await startReferenceServer({});
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('DIRECTORY_RESTRICTED_API_KEY reaches the rules that need the restricted key', async () => {
  const { restrictedApiKey: _fromTheEnvironment, ...profile } = server.profile;
  const profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(profile));
  const junit = join(dir, 'junit.xml');
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') && !k.startsWith('DIRECTORY_')),
  );
  await exec(
    'node',
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--root',
      join(ROOT, 'test', 'fixtures', 'vitest-helper'),
      'restricted',
      '--reporter=junit',
      `--outputFile.junit=${junit}`,
    ],
    {
      cwd: ROOT,
      env: {
        ...env,
        NO_COLOR: '1',
        DIRECTORY_BASE_URL: server.url,
        DIRECTORY_PROFILE: profilePath,
        DIRECTORY_API_KEY: server.apiKey,
        DIRECTORY_RESTRICTED_API_KEY: server.restrictedApiKey,
      },
    },
  );
  const cases = all(parseXml(await readFile(junit, 'utf8')), 'testcase');
  expect(cases.map((c) => c.attributes.name?.split(' > ').at(-1))).toEqual(['auth.restricted-fields-redacted']);
  expect(cases.flatMap((c) => [...all(c, 'skipped'), ...all(c, 'failure'), ...all(c, 'error')])).toEqual([]);
}, 60_000);
