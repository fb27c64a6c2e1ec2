/**
 * The vitest helper in a vitest run of its own, with vitest's JUnit reporter:
 * a SKIPped rule is <skipped/> and its reason reaches the XML (as a
 * `skip-reason` property), although that reporter drops skip notes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { childElements, parseXml, type XmlElement } from '../report/helpers/xml-tree.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;

/** Every element named `name` at any depth. */
function all(el: XmlElement, name: string): XmlElement[] {
  return childElements(el).flatMap((c) => [...(c.name === name ? [c] : []), ...all(c, name)]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-vitest-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('a skipped rule carries its reason into vitest’s JUnit XML', async () => {
  const junit = join(dir, 'junit.xml');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  await exec(
    'node',
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--root',
      join(ROOT, 'test', 'fixtures', 'vitest-helper'),
      'skips',
      '--reporter=junit',
      `--outputFile.junit=${junit}`,
    ],
    { cwd: ROOT, env: { ...env, NO_COLOR: '1' } },
  );
  const xml = await readFile(junit, 'utf8');
  const cases = Object.fromEntries(
    all(parseXml(xml), 'testcase').map((c) => [c.attributes.name!.split(' > ').at(-1)!, c]),
  );
  const skipped = cases['activity-rates.assign-no-content']!;
  expect(all(skipped, 'skipped')).toHaveLength(1);
  const property = all(skipped, 'property').find((p) => p.attributes.name === 'skip-reason');
  expect(property?.attributes.value).toBe('SKIP: read-only run: this rule changes state');
  expect(all(cases['pagination.envelope']!, 'skipped')).toEqual([]);
}, 60_000);
