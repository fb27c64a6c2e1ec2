/**
 * The package as a user gets it: packed, installed with npm into an empty
 * project outside the repository, offline from the local npm cache (on CI,
 * `npm ci` has just put every dependency there), then the CLI, the
 * programmatic API and the vitest helper are used from it, with no
 * TypeScript tooling in between. `npm test` builds dist/ first; the pack here
 * skips the `prepare` build so no test reads dist/ while it is rewritten.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedLockfile, type PackedManifest } from './seed-lockfile.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
let project: string;
let installed: string;

/** Runs a command in the project; resolves with its output and exit code, never throws on a non-zero exit. */
async function sh(
  cmd: string,
  args: string[],
  cwd = project,
  env = cleanEnv(),
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec(cmd, args, { cwd, maxBuffer: 32 * 1024 * 1024, env });
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
  // Outside the repository: the project finds nothing but what npm installed into it.
  project = await mkdtemp(join(tmpdir(), 'dc-pack-'));
  const packed = await sh('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], ROOT);
  expect(packed.code, packed.out).toBe(0);
  const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
  const manifest = JSON.parse((await sh('tar', ['-xzOf', tarball, 'package/package.json'])).out) as PackedManifest;

  const init = await sh('npm', ['init', '-y']);
  expect(init.code, init.out).toBe(0);
  const repoLock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Parameters<typeof seedLockfile>[0];
  };
  // vitest is the user's own dependency (the helper's optional peer), at the version the repository uses.
  const { lockfile, rootDependencies } = seedLockfile(repoLock.packages, manifest, tarball, ['vitest']);
  const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
  pkg.type = 'module';
  pkg.dependencies = { vitest: rootDependencies.vitest };
  await writeFile(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
  await writeFile(join(project, 'package-lock.json'), JSON.stringify(lockfile, null, 2));
  const install = await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`]);
  expect(install.code, install.out).toBe(0);
  installed = join(project, 'node_modules', 'directory-conformance');
}, 120_000);

afterAll(() => rm(project, { recursive: true, force: true }));

describe('the installed package', () => {
  test('npm installed it and its dependencies: the tree is complete, the bin linked', async () => {
    const ls = await sh('npm', ['ls', '--all', '--offline']);
    expect(ls.code, ls.out).toBe(0);
    expect(ls.out).toContain('directory-conformance@');
    expect(await readdir(join(project, 'node_modules', '.bin'))).toContain('directory-conformance');
  });

  test('ships built JavaScript, the spec and the fixtures, and no TypeScript sources or tests', async () => {
    const dir = installed;
    const top = (await readdir(dir)).sort();
    expect(top).toEqual(expect.arrayContaining(['README.md', 'bin', 'dist', 'docs', 'fixtures', 'package.json']));
    expect(top).not.toContain('test');
    expect(top).not.toContain('src');
    expect(await readdir(join(dir, 'docs'))).toEqual(expect.arrayContaining(['spec.md']));
  });

  test('every relative link of the packaged README reaches a file the package ships', async () => {
    const readme = await readFile(join(installed, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#:\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(['docs/architecture.md', 'CONTRIBUTING.md']));
    const missing: string[] = [];
    for (const link of new Set(links)) {
      if (
        !(await readFile(join(installed, link)).then(
          () => true,
          () => false,
        ))
      )
        missing.push(link);
    }
    expect(missing).toEqual([]);
  });

  test('its built files import exactly the runtime dependencies it declares (vitest a peer)', async () => {
    const dir = installed;
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
    // And the reverse: a runtime dependency nothing imports is weight every user installs for nothing.
    expect(Object.keys(pkg.dependencies).filter((n) => !imported.has(n))).toEqual([]);
    expect([...imported].sort()).toEqual(expect.arrayContaining(['ajv', 'fast-check', 'undici']));
    expect(pkg.dependencies).not.toHaveProperty('tsx');
    expect(pkg.dependencies).not.toHaveProperty('vitest');
  });

  test('the CLI runs', async () => {
    const help = await sh('node', ['node_modules/.bin/directory-conformance', '--help']);
    expect(help.code, help.out).toBe(0);
    expect(help.out).toContain('directory-conformance run');
    // The listing names no source file the package does not ship.
    const listing = await sh('node', ['node_modules/.bin/directory-conformance', 'rules']);
    expect(listing.code, listing.out).toBe(0);
    expect(listing.out).toContain('§4.9 Pagination protocol');
    expect(listing.out).not.toContain('.ts');
    const runHelp = await sh('node', ['node_modules/.bin/directory-conformance', 'run', '--help']);
    expect(runHelp.out).not.toContain('src/');
    const rules = await sh('node', ['node_modules/.bin/directory-conformance', 'rules', '--json']);
    expect(rules.code, rules.out).toBe(0);
    expect((JSON.parse(rules.out) as { rules: unknown[] }).rules.length).toBeGreaterThan(50);
    // The manifest is a file of a clone; the installed package says so instead of writing into node_modules.
    const write = await sh('node', ['node_modules/.bin/directory-conformance', 'rules', '--write-manifest']);
    expect(write.code, write.out).toBe(2);
    expect(write.out).toContain('rules --json');
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
    // The user's own vitest, installed beside the package.
    const args = ['node_modules/vitest/vitest.mjs', 'run', '--reporter=verbose'];
    const { code, out } = await sh('node', args);
    expect(code, out).toBe(0);
    expect(out).toContain('pagination.exact-multiple-empty-page');
    expect(out).toMatch(/Tests\s+\d+ passed/);
  }, 60_000);
});

/** The first fenced block of `lang` under a page's heading `heading` (its own section, not the next one's). */
function readmeBlock(readme: string, heading: string, lang: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = heading.split(' ')[0] ?? '##';
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{2,${level.length}} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  const block = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1];
  expect(block, `${heading}: a ${lang} block`).toBeDefined();
  return block ?? '';
}

/**
 * The README's own examples, as a user copies them into a project that
 * installed the tarball: the quick start's `npm start`, "A read-only run"
 * of "Your own server in five steps", and docs/programmatic.md's "From code" and "Inside your own
 * vitest suite", each block taken from the packaged page and run as written, with only its placeholders
 * (the server's address, keys and file names) filled in, against a server
 * `npx directory-conformance serve` started in the same project.
 */
describe("the README's examples, line by line, in a user's project", () => {
  let serve: ChildProcess | undefined;
  let url = '';
  let apiKey = '';
  let restrictedKey = '';
  let readme = '';
  let programmatic = '';
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...cleanEnv(), ...extra });

  beforeAll(async () => {
    readme = await readFile(join(installed, 'README.md'), 'utf8');
    programmatic = await readFile(join(installed, 'docs', 'programmatic.md'), 'utf8');
    // As the README's "The embedded reference server" says, with the profile written to a file; the bin npx would run, started directly so that the process this test stops is the server itself.
    const bin = join('node_modules', '.bin', 'directory-conformance');
    const child = spawn('node', [bin, 'serve', '--port', '0', '--profile-out', 'my-target.json'], {
      cwd: project,
      env: env(),
    });
    serve = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('target profile written to')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    url = /listening at (\S+)/.exec(out)?.[1] ?? '';
    apiKey = /^API key:\s+(\S+)/m.exec(out)?.[1] ?? '';
    restrictedKey = /^restricted API key:\s+(\S+)/m.exec(out)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(apiKey).not.toBe('');
  }, 60_000);

  afterAll(() => {
    serve?.kill();
  });

  test('quick start: `npm start` prints a line per rule, in order, and a summary, and writes the reports', async () => {
    const quick = readmeBlock(readme, '## Quick start', 'sh');
    expect(quick).toContain('npm start');
    // A user's project has no start script: the package's own is what the quick start runs (its `npm install`
    // is the clone's, which this project did with the tarball).
    const start = await sh('npm', ['start', '--silent', '--', '--seed', '1'], installed);
    expect(start.code, start.out).toBe(0);
    const lines = start.out.split('\n').filter((l) => /^\[ *\d+\/\d+\] /.test(l));
    const total = Number(/^\[ *\d+\/(\d+)\]/.exec(lines[0] ?? '')?.[1]);
    expect(total).toBeGreaterThan(50);
    expect(lines.map((l) => Number(/^\[ *(\d+)\//.exec(l)?.[1]))).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    );
    expect(start.out).toMatch(/\nCONFORMANT: /);
    for (const file of ['index.html', 'junit.xml', 'results.json'])
      expect(await readFile(join(installed, 'reports', file), 'utf8')).not.toBe('');
  }, 120_000);

  test('"A read-only run": the block as written, with the keys, address and profile filled in', async () => {
    const block = readmeBlock(readme, '### 3. A read-only run', 'sh')
      .replace('export DIRECTORY_API_KEY=...', `export DIRECTORY_API_KEY='${apiKey}'`)
      .replace('export DIRECTORY_RESTRICTED_API_KEY=...', `export DIRECTORY_RESTRICTED_API_KEY='${restrictedKey}'`)
      .replace('https://directory.example.test', url);
    expect(block).not.toContain('...');
    const r = await sh('sh', ['-c', `set -e\n${block}`], project);
    expect(r.code, r.out).toBe(0);
    // Without --allow-mutations more than a quarter of the catalogue is skipped, and the first line says so.
    expect(r.out).toMatch(/\nCONFORMANT \(\d+ of \d+ rules skipped: the outcome covers only the rest\): /);
    expect((await readdir(join(project, 'reports'))).sort()).toEqual(
      expect.arrayContaining(['exchanges.har', 'index.html', 'junit.xml', 'results.json', 'summary.md']),
    );
  }, 120_000);

  test('"From code": the block as written runs as a module and prints the outcome', async () => {
    await writeFile(join(project, 'staging-expectations.json'), JSON.stringify({ expectations: [] }));
    const code = readmeBlock(programmatic, '## From code', 'js')
      .replace("'https://staging.example.com'", JSON.stringify(url))
      .replace("'staging-profile.json'", "'my-target.json'")
      .replace("reports: 'reports'", "reports: 'api-reports'");
    await writeFile(join(project, 'from-code.mjs'), code);
    // The block reads the key from the environment, as a user's CI gives it.
    const r = await sh('node', ['from-code.mjs'], project, env({ DIRECTORY_API_KEY: apiKey }));
    expect(r.code, r.out).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe('conformant 1 true');
    expect(await readdir(join(project, 'api-reports'))).toEqual(expect.arrayContaining(['results.json']));
  }, 120_000);

  test('"Inside your own vitest suite": the file as written, run by the user\'s own vitest', async () => {
    const dir = join(project, 'suite');
    await mkdir(dir);
    await writeFile(
      join(dir, 'conformance.test.mjs'),
      readmeBlock(programmatic, '## Inside your own vitest suite', 'js'),
    );
    // The block names profile.json beside the test file.
    await writeFile(join(dir, 'profile.json'), await readFile(join(project, 'my-target.json')));
    const r = await sh(
      'node',
      ['../node_modules/vitest/vitest.mjs', 'run', '--reporter=verbose'],
      dir,
      env({
        DIRECTORY_BASE_URL: url,
        DIRECTORY_API_KEY: apiKey,
        DIRECTORY_RESTRICTED_API_KEY: restrictedKey,
      }),
    );
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('pagination.exact-multiple-empty-page');
    expect(r.out).toMatch(/Tests\s+\d+ passed/);
  }, 120_000);
});
