/**
 * `npm run build` starts from an empty dist/: a spec file removed from
 * specs/ must not live on in dist/, in `rules` or in the packed tarball.
 * The build's steps before tsc are run here in a scratch folder holding a
 * stale dist/ (tsc itself is not run: `npm test` builds once, and other
 * tests read that dist/).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-build-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('the build removes dist/ before tsc writes it', async () => {
  const pkg: unknown = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  const scripts = pkg !== null && typeof pkg === 'object' && 'scripts' in pkg ? pkg.scripts : undefined;
  const build = scripts !== null && typeof scripts === 'object' && 'build' in scripts ? scripts.build : undefined;
  expect(typeof build).toBe('string');
  const steps = String(build).split(' && ');
  expect(steps.at(-1)).toBe('tsc -p tsconfig.build.json');
  await mkdir(join(dir, 'dist', 'specs'), { recursive: true });
  await writeFile(join(dir, 'dist', 'specs', 'removed.spec.js'), 'export default {};\n');
  for (const step of steps.slice(0, -1)) await exec('sh', ['-c', step], { cwd: dir });
  await expect(stat(join(dir, 'dist'))).rejects.toThrow(/ENOENT/);
});
