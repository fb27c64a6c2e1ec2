/**
 * The layers of docs/architecture.md, enforced: a module imports only from its
 * own part and the parts below it. Read from the source text, every form an
 * import can take (with and without `from`, type-only, re-exports, literal
 * dynamic imports), so a new upward import fails here before it tangles the
 * code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect, test } from 'vitest';

/** Each part and the parts it may import from (its own part is always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  'src/core': [],
  'src/schemas': ['src/core'],
  'src/target': ['src/core', 'src/schemas', 'fixtures'],
  // The client types each operation's request by its schema (src/schemas/operations.ts).
  'src/client': ['src/core', 'src/schemas'],
  // The corpus of naughty strings is a committed data file (fixtures/naughty-strings.json).
  'src/arbitraries': ['src/core', 'src/schemas', 'fixtures'],
  'src/rules': ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/arbitraries'],
  specs: ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/arbitraries', 'src/rules'],
  properties: ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/arbitraries', 'src/rules'],
  // The engine loads the rule groups (runner/catalogue.ts), so it sits above them.
  'src/runner': ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/rules', 'specs', 'properties'],
  'src/gate': ['src/core', 'src/schemas'],
  'src/report': ['src/core', 'src/gate'],
  'src/reference-server': ['src/core', 'src/schemas', 'src/target'],
  'src/hostile-server': ['src/core'],
  'src/mutation': [
    'src/core',
    'src/schemas',
    'src/target',
    'src/rules',
    'src/runner',
    'src/report',
    'src/reference-server',
  ],
  'src/session': [
    'src/core',
    'src/schemas',
    'src/target',
    // The proxy forwards and decodes answers as the client does (client/decode.ts) and redacts them (client/redact.ts).
    'src/client',
    'src/rules',
    'src/runner',
    'src/gate',
    'src/report',
    'src/reference-server',
  ],
  'src/api': [
    'src/core',
    'src/schemas',
    'src/target',
    'src/rules',
    'src/runner',
    'src/gate',
    'src/reference-server',
    'src/report',
    'src/session',
  ],
  'src/vitest': ['src/core', 'src/rules', 'src/runner', 'src/api'],
  // init reads a live target with the client and the rules' readers of JSON answers.
  'src/init': ['src/core', 'src/schemas', 'src/target', 'src/client', 'src/rules'],
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

/**
 * A statement that starts with `import` or `export` and ends in a module
 * specifier, with or without a `from` clause before it (`import './x.ts'` has
 * none), or a dynamic `import('./x.ts')` anywhere. A statement starts a line
 * or follows a `;`, so words in comments and strings do not count.
 */
const IMPORT =
  /(?:^|[\n;])[ \t]*(?:import|export)\b(?:[^'"`;]*?\bfrom)?\s*(['"])([^'"\n]+)\1|\bimport\s*\(\s*(['"])([^'"\n]+)\3\s*\)/g;

/** Every relative import of a file, as a path from the repository root. */
export function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)]
    .map((m) => m[2] ?? m[4]!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) =>
      relative(ROOT, normalize(join(ROOT, dirname(file), spec)))
        .split('\\')
        .join('/'),
    );
}

/** The imports of `files` that reach a part their own part may not import from, as "file → target". */
function upwardImports(
  files: ReadonlyArray<{ file: string; text: string }>,
  computed: (file: string) => string[] = () => [],
): string[] {
  const upward: string[] = [];
  for (const { file, text } of files) {
    const from = partOf(file);
    expect(from, `${file} belongs to no part of docs/architecture.md`).toBeDefined();
    const allowed = ALLOWED[from!]!;
    for (const target of [...importsOf(file, text), ...computed(file)]) {
      const to = partOf(target);
      if (to === from || allowed.includes('*') || (to !== undefined && allowed.includes(to))) continue;
      upward.push(`${file} → ${target}`);
    }
  }
  return upward;
}

/**
 * Imports whose target is computed at run time, and the folders they reach:
 * the catalogue loader imports every rule file it finds. A computed import
 * anywhere else fails the check below, so none escapes the layer check.
 */
const COMPUTED_IMPORTS: Record<string, readonly string[]> = {
  'src/runner/catalogue.ts': ['specs', 'properties'],
};

/** `import(` with anything but a string literal inside. */
const COMPUTED = /\bimport\s*\(\s*(?!['"])/;

function allFiles(): Array<{ file: string; text: string }> {
  return ['src', 'specs', 'properties'].flatMap((top) =>
    [...sourceFiles(top)].map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') })),
  );
}

/** Every import of every file, literal or computed (a computed one as each file it may reach). */
/** The files a computed import of `file` may reach. */
function reachedBy(file: string): string[] {
  return (COMPUTED_IMPORTS[file] ?? []).flatMap((top) => [...sourceFiles(top)]);
}

function importGraph(files: ReadonlyArray<{ file: string; text: string }>): Map<string, string[]> {
  return new Map(files.map(({ file, text }) => [file, [...importsOf(file, text), ...reachedBy(file)]]));
}

/** The import circles of a graph (Tarjan's strongly connected components of two or more files). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (;;) {
      const w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('no module imports from a layer above its own, computed imports included', () => {
  const files = allFiles();
  const computed = files.filter(({ text }) => COMPUTED.test(text)).map(({ file }) => file);
  expect(computed.sort(), 'every computed import is named in COMPUTED_IMPORTS').toEqual(
    Object.keys(COMPUTED_IMPORTS).sort(),
  );
  expect(upwardImports(files, reachedBy)).toEqual([]);
});

test('no import circles among the source files, type imports included', () => {
  expect(circles(importGraph(allFiles()))).toEqual([]);
});

test('the circle finder finds a circle (so the check above can fail)', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
    ['e', ['e']],
  ]);
  expect(circles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
});

test('the import reader sees every form of import (so the check above can fail)', () => {
  const text = [
    "import { a } from '../runner/x.ts';",
    "import type { T } from '../report/t.ts';",
    "import '../cli/main.ts';",
    'import "../gate/double.ts";',
    "import * as ns from '../api/ns.ts';",
    "import d, {\n  e,\n  f,\n} from '../mutation/multi.ts';",
    "export { b } from './y.ts';",
    "export * from '../vitest/star.ts';",
    "export type { U } from '../runner/u.ts';",
    "const m = await import('../../specs/z.ts');",
    'const n = () => import( "../../properties/p.ts" );',
    "let x = 1; import '../report/after-semicolon.ts';",
  ].join('\n');
  expect(importsOf('src/rules/file.ts', text)).toEqual([
    'src/runner/x.ts',
    'src/report/t.ts',
    'src/cli/main.ts',
    'src/gate/double.ts',
    'src/api/ns.ts',
    'src/mutation/multi.ts',
    'src/rules/y.ts',
    'src/vitest/star.ts',
    'src/runner/u.ts',
    'specs/z.ts',
    'properties/p.ts',
    'src/report/after-semicolon.ts',
  ]);
});

test('the import reader ignores what is not an import', () => {
  const text = [
    "// import '../cli/main.ts';",
    " * import { a } from '../cli/main.ts';",
    "const s = 'import ../cli/main.ts';",
    "export const path = '../cli/main.ts';",
    "export function f() { return '../cli/main.ts'; }",
  ].join('\n');
  expect(importsOf('src/rules/file.ts', text)).toEqual([]);
});

test('an upward import of any form fails the layer check', () => {
  const upward = upwardImports([
    { file: 'src/reference-server/a.ts', text: "import '../cli/main.ts';\n" },
    { file: 'src/core/b.ts', text: "export * from '../runner/run-rules.ts';\n" },
    { file: 'src/rules/c.ts', text: "const m = await import('../../specs/list.spec.ts');\n" },
    { file: 'src/client/d.ts', text: "import type { Rule } from '../rules/types.ts';\n" },
    { file: 'src/reference-server/e.ts', text: "import type { TargetProfile } from '../target/profile.ts';\n" },
  ]);
  expect(upward).toEqual([
    'src/reference-server/a.ts → src/cli/main.ts',
    'src/core/b.ts → src/runner/run-rules.ts',
    'src/rules/c.ts → specs/list.spec.ts',
    'src/client/d.ts → src/rules/types.ts',
  ]);
});

test('docs/architecture.md says what the servers may import, as the check allows it', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  for (const server of ['reference-server', 'hostile-server']) {
    const line = doc.split('\n').find((l) => l.trim().startsWith(`${server}:`));
    expect(line, `docs/architecture.md has a line "${server}: … imports …"`).toBeDefined();
    const named = /imports ([^.;(]+)/.exec(line!)?.[1] ?? '';
    const parts = named
      .replace(/\bonly\b/, '')
      .split(/,|\band\b/)
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => `src/${p}`)
      .sort();
    expect(parts, line).toEqual([...ALLOWED[`src/${server}`]!].sort());
  }
});
