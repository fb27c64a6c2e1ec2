import type { Comparison, RuleChange } from '../gate/compare-runs.ts';
import { escapeHtml as esc } from './html-escape.ts';
import { cdata, xmlAttr } from './xml.ts';

/** JUnit: one testcase per changed rule; a regression is a <failure>. */
export function renderComparisonJUnit(c: Comparison): string {
  const all: Array<[string, RuleChange]> = [
    ...c.regressions.map((x): [string, RuleChange] => ['regression', x]),
    ...c.fixed.map((x): [string, RuleChange] => ['fixed', x]),
    ...c.newErrors.map((x): [string, RuleChange] => ['new error', x]),
    ...c.observationsChanged.map((x): [string, RuleChange] => ['observation changed', x]),
  ];
  const cases = all.map(([kind, x]) => {
    const body =
      kind === 'regression'
        ? `<failure message="${xmlAttr(`${x.before} → ${x.after}`)}" type="regression">${cdata(x.detail ?? '')}</failure>`
        : `<system-out>${cdata(`${kind}: ${x.before} → ${x.after}${x.detail ? `\n${x.detail}` : ''}`)}</system-out>`;
    return `    <testcase name="${xmlAttr(x.ruleId)}" classname="${xmlAttr(kind)}">${body}</testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="directory-conformance compare">\n  <testsuite name="compare" tests="${all.length}" failures="${c.regressions.length}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

export function renderComparisonHtml(c: Comparison): string {
  const table = (title: string, id: string, changes: RuleChange[]): string =>
    `<h2 id="${id}">${esc(title)} (${changes.length})</h2>` +
    (changes.length === 0
      ? '<p>none</p>'
      : `<table><tr><th>rule</th><th>clause</th><th>before</th><th>after</th><th>detail</th></tr>${changes
          .map(
            (x) =>
              `<tr><td>${esc(x.ruleId)}</td><td>${esc(x.clause)}</td><td>${x.before}</td><td>${x.after}</td><td>${esc(x.detail ?? '')}</td></tr>`,
          )
          .join('')}</table>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Directory conformance: comparison</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.bad{color:#cf222e}.ok{color:#1a7f37}</style></head>
<body><h1>Comparison: <span class="${c.regressions.length ? 'bad' : 'ok'}">${c.regressions.length ? 'regression' : 'no regression'}</span></h1>
<p>old: ${esc(c.old.baseUrl)} · Service-Version ${esc(c.old.serviceVersion)} · ${esc(c.old.startedAt)}<br>new: ${esc(c.new.baseUrl)} · Service-Version ${esc(c.new.serviceVersion)} · ${esc(c.new.startedAt)}</p>
${table('Newly failing', 'regressions', c.regressions)}${table('Fixed', 'fixed', c.fixed)}${table('New harness errors', 'errors', c.newErrors)}${table('Observations changed', 'observations', c.observationsChanged)}${table('Other changes', 'other', c.otherChanges)}
</body></html>
`;
}
