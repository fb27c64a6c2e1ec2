import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { renderJUnit } from '../../src/report/junit.ts';
import type { RuleResult, RunResult } from '../../src/core/types.ts';
import { fixtureRun, HOSTILE_BODY } from '../fixtures/run-result/fixture-run.ts';
import { hostileText, withServerText } from './helpers/hostile-run.ts';
import { childElements, parseXml, shapeOf, textOf, wellFormedProblems, type XmlElement } from './helpers/xml-tree.ts';

/** Times are the only part of the report that a rerun changes. */
const stable = (xml: string): string => xml.replace(/ time="[\d.]+"/g, ' time="0"');

const run = fixtureRun();
const xml = renderJUnit(run);
const root = parseXml(xml);
const suites = childElements(root, 'testsuite');
const cases = suites.flatMap((s) => childElements(s, 'testcase'));

function caseOf(ruleId: string): XmlElement {
  const found = cases.find((c) => c.attributes.name === ruleId);
  if (!found) throw new Error(`no testcase ${ruleId}`);
  return found;
}

function only(el: XmlElement, name: string): XmlElement {
  const found = childElements(el, name);
  expect(found, `<${name}> in ${el.attributes.name}`).toHaveLength(1);
  return found[0]!;
}

function verdicts(rs: readonly RuleResult[], ...v: RuleResult['verdict'][]): number {
  return rs.filter((r) => v.includes(r.verdict)).length;
}

describe('JUnit report', () => {
  test('is well-formed XML 1.0 although the server text is hostile', () => {
    expect(wellFormedProblems(xml)).toEqual([]);
    expect(root.name).toBe('testsuites');
  });

  test('one testsuite per rule group, named by its title, with its own counts', () => {
    const groups = [...new Set(run.results.map((r) => r.group))];
    expect(suites.map((s) => s.attributes.name).sort()).toEqual([...groups].sort());
    for (const suite of suites) {
      const rs = run.results.filter((r) => r.group === suite.attributes.name);
      const children = childElements(suite, 'testcase');
      expect(children.map((c) => c.attributes.name)).toEqual(rs.map((r) => r.ruleId));
      expect(suite.attributes).toMatchObject({
        tests: String(rs.length),
        failures: String(verdicts(rs, 'FAIL')),
        errors: String(verdicts(rs, 'ERROR')),
        skipped: String(verdicts(rs, 'SKIP', 'NOT-TESTED')),
      });
      // The counts agree with the elements a consumer would count.
      expect(children.filter((c) => childElements(c, 'failure').length > 0)).toHaveLength(
        Number(suite.attributes.failures),
      );
      expect(children.filter((c) => childElements(c, 'error').length > 0)).toHaveLength(
        Number(suite.attributes.errors),
      );
      expect(children.filter((c) => childElements(c, 'skipped').length > 0)).toHaveLength(
        Number(suite.attributes.skipped),
      );
    }
    expect(root.attributes).toMatchObject({ tests: '8', failures: '2', errors: '1', skipped: '3' });
  });

  test('suites follow the spec order (§4.8, §4.9, §5)', () => {
    expect(suites.map((s) => s.attributes.name)).toEqual([
      'resources.list',
      'Pagination protocol',
      'Authentication and permissions',
    ]);
  });

  test('a testcase per rule: name is the rule id, classname the section and group without dots, properties carry clause, level and sentence', () => {
    expect(cases.map((c) => c.attributes.name).sort()).toEqual(run.results.map((r) => r.ruleId).sort());
    for (const r of run.results) {
      const c = caseOf(r.ruleId);
      expect(c.attributes.classname).toBe(`${r.section} ${r.group}`.replace(/\./g, '-'));
      expect(c.attributes.classname).not.toContain('.');
      const props = Object.fromEntries(
        childElements(only(c, 'properties'), 'property').map((p) => [p.attributes.name, p.attributes.value]),
      );
      expect(props).toMatchObject({ clause: r.clause, level: r.level, sentence: r.sentence, verdict: r.verdict });
    }
  });

  test('ERROR is an <error> typed by the error code, never a <failure>', () => {
    const c = caseOf('pagination.each-resource-once');
    const error = only(c, 'error');
    expect(error.attributes).toEqual({
      type: 'DC_ERR_TIMEOUT',
      message: 'resources.list: no complete answer within 15000 ms',
    });
    expect(childElements(c, 'failure')).toEqual([]);
    expect(textOf(error)).toContain('no response: DC_ERR_TIMEOUT');
  });

  test('SKIP and NOT-TESTED are <skipped> with the reason; a blocked rule names its blocker', () => {
    expect(only(caseOf('auth.restricted-fields-redacted'), 'skipped').attributes.message).toBe(
      'SKIP: no restricted API key was given',
    );
    expect(only(caseOf('list.total-count-of-filtered-set'), 'skipped').attributes.message).toBe(
      'NOT-TESTED: request budget of 10 requests is spent',
    );
    expect(only(caseOf('auth.restricted-list-roles'), 'skipped').attributes.message).toContain(
      'blocked by pagination.exact-multiple-empty-page',
    );
  });

  test('OBSERVED passes, with what was seen in <system-out>', () => {
    const c = caseOf('list.counting-mode-approximate');
    expect(c.children.filter((n) => 'name' in n && ['failure', 'error', 'skipped'].includes(n.name))).toEqual([]);
    const out = textOf(only(c, 'system-out'));
    expect(out).toContain('total_count_approximate: <b>true</b>');
    expect(out).toContain('</script><script>alert(4)</script>');
  });

  test('a failure body: each violation with expected vs actual, then the replay, then curl commands', () => {
    const failure = only(caseOf('pagination.exact-multiple-empty-page'), 'failure');
    expect(failure.attributes.message).toBe(
      'limit 2, page 3.next_token: must not be null on the last full page (and 1 more)',
    );
    const body = textOf(failure);
    const at = (s: string): number => {
      const i = body.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = [
      at('- limit 2, page 3.next_token: must not be null on the last full page'),
      at('expected: a token'),
      at('actual:   null'),
      at('- response.body: must be a JSON envelope'),
      at(
        'Replay: npx directory-conformance run --fault pagination-no-trailing-empty-page --rule pagination.exact-multiple-empty-page',
      ),
      at('$ curl -sS -i -X POST'),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(body).toContain('"authorization: Bearer $DIRECTORY_API_KEY"');
    expect(body).toContain('"authorization: Bearer $DIRECTORY_RESTRICTED_API_KEY"');
  });

  test('a failing property gives its seed, path and counterexample, and the replay command to rerun it', () => {
    const c = caseOf('pagination.prop.any-limit-once');
    const body = textOf(only(c, 'failure'));
    expect(body).toContain(
      'Replay: npx directory-conformance run --fault pagination-no-trailing-empty-page --rule pagination.prop.any-limit-once --seed 42 --path 3:1:0',
    );
    expect(body).toContain('Property: seed 42, path 3:1:0, 25 runs, 5 shrinks');
    expect(body).toContain('Counterexample: {"limit":2,"subset":["1","2","3","4"]}');
    const props = Object.fromEntries(
      childElements(only(c, 'properties'), 'property').map((p) => [p.attributes.name, p.attributes.value]),
    );
    expect(props).toMatchObject({ seed: '42', path: '3:1:0' });
  });

  test('hostile server text survives as text: only the characters XML cannot carry are replaced, by visible stand-ins', () => {
    const body = textOf(only(caseOf('pagination.exact-multiple-empty-page'), 'failure'));
    const visible = HOSTILE_BODY.replace('\u0000', '\u2400').replace('\u0007', '\u2407').replace('\uD800', '\uFFFD');
    expect(body).toContain(`actual:   ${visible}`);
    // The characters XML 1.0 cannot carry, on purpose.
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  test('server text cannot change the document: any text in any server field leaves the same elements', () => {
    const shape = shapeOf(parseXml(renderJUnit(withServerText(fixtureRun(), 'plain'))));
    fc.assert(
      fc.property(hostileText(), (text) => {
        const out = renderJUnit(withServerText(fixtureRun(), text));
        expect(wellFormedProblems(out)).toEqual([]);
        expect(shapeOf(parseXml(out))).toEqual(shape);
      }),
      { numRuns: 200 },
    );
  });

  test('an empty run is a valid, empty report', () => {
    const empty: RunResult = { ...fixtureRun(), results: [] };
    const out = renderJUnit(empty);
    expect(wellFormedProblems(out)).toEqual([]);
    expect(parseXml(out).attributes).toMatchObject({ tests: '0', failures: '0', errors: '0', skipped: '0' });
  });

  test('an interrupted run marks every suite with an interrupted property and the signal; a whole run carries none', () => {
    const interrupted = parseXml(renderJUnit({ ...run, interrupted: { signal: 'SIGTERM' } }));
    for (const suite of childElements(interrupted, 'testsuite')) {
      const props = childElements(only(suite, 'properties'), 'property').map((p) => [
        p.attributes.name,
        p.attributes.value,
      ]);
      expect(props).toEqual(
        expect.arrayContaining([
          ['interrupted', 'true'],
          ['interruptedBy', 'SIGTERM'],
        ]),
      );
    }
    expect(xml).not.toContain('name="interrupted"');
  });

  test('matches the committed snapshot', async () => {
    await expect(stable(xml)).toMatchFileSnapshot('./__snapshots__/junit.xml');
  });
});

describe('INFERRED departures', () => {
  const failing = run.results.find((r) => r.verdict === 'FAIL')!;
  const inferredRun = (strict: boolean): RunResult => ({
    ...run,
    options: { ...run.options, ...(strict ? { strict: true } : {}) },
    results: run.results.map((r) => (r === failing ? { ...r, level: 'INFERRED' } : r)),
  });

  test('are reported beside the test, not as a <failure>, unless the run is strict', () => {
    const lenient = parseXml(renderJUnit(inferredRun(false)));
    const lenientCase = childElements(lenient, 'testsuite')
      .flatMap((s) => childElements(s, 'testcase'))
      .find((c) => c.attributes.name === failing.ruleId)!;
    expect(childElements(lenientCase, 'failure')).toHaveLength(0);
    expect(textOf(only(lenientCase, 'system-err'))).toMatch(/^INFERRED departure \(fails the run only with --strict\)/);
    expect(Number(lenient.attributes.failures)).toBe(verdicts(run.results, 'FAIL') - 1);

    const strict = parseXml(renderJUnit(inferredRun(true)));
    const strictCase = childElements(strict, 'testsuite')
      .flatMap((s) => childElements(s, 'testcase'))
      .find((c) => c.attributes.name === failing.ruleId)!;
    expect(childElements(strictCase, 'failure')).toHaveLength(1);
    expect(Number(strict.attributes.failures)).toBe(verdicts(run.results, 'FAIL'));
  });
});
