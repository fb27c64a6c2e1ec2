import { failsTheRun } from '../core/summarise.ts';
import type { RuleResult, RunResult, Verdict } from '../core/types.ts';
import { clip, failureText, show } from './describe-result.ts';
import { compareSections } from './sections.ts';
import { cdata, xmlAttr } from './xml.ts';
import { blockedText, knownFailureOf } from './gate-status.ts';
import { describeSelection } from './selection.ts';

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function count(results: readonly RuleResult[], ...verdicts: Verdict[]): number {
  return results.filter((r) => verdicts.includes(r.verdict)).length;
}

/** An INFERRED departure is a <failure> only in a --strict run; otherwise it is reported beside the test. A known failure (gate mode) is never one. */
function isFailure(r: RuleResult, run: RunResult): boolean {
  return (r.verdict === 'FAIL' || r.verdict === 'FLAKY') && failsTheRun(r, run.options) && !knownFailureOf(run, r);
}

function isError(r: RuleResult, run: RunResult): boolean {
  return r.verdict === 'ERROR' && !knownFailureOf(run, r);
}

/** The counts every JUnit consumer reads; SKIP, NOT-TESTED and known failures are "skipped". */
function countAttributes(results: readonly RuleResult[], run: RunResult): string {
  const failures = results.filter((r) => isFailure(r, run)).length;
  const errors = results.filter((r) => isError(r, run)).length;
  const known = results.filter((r) => knownFailureOf(run, r)).length;
  return `tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${count(results, 'SKIP', 'NOT-TESTED') + known}"`;
}

function properties(r: RuleResult, run: RunResult): string {
  const props: Array<[string, string]> = [
    ['clause', r.clause],
    ['level', r.level],
    ['sentence', r.sentence],
    ['verdict', r.verdict],
    ['kind', r.kind],
    ['requests', String(r.requestCount)],
  ];
  if (r.blockedBy) props.push(['blockedBy', r.blockedBy]);
  const known = knownFailureOf(run, r);
  if (known) {
    props.push(['knownFailure', known.reason]);
    if (known.expires) props.push(['knownFailureExpires', known.expires]);
  }
  if (r.replay) {
    props.push(['seed', String(r.replay.seed)]);
    if (r.replay.path) props.push(['path', r.replay.path]);
  }
  const lines = props.map(([name, value]) => `        <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
  return `      <properties>\n${lines.join('\n')}\n      </properties>`;
}

/** The failure message names the first violation; the body has them all. */
function failureMessage(r: RuleResult): string {
  const first = r.violations[0];
  if (!first) return 'rule failed';
  const more = r.violations.length > 1 ? ` (and ${r.violations.length - 1} more)` : '';
  return `${first.where}: ${first.message}${more}`;
}

function skippedMessage(r: RuleResult): string {
  if (r.blockedBy) {
    const { owner, why } = blockedText(r);
    return `${r.verdict}: blocked by ${owner}${why ? `: ${why}` : ''}`;
  }
  return `${r.verdict}: ${r.reason ?? 'no reason given'}`;
}

function outcome(r: RuleResult, run: RunResult): string {
  const known = knownFailureOf(run, r);
  if (known) {
    // Gate mode: a known failure is <skipped> with the expectation's reason, so CI publishers do not fail the
    // build on it; what the server did stays in <system-err>.
    const message = `known failure (${r.verdict}): ${known.reason}${known.expires ? ` (expires ${known.expires})` : ''}`;
    return `      <skipped message="${xmlAttr(message)}"/>\n      <system-err>${cdata(failureText(r, run))}</system-err>`;
  }
  switch (r.verdict) {
    case 'FAIL':
      if (!isFailure(r, run)) {
        return `      <system-err>${cdata(`INFERRED departure (fails the run only with --strict): ${failureText(r, run)}`)}</system-err>`;
      }
      return `      <failure message="${xmlAttr(failureMessage(r))}" type="${xmlAttr(r.clause)}">${cdata(failureText(r, run))}</failure>`;
    case 'FLAKY':
      // A departure that did not repeat: a failure CI shows, marked as such (the run is inconclusive).
      return `      <failure message="${xmlAttr(`FLAKY: ${failureMessage(r)}`)}" type="flaky">${cdata(failureText(r, run))}</failure>`;
    case 'ERROR':
      // A harness fault says nothing about the server: an <error>, never a <failure>.
      return `      <error message="${xmlAttr(r.reason ?? 'harness fault')}" type="${xmlAttr(r.errorCode ?? 'DC_ERR_HARNESS')}">${cdata(failureText(r, run))}</error>`;
    case 'SKIP':
    case 'NOT-TESTED':
      return `      <skipped message="${xmlAttr(skippedMessage(r))}"/>`;
    case 'PASS':
    case 'OBSERVED':
      return '';
  }
}

function testcase(r: RuleResult, run: RunResult): string {
  const parts = [
    `    <testcase name="${xmlAttr(r.ruleId)}" classname="${xmlAttr(classname(r))}" time="${seconds(r.durationMs)}">`,
    properties(r, run),
  ];
  const result = outcome(r, run);
  if (result) parts.push(result);
  if (r.observations.length > 0) {
    const text = r.observations.map((o) => `${o.subject}: ${clip(show(o.value), 4000)}`).join('\n');
    parts.push(`      <system-out>${cdata(text)}</system-out>`);
  }
  parts.push('    </testcase>');
  return parts.join('\n');
}

interface Suite {
  section: string;
  title: string;
  results: RuleResult[];
}

/** Suites by group, in section order; rules keep the catalogue's order inside a group. */
function suitesOf(results: readonly RuleResult[]): Suite[] {
  const suites = new Map<string, Suite>();
  for (const r of results) {
    const key = `${r.section}\u0000${r.group}`;
    const suite = suites.get(key) ?? { section: r.section, title: r.group, results: [] };
    suite.results.push(r);
    suites.set(key, suite);
  }
  return [...suites.values()].sort((a, b) => compareSections(a.section, b.section));
}

/**
 * A suite's properties: its section, and on an interrupted run `interrupted`
 * (true) with the signal, so a CI tool reading only junit.xml knows the
 * rules not started are missing for that reason, not passed or skipped.
 */
function suiteProperties(s: Suite, run: RunResult): string {
  const props: Array<[string, string]> = [['section', s.section]];
  if (run.interrupted) props.push(['interrupted', 'true'], ['interruptedBy', run.interrupted.signal]);
  return props.map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`).join('\n');
}

/**
 * JUnit XML: one <testsuite> per rule group, one <testcase> per rule named by
 * its id with the section as classname. FAIL is a <failure>, ERROR an
 * <error>, SKIP and NOT-TESTED are <skipped>, OBSERVED passes with what was
 * seen in <system-out>. In gate mode a known failure is <skipped> with the
 * expectation's reason (message "known failure (FAIL): reason (expires …)")
 * and a knownFailure property. An interrupted run marks every suite with an
 * `interrupted` property.
 */
export function renderJUnit(run: RunResult): string {
  const suites = suitesOf(run.results).map((s) => {
    const time = s.results.reduce((t, r) => t + r.durationMs, 0);
    return [
      `  <testsuite name="${xmlAttr(s.title)}" ${countAttributes(s.results, run)} time="${seconds(time)}" timestamp="${xmlAttr(run.startedAt)}">`,
      `    <properties>\n${suiteProperties(s, run)}\n    </properties>`,
      ...s.results.map((r) => testcase(r, run)),
      '  </testsuite>',
    ].join('\n');
  });
  const elapsed = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  // The figures are over the selection: the name says which (results from before it was recorded keep the old name).
  const name = `${run.tool.name} ${run.target.baseUrl}${run.selection ? `: ${describeSelection(run)}` : ''}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(name)}" ${countAttributes(run.results, run)} time="${seconds(Number.isFinite(elapsed) ? elapsed : 0)}" timestamp="${xmlAttr(run.startedAt)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The section and group as a JUnit classname with no dot: Jenkins and other
 * CI tools split a classname at its dots into packages, so "§4.9" would become
 * a package "§4" holding a class "9". "§4-9 Pagination protocol" stays one.
 */
export function classname(r: Pick<RuleResult, 'section' | 'group'>): string {
  return `${r.section} ${r.group}`.replace(/\./g, '-');
}
