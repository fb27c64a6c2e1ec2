/**
 * Files the package ships beside its code (docs/spec.md, specs/manifest.json,
 * fixtures/) are found from the package root, never from a path relative to
 * the module: the same module runs from src/ (tsx, in a clone) and from
 * dist/src/ (the built package), one folder deeper, so a fixed `../../` points
 * into dist/ once built.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'directory-conformance';

let root: string | undefined;

/** The folder of the nearest package.json above `from` that is this package's. */
export function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && nameOf(JSON.parse(readFileSync(manifest, 'utf8'))) === NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json of ${NAME} above ${from}`);
  }
}

/** The package root: the clone, or the installed package's folder in node_modules. */
export function packageRoot(): string {
  root ??= findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  return root;
}

/** A path inside the package root, e.g. `packagePath('docs', 'spec.md')`. */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}

/** The `name` of a parsed package.json, if it has one. */
function nameOf(manifest: unknown): unknown {
  return typeof manifest === 'object' && manifest !== null && 'name' in manifest ? manifest.name : undefined;
}
