/**
 * Every relative link of the README and of the docs pages reaches a file of
 * the repository (and, for a link with an anchor into a page, a heading of
 * that page): moving a section between pages cannot leave a link behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).map((n) => `docs/${n}`)].filter((p) =>
  p.endsWith('.md'),
);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? '')));
}

test.for(PAGES)('%s: every relative link reaches a file, every anchor a heading', (page) => {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [file = '', anchor] = target.split('#');
    const path = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file);
    if (!existsSync(path)) broken.push(target);
    else if (anchor && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(anchor)) broken.push(target);
  }
  expect(broken).toEqual([]);
});
