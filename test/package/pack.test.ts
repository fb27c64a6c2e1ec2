/**
 * The package as a user gets it: packed, installed into an empty project from
 * the local npm cache (offline), then the CLI, the programmatic API and the
 * vitest helper are used from it, with no TypeScript tooling in between.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
let project: string;

/** Runs a command in the project; resolves with its output and exit code, never throws on a non-zero exit. */
async function sh(cmd: string, args: string[], cwd = project): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec(cmd, args, { cwd, maxBuffer: 32 * 1024 * 1024, env: cleanEnv() });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** The environment without the npm_* variables of the npm process that started the tests (they steer nested npm runs). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  return { ...env, NO_COLOR: '1' };
}

beforeAll(async () => {
  // Inside the repository, so the user's project finds the runtime dependencies the way an
  // installed package does, in a node_modules above it (the network is not needed); that
  // the package declares each of them is checked below from the imports of its built files.
  await mkdir(join(ROOT, '.tmp'), { recursive: true });
  project = await mkdtemp(join(ROOT, '.tmp', 'pack-'));
  const packed = await sh('npm', ['pack', '--silent', '--pack-destination', project], ROOT);
  expect(packed.code, packed.out).toBe(0);
  const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  const installed = join(project, 'node_modules', 'directory-conformance');
  await mkdir(installed, { recursive: true });
  const untar = await sh('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  expect(untar.code, untar.out).toBe(0);
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
  await symlink(
    '../directory-conformance/bin/directory-conformance.mjs',
    join(project, 'node_modules', '.bin', 'directory-conformance'),
  );
}, 180_000);

afterAll(() => rm(project, { recursive: true, force: true }));

describe('the installed package', () => {
  test('ships built JavaScript, the spec and the fixtures, and no TypeScript sources or tests', async () => {
    const dir = join(project, 'node_modules', 'directory-conformance');
    const top = (await readdir(dir)).sort();
    expect(top).toEqual(expect.arrayContaining(['README.md', 'bin', 'dist', 'docs', 'fixtures', 'package.json']));
    expect(top).not.toContain('test');
    expect(top).not.toContain('src');
    expect(await readdir(join(dir, 'docs'))).toEqual(['spec.md']);
  });

  test('every package its built files import is a dependency it declares (vitest a peer)', async () => {
    const dir = join(project, 'node_modules', 'directory-conformance');
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    const imported = new Set<string>();
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const path = join(d, e.name);
        if (e.isDirectory()) await walk(path);
        else if (e.name.endsWith('.js') || e.name.endsWith('.mjs')) {
          const text = await readFile(path, 'utf8');
          for (const m of text.matchAll(/\bfrom\s+'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/g)) {
            const spec = (m[1] ?? m[2])!;
            const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
            if (!spec.startsWith('node:') && !builtinModules.includes(name) && name !== 'directory-conformance')
              imported.add(name);
          }
        }
      }
    };
    await walk(join(dir, 'dist'));
    await walk(join(dir, 'bin'));
    expect([...imported].filter((n) => !declared.has(n))).toEqual([]);
    expect([...imported].sort()).toEqual(expect.arrayContaining(['ajv', 'fast-check', 'undici']));
    expect(pkg.dependencies).not.toHaveProperty('tsx');
    expect(pkg.dependencies).not.toHaveProperty('vitest');
  });

  test('the CLI runs', async () => {
    const help = await sh('node', ['node_modules/.bin/directory-conformance', '--help']);
    expect(help.code, help.out).toBe(0);
    expect(help.out).toContain('directory-conformance run');
    const run = await sh('node', [
      'node_modules/.bin/directory-conformance',
      'run',
      '--section',
      '4.9',
      '--reports',
      'r',
    ]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('CONFORMANT');
    expect((await readdir(join(project, 'r'))).sort()).toEqual([
      'exchanges.har',
      'index.html',
      'junit.xml',
      'results.json',
      'summary.md',
    ]);
  }, 60_000);

  test('runConformance and startReferenceServer import from the package', async () => {
    const script = [
      "import { runConformance, startReferenceServer } from 'directory-conformance';",
      'const server = await startReferenceServer();',
      "const run = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, profile: server.profile, rules: ['pagination.*'], rate: 0 });",
      'await server.close();',
      'console.log(JSON.stringify({ total: run.summary.total, conformant: run.summary.conformant }));',
    ].join('\n');
    await writeFile(join(project, 'api.mjs'), script);
    const { code, out } = await sh('node', ['api.mjs']);
    expect(code, out).toBe(0);
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as { total: number; conformant: boolean };
    expect(result.conformant).toBe(true);
    expect(result.total).toBeGreaterThan(5);
  }, 60_000);

  test('the vitest helper registers one test per rule in a user’s vitest file', async () => {
    await writeFile(
      join(project, 'conformance.test.mjs'),
      "import { conformanceSuite } from 'directory-conformance/vitest';\nawait conformanceSuite({ sections: ['4.9'] });\n",
    );
    // The user's own vitest config (else vitest would find this repository's, above the project).
    await writeFile(join(project, 'vitest.config.mjs'), "export default { test: { include: ['*.test.mjs'] } };\n");
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', '--root', project, '--config', 'vitest.config.mjs', '--reporter=verbose'];
    const { code, out } = await sh('node', args);
    expect(code, out).toBe(0);
    expect(out).toContain('pagination.exact-multiple-empty-page');
    expect(out).toMatch(/Tests\s+\d+ passed/);
  }, 60_000);
});
