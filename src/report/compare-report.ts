import { coverageRegressed, type Comparison, type RuleChange } from '../gate/compare-runs.ts';
import { CSS } from './html-assets.ts';
import { escapeHtml as esc } from './html-escape.ts';
import { cdata, xmlAttr } from './xml.ts';

/**
 * JUnit: one testcase per rule of either run, grouped by what changed (its
 * classname); a regression (and a coverage drop, unless allowed) is a
 * <failure>, everything else passes. Counts and times on the root and the
 * suite, as CI publishers expect them; comparing a run with itself lists
 * every rule as unchanged, never an empty suite.
 */
export function renderComparisonJUnit(c: Comparison, options: { allowCoverageDrop?: boolean } = {}): string {
  const all: Array<[string, RuleChange]> = [
    ...c.regressions.map((x): [string, RuleChange] => ['regression', x]),
    ...c.coverageDrops.map((x): [string, RuleChange] => ['coverage', x]),
    ...c.fixed.map((x): [string, RuleChange] => ['fixed', x]),
    ...c.newErrors.map((x): [string, RuleChange] => ['new error', x]),
    ...c.observationsChanged.map((x): [string, RuleChange] => ['observation changed', x]),
    ...c.otherChanges.map((x): [string, RuleChange] => ['other change', x]),
    ...c.unchanged.map((x): [string, RuleChange] => ['unchanged', x]),
  ];
  const cases = all.map(([kind, x]) => {
    const failing = kind === 'regression' || (kind === 'coverage' && !options.allowCoverageDrop);
    const body = failing
      ? `<failure message="${xmlAttr(`${x.before} → ${x.after}`)}" type="${kind === 'coverage' ? 'coverage regression' : 'regression'}">${cdata(x.detail ?? '')}</failure>`
      : `<system-out>${cdata(`${kind}: ${x.before} → ${x.after}${x.detail ? `\n${x.detail}` : ''}`)}</system-out>`;
    return `    <testcase name="${xmlAttr(x.ruleId)}" classname="${xmlAttr(kind)}" time="0">${body}</testcase>`;
  });
  const failures = c.regressions.length + (options.allowCoverageDrop ? 0 : c.coverageDrops.length);
  const counts = `tests="${all.length}" failures="${failures}" errors="0" skipped="0" time="0"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="directory-conformance compare" ${counts}>\n  <testsuite name="compare" ${counts} timestamp="${xmlAttr(c.new.startedAt)}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

const CHANGE_CSS = `
.changes td{text-align:left}
.changes td.verdicts{white-space:nowrap}
.changes .why{font-size:12px}
.changes .why span{display:block}
`;

function verdictBadge(v: string): string {
  return v === 'absent' ? '<span class="muted">absent</span>' : `<span class="badge v-${esc(v)}">${esc(v)}</span>`;
}

function runLine(label: string, side: Comparison['old']): string {
  const report = side.report ? ` · <a href="${esc(side.report)}">report</a>` : '';
  return `<div><dt>${label}</dt><dd>${esc(side.baseUrl)} · Service-Version ${esc(side.serviceVersion)} · ${esc(side.startedAt)} · coverage ${(side.coverage * 100).toFixed(1)}% of ${side.rules} rules${report}</dd></div>`;
}

/** A rule's link into one run's report, when that report is known. */
function ruleLink(side: Comparison['old'], ruleId: string, text: string): string {
  return side.report ? `<a href="${esc(side.report)}#rule-${esc(ruleId)}">${text}</a>` : text;
}

/**
 * compare.html: the main report's style sheet, both runs linked, and for each
 * change the reason it ended as it did before and after.
 */
export function renderComparisonHtml(c: Comparison, options: { allowCoverageDrop?: boolean } = {}): string {
  const table = (title: string, id: string, changes: RuleChange[]): string =>
    `<h2 id="${id}">${esc(title)} (${changes.length})</h2>` +
    (changes.length === 0
      ? '<p class="muted">none</p>'
      : `<table class="changes"><thead><tr><th>rule</th><th>clause</th><th>before → after</th><th>why</th></tr></thead><tbody>${changes
          .map(
            (x) =>
              `<tr data-rule-id="${esc(x.ruleId)}"><td class="mono">${esc(x.ruleId)}</td><td>${esc(x.clause)}</td><td class="verdicts">${ruleLink(c.old, x.ruleId, verdictBadge(x.before))} → ${ruleLink(c.new, x.ruleId, verdictBadge(x.after))}</td><td class="why">${
                x.reasonBefore ? `<span>before: ${esc(x.reasonBefore)}</span>` : ''
              }${x.reasonAfter ? `<span>after: ${esc(x.reasonAfter)}</span>` : ''}${
                x.detail && x.detail !== x.reasonAfter ? `<span>${esc(x.detail)}</span>` : ''
              }</td></tr>`,
          )
          .join('\n')}</tbody></table>`);
  const regression = c.regressions.length > 0;
  const coverage = coverageRegressed(c);
  const verdict = regression
    ? { cls: 'bad', text: 'regression' }
    : coverage && !options.allowCoverageDrop
      ? { cls: 'bad', text: 'coverage regression' }
      : coverage
        ? { cls: 'warn', text: 'coverage dropped (allowed)' }
        : { cls: 'ok', text: 'no regression' };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>Directory conformance: comparison</title>
<style>${CSS}${CHANGE_CSS}</style>
</head>
<body>
<header id="top">
<h1>Directory Service conformance: comparison</h1>
<dl class="run-meta">${runLine('old', c.old)}${runLine('new', c.new)}</dl>
<div class="figures">
<div class="figure" id="verdict"><span>verdict</span><b class="${verdict.cls}">${verdict.text}</b></div>
<div class="figure"><span>newly failing</span><b>${c.regressions.length}</b></div>
<div class="figure"><span>no longer checked</span><b>${c.coverageDrops.length}</b><small>coverage ${(c.old.coverage * 100).toFixed(1)}% → ${(c.new.coverage * 100).toFixed(1)}%</small></div>
<div class="figure"><span>fixed</span><b>${c.fixed.length}</b></div>
<div class="figure"><span>new harness errors</span><b>${c.newErrors.length}</b></div>
</div>
</header>
<main>
${table('Newly failing', 'regressions', c.regressions)}
${table('No longer checked (coverage regression)', 'coverage', c.coverageDrops)}
${table('Fixed', 'fixed', c.fixed)}
${table('New harness errors', 'errors', c.newErrors)}
${table('Observations changed', 'observations', c.observationsChanged)}
${table('Other changes', 'other', c.otherChanges)}
</main>
<footer>directory-conformance · this page fetches nothing and runs no script</footer>
</body>
</html>
`;
}
