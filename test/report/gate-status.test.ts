/**
 * Gate mode in every report: a known failure is <skipped> in junit.xml with
 * the expectation's reason (so CI publishers do not fail the build on it), a
 * "known failure" with its reason and expiry in index.html, and results.json
 * carries the gate's outcome. A blocked rule says "blocked by X: why" once.
 */
import { describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/core/types.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJUnit } from '../../src/report/junit.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';
import { childElements, parseXml, type XmlElement } from './helpers/xml-tree.ts';

const KNOWN = 'pagination.exact-multiple-empty-page';
const KNOWN_ERROR = 'pagination.each-resource-once';

function gated(): RunResult {
  return {
    ...fixtureRun(),
    gate: {
      file: 'expectations/staging.json',
      passed: false,
      knownFailures: [
        { rule: KNOWN, reason: 'vendor ticket 123', expires: '2099-03-31' },
        { rule: KNOWN_ERROR, reason: 'times out on staging' },
      ],
      unexpectedFailures: ['pagination.prop.any-limit-once'],
      unexpectedPasses: [],
      expired: [],
    },
  };
}

function testcase(xml: string, id: string): XmlElement {
  const cases = childElements(parseXml(xml), 'testsuite').flatMap((s) => childElements(s, 'testcase'));
  return cases.find((c) => c.attributes.name === id)!;
}

describe('junit.xml in gate mode', () => {
  const xml = renderJUnit(gated());

  test('a known failure is <skipped> with the reason and expiry, not a <failure> or <error>', () => {
    const c = testcase(xml, KNOWN);
    expect(childElements(c, 'failure')).toEqual([]);
    expect(childElements(c, 'skipped')[0]!.attributes.message).toBe(
      'known failure (FAIL): vendor ticket 123 (expires 2099-03-31)',
    );
    const e = testcase(xml, KNOWN_ERROR);
    expect(childElements(e, 'error')).toEqual([]);
    expect(childElements(e, 'skipped')[0]!.attributes.message).toBe('known failure (ERROR): times out on staging');
  });

  test('an unexpected failure stays a <failure>, and the counts follow', () => {
    expect(childElements(testcase(xml, 'pagination.prop.any-limit-once'), 'failure')).toHaveLength(1);
    const root = parseXml(xml);
    expect(root.attributes).toMatchObject({ failures: '1', errors: '0', skipped: '5' });
    const plain = parseXml(renderJUnit(fixtureRun())).attributes;
    expect(plain).toMatchObject({ failures: '2', errors: '1', skipped: '3' });
  });
});

describe('index.html in gate mode', () => {
  const html = renderHtml(gated());

  test('a known failure is marked as such, with its reason and expiry', () => {
    const card = html.slice(
      html.indexOf(`id="rule-${KNOWN}"`),
      html.indexOf('</article>', html.indexOf(`id="rule-${KNOWN}"`)),
    );
    expect(card).toContain('<span class="known">known failure</span>');
    expect(card).toContain('known failure (expectations/staging.json): vendor ticket 123 · expires 2099-03-31');
    expect(html).toContain('<div class="figure" id="gate"><span>gate</span><b class="bad">failed</b>');
    expect(renderHtml(fixtureRun())).not.toContain('id="gate"');
  });
});

describe('results.json in gate mode', () => {
  test('carries the gate outcome', () => {
    const json = JSON.parse(renderJson(gated())) as { gate: RunResult['gate'] };
    expect(json.gate).toMatchObject({ passed: false, file: 'expectations/staging.json' });
    expect(json.gate!.knownFailures.map((k) => k.rule)).toEqual([KNOWN, KNOWN_ERROR]);
  });
});

describe('the selection', () => {
  test('is named in junit.xml and index.html', () => {
    const run: RunResult = { ...fixtureRun(), selection: { sections: ['4.9'], levels: ['MUST'], catalogueSize: 73 } };
    const expected = '8 of the 73 rules of the catalogue (--section 4.9 --level MUST)';
    expect(parseXml(renderJUnit(run)).attributes.name).toBe(`directory-conformance http://127.0.0.1:8080: ${expected}`);
    expect(renderHtml(run)).toContain(`<dt>Selection</dt><dd>${expected}</dd>`);
  });
});

describe('a blocked rule', () => {
  test('says "blocked by X: why" once in every report', () => {
    const run = fixtureRun();
    const blocked = run.results.find((r) => r.blockedBy)!;
    // As the engine writes it now: the reason already starts with "blocked by".
    blocked.reason = `blocked by ${blocked.blockedBy}: list-roles: must be a plain array`;
    const expected = `blocked by ${blocked.blockedBy}: list-roles: must be a plain array`;
    const junit = renderJUnit(run);
    expect(childElements(testcase(junit, blocked.ruleId), 'skipped')[0]!.attributes.message).toBe(`SKIP: ${expected}`);
    expect(junit.split('blocked by').length - 1).toBe(1);
    const html = renderHtml(run);
    const text = html.replace(/<[^>]+>/g, '');
    expect(text.split(expected).length - 1).toBe(1);
    expect(text.split(`blocked by ${blocked.blockedBy}`).length - 1).toBe(1);
  });
});
