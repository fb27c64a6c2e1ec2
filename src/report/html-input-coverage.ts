/**
 * The page's input coverage: per operation with an input model, the fields
 * and their classes, the share of pairs of (field, class) the pairwise rule
 * exercised, and the classes the target cannot serve, each with why.
 */
import type { InputCoverage, PairShare } from '../core/types.ts';
import { escapeHtml as esc } from './html-escape.ts';

const share = (p: PairShare): string =>
  `${p.exercised}/${p.servable} (${p.servable === 0 ? 100 : Math.round((100 * p.exercised) / p.servable)}%)`;

function operation(c: InputCoverage): string {
  const factors = c.factors.map((f) => `<li><code>${esc(f.name)}</code>: ${f.classes.map(esc).join(', ')}</li>`);
  const fixed = c.fixed.map((f) => `<li><code>${esc(f.field)}</code> not varied: ${esc(f.why)}</li>`);
  const pairs = Object.entries(c.byFactorPair).map(([pair, p]) => `<tr><td>${esc(pair)}</td><td>${share(p)}</td></tr>`);
  const unservable =
    c.notServable.length === 0
      ? '<p>Every class is servable with this profile.</p>'
      : `<ul>${c.notServable.map((u) => `<li>not servable <code>${esc(u.factor)} = ${esc(u.class)}</code>: ${esc(u.why)}</li>`).join('')}</ul>`;
  return `<h3>${esc(c.operation)}</h3>
<p><code>${esc(c.rule)}</code>: ${c.rowsJudged} of ${c.rows} rows judged (${c.strength === 2 ? 'pairwise' : 'triples'}); pairs exercised ${share(c.pairs)} of those the target can serve.</p>
<ul>${[...factors, ...fixed].join('')}</ul>
<div class="table-wrap"><table><thead><tr><th>factors</th><th>pairs exercised</th></tr></thead><tbody>${pairs.join('')}</tbody></table></div>
${unservable}`;
}

/** The section, or nothing when no pairwise rule recorded its coverage. */
export function inputCoverageSection(coverage: readonly InputCoverage[] | undefined): string {
  if (coverage === undefined || coverage.length === 0) return '';
  // Starts on a line of its own; nothing at all when there is no section.
  return `
<h2 id="input-coverage">Input coverage</h2>
<p>Each operation's input space, derived from its request schema: the pairs of (field, class) the run's covering arrays exercised.</p>
${coverage.map(operation).join('\n')}`;
}
