/**
 * The GitHub Action, checked without GitHub: its YAML has the documented
 * inputs and steps, and its script steps, run here with a fake
 * $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT against a faulty reference server,
 * write the summary, annotate the failing rule and end with the run's exit code.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { using: string; steps: Step[] };
}

let action: Action;
let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as Action;
  server = await startReferenceServer({ faults: ['revoke-star-removes-role'] });
  dir = await mkdtemp(join(tmpdir(), 'dc-action-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('action.yml', () => {
  test('a composite action with the documented inputs, an artifact upload and a summary step', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'base-url',
        'profile',
        'service-version',
        'expectations',
        'min-coverage',
        'allow-mutations',
        'shard',
      ]),
    );
    const uses = action.runs.steps.map((s) => s.uses).filter(Boolean);
    expect(uses).toEqual(expect.arrayContaining(['actions/setup-node@v4', 'actions/upload-artifact@v4']));
    expect(action.runs.steps.map((s) => s.id)).toEqual(expect.arrayContaining(['run', 'summary', 'verdict']));
  });

  test('its script steps write the job summary, annotate each failing rule and exit with the verdict', async () => {
    const profile = join(dir, 'profile.json');
    const { restrictedApiKey: _omit, ...p } = server.profile;
    await writeFile(profile, JSON.stringify(p));
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])),
      'base-url': server.url,
      profile,
      'allow-mutations': 'true',
      reports: join(dir, 'reports'),
    };
    const summaryFile = join(dir, 'step-summary.md');
    const outputFile = join(dir, 'github-output');
    await writeFile(summaryFile, '');
    await writeFile(outputFile, '');
    const outputs = async (): Promise<Record<string, string>> =>
      Object.fromEntries(
        (await readFile(outputFile, 'utf8'))
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    const resolve = async (text: string): Promise<string> => {
      const out = await outputs();
      return text
        .replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? '')
        .replace(/\$\{\{\s*github\.action_path\s*\}\}/g, ROOT)
        .replace(/\$\{\{\s*steps\.run\.outputs\.exit-code\s*\}\}/g, out['exit-code'] ?? '');
    };
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
    const results: Record<string, { code: number; out: string }> = {};
    for (const step of action.runs.steps.filter((s) => s.id && ['run', 'summary', 'verdict'].includes(s.id))) {
      const env: NodeJS.ProcessEnv = {
        ...base,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_OUTPUT: outputFile,
        DIRECTORY_API_KEY: server.apiKey,
        NO_COLOR: '1',
      };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = await resolve(v);
      try {
        const { stdout, stderr } = await exec('bash', ['-e', '-c', await resolve(step.run!)], { cwd: dir, env });
        results[step.id!] = { code: 0, out: stdout + stderr };
      } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        results[step.id!] = { code: err.code, out: err.stdout + err.stderr };
      }
    }
    expect(results.run!.code, results.run!.out).toBe(0);
    expect((await outputs())['exit-code']).toBe('1');
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary).toContain('## Directory conformance: ❌ not conformant');
    expect(summary).toContain('`revoke-roles.star-leaves-no-team`');
    expect(results.summary!.out).toContain(
      '::error title=FAIL revoke-roles.star-leaves-no-team::§4.1 rule 5: list-roles after',
    );
    expect(results.verdict!.code).toBe(1);
    expect(summary.includes(server.apiKey)).toBe(false);
  }, 120_000);
});
