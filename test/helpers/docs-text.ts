/**
 * The project's documentation as the tests that check its figures read it:
 * the README and every page of docs/ (the spec aside), each page on its own
 * or all of them joined. A figure may move between pages; its check follows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** One page by its path from the repository root (README.md, docs/…). */
export function docsPage(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** The README and every docs/ page but the spec, joined, whitespace folded to single spaces. */
export function allDocsText(): string {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'spec.md')
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages].map(docsPage).join('\n').replace(/\s+/g, ' ');
}
