import type { RuleResult, RunResult } from '../rules/types.ts';
import { failureText, show } from './describe-result.ts';
import { cdata, xmlAttr } from './xml.ts';

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testcase(r: RuleResult, run: RunResult): string {
  const props = [
    ['clause', r.clause],
    ['level', r.level],
    ['sentence', r.sentence],
    ['verdict', r.verdict],
    ['requests', String(r.requestCount)],
  ]
    .map(([n, v]) => `        <property name="${xmlAttr(n!)}" value="${xmlAttr(v!)}"/>`)
    .join('\n');
  const open = `    <testcase name="${xmlAttr(r.ruleId)}" classname="${xmlAttr(`${r.section} ${r.group}`)}" time="${seconds(r.durationMs)}">\n      <properties>\n${props}\n      </properties>`;
  let body = '';
  switch (r.verdict) {
    case 'FAIL': {
      const first = r.violations[0];
      body = `\n      <failure message="${xmlAttr(first ? `${first.where}: ${first.message}` : 'rule failed')}" type="${xmlAttr(r.clause)}">${cdata(failureText(r, run))}</failure>`;
      break;
    }
    case 'ERROR':
      body = `\n      <error message="${xmlAttr(r.reason ?? 'harness fault')}" type="${xmlAttr(r.errorCode ?? 'DC_ERR_HARNESS')}">${cdata(failureText(r, run))}</error>`;
      break;
    case 'SKIP':
    case 'NOT-TESTED':
      body = `\n      <skipped message="${xmlAttr(`${r.verdict}: ${r.reason ?? ''}`)}"/>`;
      break;
    default:
      break;
  }
  if (r.observations.length > 0) {
    body += `\n      <system-out>${cdata(r.observations.map((o) => `${o.subject}: ${show(o.value)}`).join('\n'))}</system-out>`;
  }
  return `${open}${body}\n    </testcase>`;
}

/** JUnit XML: one testsuite per rule group, one testcase per rule named by its id; harness faults are <error>. */
export function renderJUnit(run: RunResult): string {
  const groups = new Map<string, RuleResult[]>();
  for (const r of run.results) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const count = (rs: RuleResult[], ...v: string[]): number => rs.filter((r) => v.includes(r.verdict)).length;
  const suites = [...groups].map(([name, rs]) => {
    const time = rs.reduce((t, r) => t + r.durationMs, 0);
    return `  <testsuite name="${xmlAttr(name)}" tests="${rs.length}" failures="${count(rs, 'FAIL')}" errors="${count(rs, 'ERROR')}" skipped="${count(rs, 'SKIP', 'NOT-TESTED')}" time="${seconds(time)}">\n${rs.map((r) => testcase(r, run)).join('\n')}\n  </testsuite>`;
  });
  const all = run.results;
  const total = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlAttr(`directory-conformance ${run.target.baseUrl}`)}" tests="${all.length}" failures="${count(all, 'FAIL')}" errors="${count(all, 'ERROR')}" skipped="${count(all, 'SKIP', 'NOT-TESTED')}" time="${seconds(Number.isFinite(total) ? total : 0)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
