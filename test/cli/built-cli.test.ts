/**
 * The built CLI (dist/, written by `npm run build`, which `npm test` runs
 * first): its modules sit one folder deeper than the sources, so any file the
 * package ships beside its code (docs/spec.md, specs/manifest.json) must be
 * found from the package root, not from a path relative to the module.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

test('`rules --json` from the built CLI prints the committed manifest', async () => {
  const { stdout } = await exec('node', [join(ROOT, 'bin', 'directory-conformance.mjs'), 'rules', '--json'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(`${stdout.trimEnd()}\n`).toBe(await readFile(join(ROOT, 'specs', 'manifest.json'), 'utf8'));
});

test('the built manifest module resolves the files of the package root, not of dist/', async () => {
  const built = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'rules', 'manifest.js')).href)) as Record<
    string,
    string
  >;
  expect(built.SPEC_PATH).toBe(join(ROOT, 'docs', 'spec.md'));
  expect(built.MANIFEST_PATH).toBe(join(ROOT, 'specs', 'manifest.json'));
  // `rules --write-manifest` regenerates the source file of a clone, never a copy inside dist/.
  expect(built.RULE_IDS_PATH).toBe(join(ROOT, 'src', 'rules', 'rule-ids.ts'));
});
