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
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
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
  dir = await mkdtemp(join(tmpdir(), 'dc-action-'));
});
// A server of its own for each test: the revocations of an earlier test's run cannot be undone, and a
// verdict must not hang on the state an earlier run left.
beforeEach(async () => {
  server = await startReferenceServer({ faults: ['revoke-star-removes-role'] });
});
afterEach(async () => {
  await server.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs the action's script steps (run, summary, verdict; or those named) as GitHub would, with
 * the inputs' defaults overridden by `given`, a fake $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT.
 */
async function runSteps(
  given: Record<string, string>,
  ids: readonly string[] = ['run', 'summary', 'verdict'],
): Promise<{
  results: Record<string, { code: number; out: string }>;
  summary: string;
  outputs: Record<string, string>;
}> {
  const work = await mkdtemp(join(dir, 'steps-'));
  const profile = join(work, 'profile.json');
  const { restrictedApiKey: _omit, ...p } = server.profile;
  await writeFile(profile, JSON.stringify(p));
  const inputs: Record<string, string> = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])),
    'base-url': server.url,
    profile,
    reports: join(work, 'reports'),
    ...given,
  };
  const summaryFile = join(work, 'step-summary.md');
  const outputFile = join(work, 'github-output');
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
  for (const step of action.runs.steps.filter((s) => s.id && ids.includes(s.id))) {
    const env: NodeJS.ProcessEnv = {
      ...base,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'org/repo',
      GITHUB_RUN_ID: '42',
      DIRECTORY_API_KEY: server.apiKey,
      NO_COLOR: '1',
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = await resolve(v);
    try {
      const { stdout, stderr } = await exec('bash', ['-e', '-c', await resolve(step.run!)], { cwd: work, env });
      results[step.id!] = { code: 0, out: stdout + stderr };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      results[step.id!] = { code: err.code, out: err.stdout + err.stderr };
    }
  }
  return { results, summary: await readFile(summaryFile, 'utf8'), outputs: await outputs() };
}

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

  test('it keeps the history folder between runs with the cache: restored before the run, saved after it', () => {
    expect(action.inputs.history?.default).toBe('conformance-history');
    interface CacheStep extends Step {
      if?: string;
      with?: Record<string, string>;
    }
    const steps: CacheStep[] = action.runs.steps;
    const ids = steps.map((s) => s.id);
    const restore = steps.find((s) => s.uses === 'actions/cache/restore@v4');
    const save = steps.find((s) => s.uses === 'actions/cache/save@v4');
    expect(restore?.with?.path).toBe('${{ inputs.history }}');
    expect(save?.with?.path).toBe('${{ inputs.history }}');
    // Each run saves under a key of its own (a cache is never overwritten); the next restores the newest by prefix.
    expect(save?.with?.key).toContain('${{ github.run_id }}');
    expect(restore?.with?.key).toBe(save?.with?.key);
    expect(save?.with?.key?.startsWith(restore?.with?.['restore-keys'] ?? '-')).toBe(true);
    expect(save?.if).toContain('always()');
    // One history per shard and per matrix job (its index, and history-key where given): no job overwrites another's.
    expect(action.inputs['history-key']?.default).toBe('');
    expect(save?.with?.['key']).toContain('${{ inputs.shard }}');
    expect(save?.with?.['key']).toContain('${{ strategy.job-index }}');
    expect(restore?.with?.['restore-keys']).toContain('${{ strategy.job-index }}');
    expect(save?.with?.['key']).toContain('${{ inputs.history-key }}');
    // A merge job keeps a history too: its merged runs (merge --history).
    expect(restore?.if).not.toContain('merge');
    expect(save?.if).not.toContain('merge');
    expect(ids.indexOf(restore?.id)).toBeLessThan(ids.indexOf('run'));
    expect(ids.indexOf(save?.id)).toBeGreaterThan(ids.indexOf('run'));
    const run = steps.find((s) => s.id === 'run');
    expect(run?.env?.INPUT_HISTORY).toBe('${{ inputs.history }}');
    expect(run?.run).toContain('--history "$INPUT_HISTORY"');
  });

  test('its install step builds once, and survives a job-level NODE_ENV=production', () => {
    const install = action.runs.steps.find((s) => s.id === 'install')!.run!;
    expect(install).toContain('npm ci');
    expect(install).toContain('--include=dev');
    // npm ci already builds through `prepare`.
    expect(install).not.toContain('npm run build');
  });

  test('its script steps write the job summary, annotate each failing rule and exit with the verdict', async () => {
    const { results, summary, outputs } = await runSteps({ 'allow-mutations': 'true' });
    expect(results.run!.code, results.run!.out).toBe(0);
    expect(outputs['exit-code']).toBe('1');
    expect(summary).toContain('## Directory conformance: ❌ not conformant');
    expect(summary).toContain('`revoke-roles.star-leaves-no-team`');
    expect(results.summary!.out).toContain(
      '::error title=FAIL revoke-roles.star-leaves-no-team::§4.1 rule 5: list-roles after',
    );
    expect(results.verdict!.code).toBe(1);
    expect(summary.includes(server.apiKey)).toBe(false);
  }, 120_000);

  test('a known failure the expectations excuse is a notice, not an error, and the job passes', async () => {
    const expectations = join(dir, 'expectations.json');
    await writeFile(
      expectations,
      JSON.stringify({
        expectations: [
          { rule: 'revoke-roles.star-leaves-no-team', reason: 'vendor ticket 123' },
          // The model-based properties find the same fault where their draws meet it (at seed 1 they do),
          // and the pairwise revocations revoke `*` too. A rule listed that passes is an unexpected pass.
          { rule: 'revoke-roles.prop.model-sequences', reason: 'vendor ticket 123' },
          { rule: 'revoke-roles.prop.concurrent-sequences', reason: 'vendor ticket 123' },
          { rule: 'revoke-roles.prop.pairwise-combinations', reason: 'vendor ticket 123' },
        ],
      }),
    );
    // A fixed seed: which properties' draws meet the fault must not change between runs of the test.
    const { results, outputs } = await runSteps({ 'allow-mutations': 'true', expectations, seed: '1' });
    expect(outputs['exit-code'], results.run!.out).toBe('0');
    expect(results.summary!.out).not.toContain('::error');
    expect(results.summary!.out).toContain(
      '::notice title=known failure revoke-roles.star-leaves-no-team::§4.1 rule 5: list-roles after',
    );
    expect(results.summary!.out).toContain('(known: vendor ticket 123)');
    expect(results.verdict!.code).toBe(0);
  }, 120_000);

  test('a run that stops before writing reports still writes a job summary with its exit code', async () => {
    // Nothing listens on port 1: preflight finds the target unreachable, exit 2, no reports.
    const { results, summary, outputs } = await runSteps({ 'base-url': 'http://127.0.0.1:1' });
    expect(outputs['exit-code']).toBe('2');
    expect(summary).toContain('the run stopped before writing its reports');
    expect(summary).toContain('exit code 2');
    expect(summary).toContain('Run the conformance suite');
    expect(summary).toContain('https://github.example/org/repo/actions/runs/42');
    expect(results.summary!.code).toBe(0);
    expect(results.summary!.out).toContain('::error title=Directory conformance stopped::');
    expect(results.verdict!.code).toBe(2);
  }, 120_000);

  test('two shards in a matrix, each changing its own share of the resources, merged in a final job', async () => {
    const shards = join(dir, 'shards');
    const journaled: string[][] = [];
    for (const shard of ['1/2', '2/2']) {
      const reports = join(shards, shard.replace('/', '-of-'));
      const { results, outputs } = await runSteps({ 'allow-mutations': 'true', shard, reports }, [
        'run',
        'summary',
        'artifact',
      ]);
      expect(['0', '1'], results.run!.out).toContain(outputs['exit-code']);
      expect(outputs.name).toBe(`conformance-reports-${shard.replace('/', '-of-')}`);
      const journal = (await readFile(join(reports, 'journal.jsonl'), 'utf8')).trim().split('\n');
      journaled.push([
        ...new Set(journal.map((l) => (JSON.parse(l) as { resourceId?: string }).resourceId).filter((id) => !!id)),
      ] as string[]);
    }
    // Each shard changed resources, and no resource was changed by both.
    expect(journaled.every((ids) => ids.length > 0)).toBe(true);
    expect(journaled[0]!.filter((id) => journaled[1]!.includes(id))).toEqual([]);

    const merged = join(dir, 'merged');
    const { results, summary, outputs } = await runSteps(
      { merge: join(shards, '*', 'results.json'), reports: merged, 'base-url': '', profile: '' },
      ['run', 'summary', 'artifact', 'verdict'],
    );
    expect(results.run!.out).toContain('merged 2 results file(s)');
    expect(outputs.name).toBe('conformance-reports');
    expect(summary).toContain('## Directory conformance: ❌ not conformant');
    expect(results.summary!.out).toContain('::error title=FAIL revoke-roles.star-leaves-no-team::');
    expect(results.verdict!.code).toBe(1);
    const run = JSON.parse(await readFile(join(merged, 'results.json'), 'utf8')) as { selection: { shard?: unknown } };
    expect(run.selection.shard).toBeUndefined();
    // The merge job keeps the merged run in its history folder, as a run job keeps its run.
    expect(results.run!.out).toContain('history: the first run kept in conformance-history');
    expect(summary).toContain('History: the first run kept.');
  }, 180_000);

  test('without base-url and profile, and not merging, the run step stops with exit code 2', async () => {
    const { results, outputs } = await runSteps({ 'base-url': '', profile: '' }, ['run']);
    expect(outputs['exit-code']).toBe('2');
    expect(results.run!.out).toContain('base-url and profile are required');
  });

  test('with no exit code at all (the install failed) the summary still says the run stopped', async () => {
    const { summary } = await runSteps({}, ['summary']);
    expect(summary).toContain('the run stopped before writing its reports');
    expect(summary).toContain('the suite did not get to run');
  });
});

describe('action/annotate.mjs', () => {
  /** A results.json with one failure of each kind. */
  function results(strict: boolean): object {
    const result = (ruleId: string, level: string, verdict: string) => ({
      ruleId,
      level,
      verdict,
      clause: '§4.9 rule 1',
      violations: verdict === 'FAIL' ? [{ where: 'page 2', message: `${ruleId} broke` }] : [],
      ...(verdict === 'ERROR' ? { reason: 'timeout' } : {}),
    });
    return {
      options: strict ? { strict: true } : {},
      gate: { knownFailures: [{ rule: 'known.must', reason: 'ticket 7', expires: '2099-01-01' }] },
      results: [
        result('new.must', 'MUST', 'FAIL'),
        result('known.must', 'MUST', 'FAIL'),
        result('departure.inferred', 'INFERRED', 'FAIL'),
        result('harness.error', 'MUST', 'ERROR'),
        result('passed.must', 'MUST', 'PASS'),
      ],
    };
  }

  async function annotate(run: object): Promise<string[]> {
    const file = join(dir, `results-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(run));
    const { stdout } = await exec('node', [join(ROOT, 'action', 'annotate.mjs'), file]);
    return stdout.trim().split('\n');
  }

  test('errors only for failures that count: MUST, not known; INFERRED a warning unless --strict', async () => {
    const lines = await annotate(results(false));
    expect(lines.filter((l) => l.startsWith('::error'))).toEqual([
      '::error title=FAIL new.must::§4.9 rule 1: page 2: new.must broke',
    ]);
    expect(lines).toContain(
      '::notice title=known failure known.must::§4.9 rule 1: page 2: known.must broke (known: ticket 7, expires 2099-01-01)',
    );
    expect(lines).toContain(
      '::warning title=FAIL departure.inferred (INFERRED%3A counts only with --strict)::§4.9 rule 1: page 2: departure.inferred broke',
    );
    expect(lines).toContain('::warning title=ERROR harness.error::§4.9 rule 1: timeout');
    expect(lines.join('\n')).not.toContain('passed.must');
  });

  test('in a --strict run an INFERRED departure is an error too', async () => {
    const lines = await annotate(results(true));
    expect(lines.filter((l) => l.startsWith('::error')).map((l) => l.split('::')[1])).toEqual([
      'error title=FAIL new.must',
      'error title=FAIL departure.inferred',
    ]);
  });
});
