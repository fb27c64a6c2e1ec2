/**
 * What lets a reader find their way in the HTML report: the table of contents
 * by section (each section's rules linked, with their verdict and duration)
 * and the text each rule card is searched by (its id, clause, sentence,
 * reason and violations).
 */
import type { RuleResult } from '../core/types.ts';
import { escapeHtml as esc } from './html-escape.ts';
import { count, duration } from './plural.ts';
import { compareText } from './sections.ts';

/** Lower-cased, so the page's script compares it with the query as it is typed, lower-cased too. */
export function searchText(r: RuleResult): string {
  return [
    r.ruleId,
    r.clause,
    r.group,
    r.sentence,
    r.reason ?? '',
    r.errorCode ?? '',
    ...r.violations.flatMap((v) => [v.where, v.message]),
    ...r.observations.map((o) => o.subject),
  ]
    .join('\n')
    .toLowerCase();
}

/** The page's parts, then every section with its rules. */
export function tableOfContents(results: readonly RuleResult[], sections: readonly string[]): string {
  const bySection = sections.map((section) => {
    const rules = results.filter((r) => r.section === section).sort((a, b) => compareText(a.ruleId, b.ruleId));
    const title = [...new Set(rules.map((r) => r.group))].join(' · ');
    const links = rules
      .map(
        (r) =>
          `<li><a href="#rule-${esc(r.ruleId)}" data-toc-rule="${esc(r.ruleId)}"><span class="badge v-${r.verdict}">${r.verdict}</span> ${esc(r.ruleId)}</a> <span class="muted">${esc(duration(r.durationMs))}</span></li>`,
      )
      .join('');
    return `<li data-toc-section="${esc(section)}"><details><summary>${esc(section)} ${esc(title)} <span class="muted">(${esc(count(rules.length, 'rule'))})</span></summary><ul>${links}</ul></details></li>`;
  });
  return `<nav id="toc" aria-label="Contents"><h2>Contents</h2>
<ul class="toc-parts"><li><a href="#by-section">By section</a></li><li><a href="#by-operation">Latency per operation</a></li><li><a href="#rules-title">Rules</a></li><li><a href="#observations-title">Observations</a></li></ul>
<ul class="toc-sections">${bySection.join('\n')}</ul>
</nav>`;
}
