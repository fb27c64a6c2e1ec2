import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchesFileSchema } from '../../src/schemas/files.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { xmlProblems } from '../helpers/xml.ts';

let dir: string;
const RULE = 'pagination.exact-multiple-empty-page';
const FAULT = 'pagination-no-trailing-empty-page';

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-gate-'));
  expect((await cli(['run', '--section', '4.9', '--quiet', '--seed', '1', '--reports', join(dir, 'good')])).code).toBe(
    0,
  );
  expect(
    (await cli(['run', '--section', '4.9', '--quiet', '--seed', '1', '--fault', FAULT, '--reports', join(dir, 'bad')]))
      .code,
  ).toBe(1);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('compare', () => {
  test('a rule that newly fails is a regression: exit 1, named, written as HTML and JUnit', async () => {
    const r = await cli([
      'compare',
      join(dir, 'good/results.json'),
      join(dir, 'bad/results.json'),
      '--reports',
      join(dir, 'cmp'),
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`NEWLY FAILING \\(\\d+\\):\\n  ${RULE.replace(/\./g, '\\.')}`));
    expect(r.out).toMatch(/REGRESSION/);
    const junit = await readFile(join(dir, 'cmp/compare-junit.xml'), 'utf8');
    expect(xmlProblems(junit)).toEqual([]);
    expect(junit).toMatch(new RegExp(`<testcase name="${RULE}" classname="regression" time="0"><failure`));
    expect(await readFile(join(dir, 'cmp/compare.html'), 'utf8')).toContain(RULE);
  });

  test('compare-junit.xml carries counts and time on its root and suite, and a run compared with itself lists every rule', async () => {
    const same = await cli([
      'compare',
      join(dir, 'good/results.json'),
      join(dir, 'good/results.json'),
      '--reports',
      join(dir, 'cmp-same'),
    ]);
    expect(same.code).toBe(0);
    const junit = await readFile(join(dir, 'cmp-same/compare-junit.xml'), 'utf8');
    expect(xmlProblems(junit)).toEqual([]);
    const good: unknown = JSON.parse(await readFile(join(dir, 'good/results.json'), 'utf8'));
    if (!matchesFileSchema('ResultsFile', good)) throw new Error('good/results.json does not match its schema');
    const rules = good.results.length;
    expect(rules).toBeGreaterThan(0);
    expect(junit).toMatch(
      new RegExp(
        `<testsuites name="directory-conformance compare" tests="${rules}" failures="0" errors="0" skipped="0" time="0">`,
      ),
    );
    expect(junit).toMatch(
      new RegExp(`<testsuite name="compare" tests="${rules}" failures="0" [^>]*time="0" timestamp="`),
    );
    expect(junit.match(/<testcase [^>]*classname="unchanged" time="0">/g)).toHaveLength(rules);
    // A regression's file counts every rule too, the one failure among them.
    const bad = await readFile(join(dir, 'cmp/compare-junit.xml'), 'utf8');
    expect(bad).toMatch(new RegExp(`<testsuites [^>]*tests="\\d+" failures="1" errors="0" skipped="0" time="0">`));
    expect(bad).toContain('classname="unchanged"');
  });

  test('the other way round it is a fix: exit 0', async () => {
    const r = await cli([
      'compare',
      join(dir, 'bad/results.json'),
      join(dir, 'good/results.json'),
      '--reports',
      join(dir, 'cmp2'),
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/fixed \(\d+\):/);
    expect(r.out).toMatch(/no regression/);
  });

  test('usage mistakes exit 2', async () => {
    expect((await cli(['compare', join(dir, 'good/results.json')])).code).toBe(2);
    expect((await cli(['compare', join(dir, 'nope.json'), join(dir, 'nope.json')])).code).toBe(2);
  });
});

describe('expectations', () => {
  test('a malformed expectations file is one line naming its first problem and the others, and update never overwrites it', async () => {
    const file = join(dir, 'malformed.json');
    const text = JSON.stringify({
      expectations: [
        { rule: RULE, reason: 'vendor bug 1', expires: '2027-02-30' },
        { rule: 'pagination.no-such-rule', reason: 'typo' },
        { rule: RULE, reason: '' },
        'not an entry',
      ],
    });
    await writeFile(file, text);
    const update = await cli(['expectations', 'update', '--from', join(dir, 'bad/results.json'), '--file', file]);
    expect(update.code).toBe(2);
    expect(update.out).toBe(
      `error: ${file}: /expectations/0/expires must be a real date (YYYY-MM-DD): 2027-02-30 (and 4 more: ` +
        '/expectations/1/rule is not a rule id of the catalogue (see `directory-conformance rules`): pagination.no-such-rule; ' +
        `/expectations/2/reason must not be blank: ""; /expectations/2/rule is listed twice: ${RULE}; …)\n`,
    );
    expect(await readFile(file, 'utf8')).toBe(text);
    const gate = await cli([
      'run',
      '--section',
      '4.9',
      '--quiet',
      '--reports',
      join(dir, 'gate0'),
      '--expectations',
      file,
    ]);
    expect(gate.code).toBe(2);
    expect(gate.out).toMatch(/is not a rule id of the catalogue/);
  });

  test('update keeps the reasons and expiry dates already written', async () => {
    const file = join(dir, 'kept.json');
    await writeFile(
      file,
      JSON.stringify({ expectations: [{ rule: RULE, reason: 'vendor bug 77', expires: '2099-12-31' }] }),
    );
    expect((await cli(['expectations', 'update', '--from', join(dir, 'bad/results.json'), '--file', file])).code).toBe(
      0,
    );
    const written = JSON.parse(await readFile(file, 'utf8')) as { expectations: Array<Record<string, string>> };
    expect(written.expectations.find((e) => e.rule === RULE)).toEqual({
      rule: RULE,
      reason: 'vendor bug 77',
      expires: '2099-12-31',
    });
  });

  test('update records the failures of a run', async () => {
    const file = join(dir, 'expectations.json');
    const r = await cli(['expectations', 'update', '--from', join(dir, 'bad/results.json'), '--file', file]);
    expect(r.code).toBe(0);
    const written = JSON.parse(await readFile(file, 'utf8')) as { expectations: Array<{ rule: string }> };
    expect(written.expectations.map((e) => e.rule)).toContain(RULE);
  });

  test('a known failure does not fail the gate; an unexpected pass is reported', async () => {
    const file = join(dir, 'known.json');
    const recorded = JSON.parse(await readFile(join(dir, 'expectations.json'), 'utf8')) as {
      expectations: Array<{ rule: string; reason: string }>;
    };
    const others = recorded.expectations.filter((e) => e.rule !== RULE);
    await writeFile(
      file,
      JSON.stringify({
        expectations: [
          { rule: RULE, reason: 'vendor bug 123' },
          ...others,
          { rule: 'pagination.malformed-token-422', reason: 'stale entry' },
        ],
      }),
    );
    const r = await cli([
      'run',
      '--section',
      '4.9',
      '--quiet',
      '--seed',
      '1',
      '--fault',
      FAULT,
      '--reports',
      join(dir, 'gate'),
      '--expectations',
      file,
    ]);
    expect(r.out).toMatch(/gate: PASSED/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/known failure: pagination\.exact-multiple-empty-page — vendor bug 123/);
    expect(r.out).toMatch(/unexpected pass: pagination\.malformed-token-422/);
    // Every report carries the gate: CI publishers read junit.xml, people index.html, tools results.json.
    const junit = await readFile(join(dir, 'gate/junit.xml'), 'utf8');
    const testcase = junit.slice(
      junit.indexOf(`<testcase name="${RULE}"`),
      junit.indexOf('</testcase>', junit.indexOf(`<testcase name="${RULE}"`)),
    );
    expect(testcase).toContain('<skipped message="known failure (FAIL): vendor bug 123"/>');
    expect(testcase).not.toContain('<failure');
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    expect(await readFile(join(dir, 'gate/index.html'), 'utf8')).toContain('known failure (');
    const results = JSON.parse(await readFile(join(dir, 'gate/results.json'), 'utf8')) as {
      gate: { passed: boolean; knownFailures: Array<{ rule: string }> };
      summary: { outcome: string };
    };
    expect(results.gate.passed).toBe(true);
    expect(results.gate.knownFailures.map((k) => k.rule)).toContain(RULE);
    expect(results.summary.outcome).toBe('conformant');
  });

  test('an expired expectation no longer excuses the failure', async () => {
    const file = join(dir, 'expired.json');
    await writeFile(
      file,
      JSON.stringify({ expectations: [{ rule: RULE, reason: 'vendor bug 123', expires: '2020-01-01' }] }),
    );
    const r = await cli([
      'run',
      '--section',
      '4.9',
      '--quiet',
      '--seed',
      '1',
      '--fault',
      FAULT,
      '--reports',
      join(dir, 'gate2'),
      '--expectations',
      file,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/new failure: pagination\.exact-multiple-empty-page/);
    expect(r.out).toMatch(/expired expectation/);
  });
});

describe('sharding', () => {
  test('two shards cover the selection once, and merge rebuilds one set of reports', async () => {
    const a = await cli(['run', '--quiet', '--seed', '1', '--shard', '1/2', '--reports', join(dir, 's1')]);
    const b = await cli(['run', '--quiet', '--seed', '1', '--shard', '2/2', '--reports', join(dir, 's2')]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const m = await cli([
      'merge',
      join(dir, 's1/results.json'),
      join(dir, 's2/results.json'),
      '--reports',
      join(dir, 'merged'),
    ]);
    expect(m.code).toBe(0);
    const merged = JSON.parse(await readFile(join(dir, 'merged/results.json'), 'utf8')) as {
      results: Array<{ ruleId: string }>;
      summary: { total: number };
    };
    const full = JSON.parse(await readFile(join(dir, 'good/results.json'), 'utf8')) as { results: unknown[] };
    const rules = (await cli(['rules', '--json'])).out;
    const catalogue = (JSON.parse(rules) as { rules: Array<{ id: string }> }).rules.map((r) => r.id).sort();
    expect(merged.results.map((r) => r.ruleId).sort()).toEqual(catalogue);
    expect(merged.summary.total).toBe(catalogue.length);
    expect(full.results.length).toBeLessThan(catalogue.length);
    expect(xmlProblems(await readFile(join(dir, 'merged/junit.xml'), 'utf8'))).toEqual([]);
    // Every exchange of both shards, in the order they were sent.
    const entries = async (folder: string): Promise<Array<{ startedDateTime: string; _rule: string }>> => {
      const har: unknown = JSON.parse(await readFile(join(dir, folder, 'exchanges.har'), 'utf8'));
      if (!matchesFileSchema('HarFile', har)) throw new Error(`${folder}/exchanges.har is not a HAR file`);
      return har.log.entries.map((e) => ({
        startedDateTime: e.startedDateTime ?? '',
        _rule: e._rule ?? '',
      }));
    };
    const [one, two, both] = await Promise.all([entries('s1'), entries('s2'), entries('merged')]);
    expect(one.length).toBeGreaterThan(0);
    expect(two.length).toBeGreaterThan(0);
    expect(both).toHaveLength(one.length + two.length);
    expect(new Set(both.map((e) => e._rule))).toEqual(new Set([...one, ...two].map((e) => e._rule)));
    const times = both.map((e) => e.startedDateTime);
    expect(times).toEqual([...times].sort());
    expect(m.out).not.toContain('warning: no exchanges.har');
    expect((await cli(['merge', join(dir, 's1/results.json'), join(dir, 's1/results.json')])).code).toBe(2);
    expect((await cli(['run', '--shard', '3/2'])).code).toBe(2);
  });
});

describe('compare is honest about coverage', () => {
  async function skipped(from: string, to: string, how: (r: { verdict: string; reason?: string }) => void) {
    const run = JSON.parse(await readFile(join(dir, from, 'results.json'), 'utf8')) as {
      results: Array<{ verdict: string; reason?: string }>;
    };
    run.results
      .filter((r) => r.verdict === 'PASS')
      .slice(0, 5)
      .forEach(how);
    await mkdir(join(dir, to), { recursive: true });
    await writeFile(join(dir, to, 'results.json'), JSON.stringify(run));
  }

  test('PASS → SKIP and PASS → NOT-TESTED are a coverage regression: exit 1, each with its reason', async () => {
    await skipped('good', 'skipped', (r) => {
      r.verdict = 'SKIP';
      r.reason = 'read-only run: this rule changes state';
    });
    const r = await cli([
      'compare',
      join(dir, 'good/results.json'),
      join(dir, 'skipped/results.json'),
      '--reports',
      join(dir, 'cmp3'),
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/COVERAGE DROPPED: checked before, not now \(5\):/);
    expect(r.out).toMatch(/PASS → SKIP — read-only run: this rule changes state/);
    expect(r.out).toMatch(/coverage 100\.0% of \d+ rules → \d+\.\d% of \d+ rules/);
    expect(r.out).toMatch(/COVERAGE REGRESSION$/m);
    expect(r.out).not.toMatch(/no regression/);
    const junit = await readFile(join(dir, 'cmp3/compare-junit.xml'), 'utf8');
    expect(xmlProblems(junit)).toEqual([]);
    expect(junit).toMatch(/classname="coverage" time="0"><failure message="PASS → SKIP" type="coverage regression"/);

    await skipped('good', 'nottested', (r) => {
      r.verdict = 'NOT-TESTED';
      r.reason = 'request budget of 10 requests is spent';
    });
    const nt = await cli([
      'compare',
      join(dir, 'good/results.json'),
      join(dir, 'nottested/results.json'),
      '--reports',
      join(dir, 'cmp4'),
    ]);
    expect(nt.code).toBe(1);
    expect(nt.out).toMatch(/PASS → NOT-TESTED — request budget/);
  });

  test('--allow-coverage-drop reports the drop without failing', async () => {
    const r = await cli([
      ...['compare', join(dir, 'good/results.json'), join(dir, 'skipped/results.json')],
      ...['--reports', join(dir, 'cmp5'), '--allow-coverage-drop'],
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/coverage regression \(allowed by --allow-coverage-drop\)/);
  });

  test('a selection that checks fewer rules is a coverage regression too', async () => {
    // The old run checked §4.9; a new run of one rule leaves the others absent.
    const one = await cli(['run', '--rule', RULE, '--quiet', '--seed', '1', '--reports', join(dir, 'one')]);
    expect(one.code).toBe(0);
    const r = await cli([
      'compare',
      join(dir, 'good/results.json'),
      join(dir, 'one/results.json'),
      '--reports',
      join(dir, 'cmp6'),
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/PASS → absent — not in the new run/);
  });

  test("compare.html uses the main report's styles, links both runs' reports, and shows each change's reason", async () => {
    const html = await readFile(join(dir, 'cmp/compare.html'), 'utf8');
    expect(html).toContain(':root{--pass:#1a7f37');
    expect(html).toContain('<a href="../good/index.html">report</a>');
    expect(html).toContain('<a href="../bad/index.html">report</a>');
    expect(html).toContain(`<a href="../bad/index.html#rule-${RULE}">`);
    const row = html.slice(
      html.indexOf(`<tr data-rule-id="${RULE}">`),
      html.indexOf('</tr>', html.indexOf(`<tr data-rule-id="${RULE}">`)),
    );
    expect(row).toMatch(/after: [^<]*must/);
    const skippedHtml = await readFile(join(dir, 'cmp3/compare.html'), 'utf8');
    expect(skippedHtml).toMatch(/<b class="bad">coverage regression<\/b>/);
    expect(skippedHtml).toContain('after: read-only run: this rule changes state');
  });
});

describe('merge is honest about shards', () => {
  test('one shard of two is refused (exit 2), naming the missing shard', async () => {
    const a = await cli([
      'run',
      '--section',
      '4.9',
      '--quiet',
      '--seed',
      '1',
      '--shard',
      '1/2',
      '--reports',
      join(dir, 'h1'),
    ]);
    expect(a.code).toBe(0);
    const m = await cli(['merge', join(dir, 'h1/results.json'), '--reports', join(dir, 'hm')]);
    expect(m.code).toBe(2);
    expect(m.out).toMatch(/incomplete set of shards: 2\/2 missing \(1 of 2 given\)/);
  });

  test('shards of different selections are refused', async () => {
    const b = await cli([
      'run',
      '--section',
      '4.8',
      '--quiet',
      '--seed',
      '1',
      '--shard',
      '2/2',
      '--reports',
      join(dir, 'h2'),
    ]);
    expect(b.code).toBe(0);
    const m = await cli([
      'merge',
      join(dir, 'h1/results.json'),
      join(dir, 'h2/results.json'),
      '--reports',
      join(dir, 'hm2'),
    ]);
    expect(m.code).toBe(2);
    expect(m.out).toMatch(/selected other rules/);
  });

  test('shards of different seeds or different targets are refused in one line', async () => {
    const shard2 = (name: string, extra: string[]) =>
      cli(['run', '--section', '4.9', '--quiet', '--shard', '2/2', '--reports', join(dir, name), ...extra]);
    expect((await shard2('h2-seed', ['--seed', '2'])).code).toBe(0);
    const seeds = await cli(['merge', join(dir, 'h1/results.json'), join(dir, 'h2-seed/results.json')]);
    expect(seeds.code).toBe(2);
    expect(seeds.out).toBe(
      `error: ${join(dir, 'h2-seed/results.json')} ran with seed 2, ${join(dir, 'h1/results.json')} with seed 1: ` +
        'run every shard with the same --seed\n',
    );
    expect((await shard2('h2-fault', ['--seed', '1', '--fault', FAULT])).code).toBe(1);
    const targets = await cli(['merge', join(dir, 'h1/results.json'), join(dir, 'h2-fault/results.json')]);
    expect(targets.code).toBe(2);
    expect(targets.out).toBe(
      `error: ${join(dir, 'h2-fault/results.json')} ran against the embedded reference server (--fault ${FAULT}) ` +
        `(Service-Version 26.06.25), ${join(dir, 'h1/results.json')} against the embedded reference server ` +
        '(Service-Version 26.06.25): results of different targets are not one run\n',
    );
  });

  test('a complete set merges into a run that names its selection, with no shard left', async () => {
    expect(
      (await cli(['run', '--section', '4.9', '--quiet', '--seed', '1', '--shard', '2/2', '--reports', join(dir, 'h3')]))
        .code,
    ).toBe(0);
    const m = await cli([
      'merge',
      join(dir, 'h1/results.json'),
      join(dir, 'h3/results.json'),
      '--reports',
      join(dir, 'hm3'),
    ]);
    expect(m.code).toBe(0);
    expect(m.out).toMatch(/rules: conformant/);
    const merged = JSON.parse(await readFile(join(dir, 'hm3/results.json'), 'utf8')) as {
      selection: { sections: string[]; shard?: unknown };
    };
    expect(merged.selection.sections).toEqual(['4.9']);
    expect(merged.selection.shard).toBeUndefined();
  });
  test('shards in gate mode merge into one gate: known failures stay excused', async () => {
    const file = join(dir, 'shard-expectations.json');
    await writeFile(
      file,
      JSON.stringify({
        expectations: [
          { rule: 'pagination.exact-multiple-empty-page', reason: 'vendor ticket 9' },
          // The property may meet the same fault, depending on its draws.
          { rule: 'pagination.prop.any-limit-once', reason: 'vendor ticket 9' },
        ],
      }),
    );
    const shard = (i: number) =>
      cli([
        'run',
        '--section',
        '4.9',
        '--quiet',
        '--seed',
        '1',
        '--fault',
        'pagination-no-trailing-empty-page',
        '--expectations',
        file,
        '--shard',
        `${i}/2`,
        '--reports',
        join(dir, `g${i}`),
      ]);
    expect([(await shard(1)).code, (await shard(2)).code]).toEqual([0, 0]);
    const m = await cli([
      'merge',
      join(dir, 'g1/results.json'),
      join(dir, 'g2/results.json'),
      '--reports',
      join(dir, 'gm'),
    ]);
    expect(m.code, m.out).toBe(0);
    const merged = JSON.parse(await readFile(join(dir, 'gm/results.json'), 'utf8')) as {
      gate: { passed: boolean; knownFailures: Array<{ rule: string }> };
      results: Array<{ ruleId: string; verdict: string }>;
    };
    expect(merged.results.find((r) => r.ruleId === 'pagination.exact-multiple-empty-page')?.verdict).toBe('FAIL');
    expect(merged.gate.passed).toBe(true);
    expect(merged.gate.knownFailures.map((k) => k.rule)).toContain('pagination.exact-multiple-empty-page');
  });
});
