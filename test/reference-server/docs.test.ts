/**
 * docs/reference-server.md tells a user how to start the server: every
 * option of `serve` (as its --help lists them) and every variant by its name
 * and what it does, so none is found only by reading the source.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SERVE_HELP } from '../../src/cli/help.ts';
import { VARIANTS } from '../../src/reference-server/variants.ts';

const doc = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'reference-server.md'), 'utf8');

test("every option of serve's --help is in the doc's table", () => {
  const options = [...SERVE_HELP.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
  expect(options.length).toBeGreaterThan(8);
  for (const option of options) expect(doc, String(option)).toMatch(new RegExp(`\\| \`${option}[ \`]`));
});

test('every variant is in the doc with what it does', () => {
  for (const [name, what] of Object.entries(VARIANTS)) expect(doc).toContain(`| \`${name}\` | ${what} |`);
});
