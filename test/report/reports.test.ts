import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { toCurl } from '../../src/report/curl.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJUnit } from '../../src/report/junit.ts';
import { summarise } from '../../src/report/summarise.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { fixtureRun, SECRET } from '../fixtures/run-result.ts';
import { xmlProblems } from '../helpers/xml.ts';

const stable = (text: string): string => text.replace(/time="[\d.]+"/g, 'time="0"');

describe('JUnit report', () => {
  const xml = renderJUnit(fixtureRun());

  test('is well-formed XML, even with hostile server text', () => {
    expect(xmlProblems(xml)).toEqual([]);
    expect(xmlProblems('<a><b></a>')).not.toEqual([]);
  });

  test('one testcase per rule, named by rule id; FAIL is <failure>, ERROR is <error>, SKIP and NOT-TESTED are <skipped>', () => {
    expect(xml.match(/<testcase /g)).toHaveLength(7);
    expect(xml).toMatch(/<testsuites [^>]*tests="7" failures="2" errors="1" skipped="2"/);
    expect(xml).toMatch(/<testcase name="pagination.each-resource-once"[\s\S]*?<error message="[^"]*" type="DC_ERR_TIMEOUT">/);
    expect(xml).not.toMatch(/<testcase name="pagination.each-resource-once"[^]*?<failure[^]*?<\/testcase>\s*<testcase name="auth/);
    expect(xml).toMatch(/<property name="clause" value="§4.9 rule 4"\/>/);
  });

  test('a failure body leads with the replay, then expected vs actual and a curl command with the key as a variable', () => {
    const failure = /<testcase name="pagination.prop.any-limit-once"[\s\S]*?<\/testcase>/.exec(xml)![0];
    expect(failure).toMatch(/Replay: npx directory-conformance run --rule pagination.prop.any-limit-once --seed 42 --path '3:1:0'/);
    expect(failure).toMatch(/Counterexample \(after 5 shrinks\)/);
    const exact = /<testcase name="pagination.exact-multiple-empty-page"[\s\S]*?<\/testcase>/.exec(xml)![0];
    expect(exact).toMatch(/expected: a token/);
    expect(exact).toMatch(/curl -sS -X POST/);
    expect(exact).toContain('$DIRECTORY_API_KEY');
  });

  test('matches the committed snapshot', async () => {
    await expect(stable(xml)).toMatchFileSnapshot('./__snapshots__/junit.xml');
  });
});

describe('HTML report', () => {
  const html = renderHtml(fixtureRun());

  test('is one self-contained page: no external resources', () => {
    expect(html).not.toMatch(/<(link|img|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  test('server text is escaped', () => {
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<b>true</b>');
  });

  test('shows score, coverage, a card per rule with stable hooks, the filter and the replay command', () => {
    expect(html).toMatch(/id="score"[\s\S]*?71\.4%|id="score"[\s\S]*?%/);
    expect(html).toContain('id="filter-failed"');
    expect(html.match(/data-rule-id="/g)).toHaveLength(7);
    expect(html).toContain('data-verdict="FAIL"');
    expect(html).toContain('npx directory-conformance run --rule pagination.prop.any-limit-once --seed 42 --path &#39;3:1:0&#39;');
  });

  test('matches the committed snapshot', async () => {
    await expect(html).toMatchFileSnapshot('./__snapshots__/index.html');
  });
});

describe('results.json and summary', () => {
  test('stable order, schema version, request counts', () => {
    const json = JSON.parse(renderJson(fixtureRun())) as { schemaVersion: number; results: Array<{ ruleId: string }>; requestsPerRule: Record<string, number> };
    expect(json.schemaVersion).toBe(1);
    const ids = json.results.map((r) => r.ruleId);
    expect(ids).toEqual([...ids].sort());
    expect(json.requestsPerRule['pagination.envelope']).toBe(1);
  });

  test('score counts MUST rules that reached a verdict; coverage counts rules that ran', () => {
    const s = summarise(fixtureRun().results);
    expect(s.byVerdict).toEqual({ PASS: 1, FAIL: 2, ERROR: 1, SKIP: 1, OBSERVED: 1, 'NOT-TESTED': 1 });
    expect(s.score).toBeCloseTo(1 / 3);
    expect(s.coverage).toBeCloseTo(5 / 7);
    expect(s.conformant).toBe(false);
    expect(summarise([]).score).toBe(1);
  });

  test('writeReports writes the three files, none holding the secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dc-reports-'));
    try {
      const paths = await writeReports(fixtureRun(), dir);
      for (const p of Object.values(paths)) expect(await readFile(p, 'utf8')).not.toContain(SECRET);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('curl', () => {
  test('keeps the key placeholder expandable and quotes the body safely', () => {
    const run = fixtureRun();
    const cmd = toCurl(run.results[1]!.exchanges[0]!);
    expect(cmd).toContain('-H "authorization: Bearer $DIRECTORY_API_KEY"');
    expect(cmd).toContain(`--data-raw '{"kind_id":"1","note":"it'\\''s"}'`);
  });
});
