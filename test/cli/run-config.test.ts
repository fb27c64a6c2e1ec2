/**
 * One run configuration: flags, environment, a config file and
 * `runConformance` parse into one object checked against one schema
 * (fixtures/run-config.schema.json). Unknown options and values the program
 * cannot honour are refused in one line, exit 2, before anything is sent;
 * paths that are not regular files are refused without being opened.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { RUN_HELP } from '../../src/cli/help.ts';
import { main } from '../../src/cli/main.ts';
import { UsageError } from '../../src/core/errors.ts';
import {
  RUN_CONFIG_SCHEMA_PATH,
  RUN_OPTION_SCHEMAS,
  annotation,
  renderRunConfigSchema,
} from '../../src/schemas/run-config.ts';
import { CONFIG_FILE_NAME, resolveRunConfig } from '../../src/session/run-config.ts';
import { conformanceSuite } from '../../src/vitest/index.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';

interface Captured {
  code: number;
  out: string;
  err: string;
}

async function cli(args: string[]): Promise<Captured> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (err += `${l}\n`) });
  return { code, out, err };
}

/** The first line of what the CLI said on stderr: the refusal itself (the second, if any, points at --help). */
function refusal(r: Captured): string {
  expect(r.code, r.out + r.err).toBe(2);
  const lines = r.err.trim().split('\n');
  expect(lines.length, r.err).toBeLessThanOrEqual(2);
  expect(lines[1] ?? 'see `directory-conformance --help`').toBe('see `directory-conformance --help`');
  return lines[0] ?? '';
}

/** Options as a caller who writes plain JavaScript may pass them: not checked by the compiler. */
function untyped(json: string): Parameters<typeof runConformance>[0] {
  return JSON.parse(json) as Parameters<typeof runConformance>[0];
}

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-config-'));
  // Any request reaching this server is one the refusal should have prevented.
  server = await startTestServer((_req, res) => {
    res.writeHead(500).end();
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const external = (): string[] => ['--base-url', server.url, '--profile', 'fixtures/example-profile.json'];

describe('unknown options are refused in one line, with the known one meant', () => {
  test('through the API: runConformance({ bogusOption: 1 }) throws a UsageError naming it', async () => {
    await expect(runConformance(untyped('{"bogusOption": 1}'))).rejects.toThrow(UsageError);
    await expect(runConformance(untyped('{"bogusOption": 1}'))).rejects.toThrow(
      /^runConformance: unknown option bogusOption$/,
    );
    await expect(runConformance(untyped('{"requestTimeoutMS": 1000}'))).rejects.toThrow(
      'runConformance: unknown option requestTimeoutMS (did you mean requestTimeoutMs?)',
    );
  });

  test('through the vitest helper, before any test is made', async () => {
    await expect(conformanceSuite(untyped('{"bogusOption": 1}'))).rejects.toThrow(/unknown option bogusOption/);
  });

  test('through a config file: the file and the JSON path are named', async () => {
    const file = join(dir, 'typo.config.json');
    await writeFile(file, JSON.stringify({ tmeout: 5000 }));
    expect(refusal(await cli(['run', '--config', file]))).toBe(
      `error: ${file}: unknown option /tmeout (did you mean /requestTimeoutMs?)`,
    );
    await writeFile(file, JSON.stringify({ shard: { index: 0, count: 2 } }));
    expect(refusal(await cli(['run', '--config', file]))).toBe(`error: ${file}: /shard/index must be >= 1, got 0`);
    await writeFile(file, '{"seed": 1,');
    expect(refusal(await cli(['run', '--config', file]))).toMatch(new RegExp(`^error: ${file}: not JSON`));
  });

  test('via a CLI flag', async () => {
    const line = refusal(await cli(['run', ...external(), '--tmeout', '5000']));
    expect(line).toBe('error: unknown option --tmeout (did you mean --timeout?)');
    expect(server.requests).toHaveLength(0);
  });
});

describe('precedence: flags, then environment, then the config file, then the defaults', () => {
  test('each source overrides the ones below it, option by option', async () => {
    const file = join(dir, 'layers.config.json');
    await writeFile(file, JSON.stringify({ concurrency: 2, seed: 5, serviceVersion: 'from-file', reports: 'out' }));
    const config = await resolveRunConfig({
      configFile: { path: file, required: true },
      env: { DIRECTORY_SERVICE_VERSION: 'from-env' },
      flags: { concurrency: '3' },
      defaults: { reports: 'reports' },
    });
    expect(config.concurrency).toBe(3); // flag over file
    expect(config.serviceVersion).toBe('from-env'); // environment over file
    expect(config.seed).toBe(5); // file over the random default
    expect(config.reports).toBe(join(dir, 'out')); // file over the caller's default, relative to the file
    expect(config.requestTimeoutMs).toBe(15_000); // the schema's default
    expect(config.rate).toBe(0); // the embedded server's rate
  });

  test('--depth comes from a flag, DIRECTORY_DEPTH, the config file or the API (default: default); others are refused', async () => {
    const file = join(dir, 'depth.config.json');
    await writeFile(file, JSON.stringify({ depth: 'quick' }));
    const configFile = { path: file, required: true };
    expect((await resolveRunConfig({})).depth).toBe('default');
    expect((await resolveRunConfig({ configFile })).depth).toBe('quick');
    expect((await resolveRunConfig({ configFile, env: { DIRECTORY_DEPTH: 'deep' } })).depth).toBe('deep');
    expect((await resolveRunConfig({ env: { DIRECTORY_DEPTH: 'deep' }, flags: { depth: 'default' } })).depth).toBe(
      'default',
    );
    expect((await resolveRunConfig({ api: { depth: 'deep' } })).depth).toBe('deep');
    await expect(resolveRunConfig({ flags: { depth: 'deeper' } })).rejects.toThrow(
      '--depth must be one of quick, default, deep, got "deeper"',
    );
  });

  test('the CLI reads the config file of the working folder, and a flag wins over it', async () => {
    const work = join(dir, 'work');
    await mkdir(work, { recursive: true });
    await writeFile(
      join(work, CONFIG_FILE_NAME),
      JSON.stringify({ seed: 77, rules: ['pagination.limit-respected'], reports: 'from-config', quiet: true }),
    );
    const before = process.cwd();
    process.chdir(work);
    try {
      const fromFile = await cli(['run']);
      expect(fromFile.code, fromFile.err).toBe(0);
      const results = JSON.parse(await readFile(join(work, 'from-config', 'results.json'), 'utf8')) as {
        options: { seed: number };
        selection: { rules: string[] };
      };
      expect(results.options.seed).toBe(77);
      expect(results.selection.rules).toEqual(['pagination.limit-respected']);

      const flagged = await cli(['run', '--seed', '78', '--reports', 'from-flag']);
      expect(flagged.code, flagged.err).toBe(0);
      const again = JSON.parse(await readFile(join(work, 'from-flag', 'results.json'), 'utf8')) as {
        options: { seed: number };
      };
      expect(again.options.seed).toBe(78);
    } finally {
      process.chdir(before);
    }
  });
});

describe('bad input refused, bounded: one line, exit 2, nothing sent', () => {
  test('a timeout beyond the longest timer (2^31-1 ms), through the flag and the API', async () => {
    expect(refusal(await cli(['run', ...external(), '--timeout', '3000000000']))).toBe(
      'error: --timeout must be an integer number of ms from 1 to 2147483647 (the longest timer Node keeps), got 3000000000',
    );
    await expect(runConformance({ ruleTimeoutMs: 2 ** 31 })).rejects.toThrow(/^runConformance: ruleTimeoutMs must be/);
    expect(server.requests).toHaveLength(0);
  });

  test('a seed that is no 32-bit integer', async () => {
    expect(refusal(await cli(['run', ...external(), '--seed', '1e30']))).toBe(
      'error: --seed must be a 32-bit integer, from -2147483648 to 2147483647, got 1e+30',
    );
    await expect(runConformance({ seed: 0.5 })).rejects.toThrow(/seed must be a 32-bit integer/);
    expect(refusal(await cli(['run', ...external(), '--num-runs', '9007199254740993']))).toMatch(/^error: --num-runs/);
    expect(server.requests).toHaveLength(0);
  });

  test('a profile, expectations file, config file or journal that is a FIFO or a folder, never opened', async () => {
    const fifo = join(dir, 'profile.fifo');
    execFileSync('mkfifo', [fifo]);
    // Reading a FIFO with no writer waits for ever: each refusal below returning at all shows it was not opened.
    expect(refusal(await cli(['run', '--base-url', server.url, '--profile', fifo]))).toBe(
      `error: the target profile ${fifo} is a FIFO, not a regular file`,
    );
    expect(refusal(await cli(['run', '--base-url', server.url, '--profile', dir]))).toBe(
      `error: the target profile ${dir} is a folder, not a regular file`,
    );
    expect(refusal(await cli(['run', ...external(), '--expectations', fifo]))).toBe(
      `error: the expectations file ${fifo} is a FIFO, not a regular file`,
    );
    expect(refusal(await cli(['run', '--config', fifo]))).toBe(
      `error: the config file ${fifo} is a FIFO, not a regular file`,
    );
    expect(refusal(await cli(['restore', fifo]))).toBe(`error: the journal ${fifo} is a FIFO, not a regular file`);
    await expect(runConformance({ baseUrl: server.url, profile: fifo })).rejects.toThrow(/is a FIFO/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('the schema is the one list of options', () => {
  test('fixtures/run-config.schema.json is the schema the code checks with (`npm run manifest` writes it)', async () => {
    expect(await readFile(RUN_CONFIG_SCHEMA_PATH, 'utf8')).toBe(renderRunConfigSchema());
  });

  test("`run --help` names every option's flag and environment variable", () => {
    for (const option of RUN_OPTION_SCHEMAS.keys()) {
      const flag = annotation(option, 'flag');
      if (flag) expect(RUN_HELP, option).toContain(`--${flag}`);
      const env = annotation(option, 'env');
      if (env) expect(RUN_HELP, option).toContain(env);
    }
    expect(RUN_HELP).toContain('--config FILE');
  });
});
