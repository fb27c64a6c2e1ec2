/**
 * The layers of docs/architecture.md, enforced: a module imports only from its
 * own part and the parts below it. Read from the source text (static imports,
 * re-exports and literal dynamic imports), so a new upward import fails here
 * before it tangles the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect, test } from 'vitest';

/** Each part and the parts it may import from (its own part is always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  'src/core': [],
  'src/schemas': ['src/core'],
  'src/target': ['src/core', 'fixtures'],
  'src/client': ['src/core'],
  'src/arbitraries': ['src/core', 'src/schemas'],
  'src/rules': ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/arbitraries'],
  specs: ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/arbitraries', 'src/rules'],
  properties: ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/arbitraries', 'src/rules'],
  'src/runner': ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/rules'],
  'src/gate': ['src/core'],
  'src/report': ['src/core', 'src/gate'],
  'src/reference-server': ['src/core', 'src/schemas', 'src/target'],
  'src/hostile-server': ['src/core'],
  'src/mutation': ['src/core', 'src/target', 'src/rules', 'src/runner', 'src/reference-server'],
  'src/session': [
    'src/core',
    'src/target',
    'src/rules',
    'src/runner',
    'src/gate',
    'src/report',
    'src/reference-server',
  ],
  'src/api': [
    'src/core',
    'src/target',
    'src/rules',
    'src/runner',
    'src/gate',
    'src/reference-server',
    'src/report',
    'src/session',
  ],
  'src/vitest': ['src/core', 'src/rules', 'src/api'],
  'src/cli': ['*'],
};

const ROOT = join(import.meta.dirname, '..', '..');
const PARTS = Object.keys(ALLOWED).sort((a, b) => b.length - a.length);

function partOf(file: string): string | undefined {
  return (
    PARTS.find((p) => file === p || file.startsWith(`${p}/`)) ?? (file.startsWith('fixtures/') ? 'fixtures' : undefined)
  );
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g;

/** Every relative import of a file, as a path from the repository root. */
export function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2]!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) =>
      relative(ROOT, normalize(join(ROOT, dirname(file), spec)))
        .split('\\')
        .join('/'),
    );
}

test('no module imports from a layer above its own', () => {
  const upward: string[] = [];
  for (const top of ['src', 'specs', 'properties']) {
    for (const file of sourceFiles(top)) {
      const from = partOf(file);
      expect(from, `${file} belongs to no part of docs/architecture.md`).toBeDefined();
      const allowed = ALLOWED[from!]!;
      for (const target of importsOf(file, readFileSync(join(ROOT, file), 'utf8'))) {
        const to = partOf(target);
        if (to === from || allowed.includes('*') || (to !== undefined && allowed.includes(to))) continue;
        upward.push(`${file} → ${target}`);
      }
    }
  }
  expect(upward).toEqual([]);
});

test('the import reader sees what it must (so the check above can fail)', () => {
  const text =
    "import { a } from '../runner/x.ts';\nexport { b } from './y.ts';\nconst m = await import('../../specs/z.ts');";
  expect(importsOf('src/rules/file.ts', text)).toEqual(['src/runner/x.ts', 'src/rules/y.ts', 'specs/z.ts']);
});
