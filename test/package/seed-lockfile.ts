/**
 * A package-lock.json for a user's empty project, so `npm install --offline`
 * of the packed tarball works from the local npm cache alone.
 *
 * Why a seeded lockfile: npm (11.x) resolves every dependency range it has no
 * lockfile entry for by fetching the full registry document of the package
 * (`Accept: application/json`), and `npm ci` caches only tarballs (and, at
 * most, the abbreviated documents), so a bare `npm install --offline
 * <tarball>` fails with ENOTCACHED on a machine that has just run `npm ci`.
 * With each dependency pinned to the version this repository's lockfile
 * holds (the version `npm ci` put in the cache), npm takes the tarballs from
 * the cache by integrity and needs no registry document. A dependency the
 * package declares but the repository's lockfile lacks is left out here, so
 * npm asks the registry for it and the offline install fails: the test sees it.
 */

interface LockEntry {
  version?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

export interface PackedManifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
}

/**
 * The lockfile of a project whose package.json depends on `file:<tarball>`
 * and on `extra` (names of packages the repository's lockfile holds, e.g.
 * vitest), at the versions of `repoPackages` (the `packages` of this
 * repository's package-lock.json).
 */
export function seedLockfile(
  repoPackages: Record<string, LockEntry>,
  packed: PackedManifest,
  tarball: string,
  extra: readonly string[],
): { lockfile: object; rootDependencies: Record<string, string> } {
  const rootDependencies: Record<string, string> = { [packed.name]: `file:${tarball}` };
  for (const name of extra) rootDependencies[name] = repoPackages[`node_modules/${name}`]!.version!;
  const packages: Record<string, LockEntry> = {
    '': { name: 'user-project', dependencies: rootDependencies },
    [`node_modules/${packed.name}`]: {
      version: packed.version,
      resolved: `file:${tarball}`,
      ...(packed.dependencies ? { dependencies: packed.dependencies } : {}),
      ...(packed.peerDependencies ? { peerDependencies: packed.peerDependencies } : {}),
      ...(packed.peerDependenciesMeta ? { peerDependenciesMeta: packed.peerDependenciesMeta } : {}),
      ...(packed.bin ? { bin: packed.bin } : {}),
    },
  };
  // Node's lookup: the package's own node_modules, then each folder above it.
  const locate = (from: string, name: string): string | undefined => {
    for (let at = from; ;) {
      const path = at === '' ? `node_modules/${name}` : `${at}/node_modules/${name}`;
      if (packages[path] ?? repoPackages[path]) return path;
      if (at === '') return undefined;
      const cut = at.lastIndexOf('/node_modules/');
      at = cut < 0 ? '' : at.slice(0, cut);
    }
  };
  const queue = [`node_modules/${packed.name}`, ...extra.map((name) => `node_modules/${name}`)];
  const seen = new Set<string>();
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const entry = packages[path] ?? repoPackages[path]!;
    // The repository installs these as dev dependencies; in the user's project they are runtime ones.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry;
    packages[path] ??= kept;
    const optionalPeers = Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional === true);
    const needed = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      // npm installs the peers a package needs; optional ones only when something else asks for them.
      ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers.some(([o]) => o === n)),
    ];
    for (const name of needed) {
      const found = locate(path, name);
      if (found) queue.push(found);
    }
  }
  return { lockfile: { name: 'user-project', lockfileVersion: 3, requires: true, packages }, rootDependencies };
}
