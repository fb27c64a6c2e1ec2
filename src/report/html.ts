import type { Exchange } from '../client/exchange.ts';
import type { RuleResult, RunResult, Verdict } from '../rules/types.ts';
import { toCurl } from './curl.ts';
import { replayCommand, show } from './describe-result.ts';
import { VERDICTS } from './summarise.ts';

/** Every server-provided string goes through here: it is hostile input. */
function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function pretty(body: string, max = 4000): string {
  let text = body;
  try {
    text = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    /* not JSON: shown as it came */
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--error:#9a6700;--skip:#6e7781;--observed:#0969da;--nt:#8250df;--bg:#f6f8fa;--fg:#1f2328}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:var(--fg);background:#fff}
header{padding:20px 28px;background:var(--bg);border-bottom:1px solid #d0d7de}h1{margin:0 0 4px;font-size:22px}
.meta{color:#57606a}.figures{display:flex;gap:16px;margin-top:14px;flex-wrap:wrap}
.figure{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:10px 16px;min-width:120px}
.figure b{display:block;font-size:24px}.ok{color:var(--pass)}.bad{color:var(--fail)}
main{padding:20px 28px}table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid #d0d7de;padding:4px 10px;text-align:right}
th:first-child,td:first-child{text-align:left}.bar{display:flex;height:14px;width:320px;border-radius:4px;overflow:hidden;background:#eee}
.bar span{display:block;height:100%}.v-PASS{background:var(--pass)}.v-FAIL{background:var(--fail)}.v-ERROR{background:var(--error)}
.v-SKIP{background:var(--skip)}.v-OBSERVED{background:var(--observed)}.v-NOT-TESTED{background:var(--nt)}
.filters{display:flex;gap:12px;align-items:center;margin:12px 0;flex-wrap:wrap}
.card{border:1px solid #d0d7de;border-radius:8px;margin:10px 0;padding:10px 14px}.card h3{margin:0;font-size:15px;font-family:ui-monospace,monospace}
.badge{display:inline-block;color:#fff;border-radius:10px;padding:0 8px;font-size:12px;margin-right:8px;vertical-align:middle}
.clause{color:#57606a}.sentence{margin:4px 0;font-style:italic}pre{background:var(--bg);padding:8px;overflow:auto;max-height:320px;font-size:12px;white-space:pre-wrap;word-break:break-all}
details{margin:6px 0}.violation{border-left:3px solid var(--fail);padding-left:8px;margin:6px 0}
button.copy{font-size:12px;margin-left:6px}#observations td,#observations th{text-align:left}#observations code{word-break:break-all}.hidden{display:none}
`;

const SCRIPT = `
(function(){
  var failed=document.getElementById('filter-failed'),section=document.getElementById('filter-section'),level=document.getElementById('filter-level');
  function apply(){
    var cards=document.querySelectorAll('.card[data-rule-id]');var shown=0;
    for(var i=0;i<cards.length;i++){var c=cards[i];
      var ok=(!failed.checked||c.getAttribute('data-verdict')==='FAIL'||c.getAttribute('data-verdict')==='ERROR')
        &&(!section.value||c.getAttribute('data-section')===section.value)&&(!level.value||c.getAttribute('data-level')===level.value);
      c.classList.toggle('hidden',!ok);if(ok)shown++;}
    document.getElementById('shown-count').textContent=shown;
  }
  failed.addEventListener('change',apply);section.addEventListener('change',apply);level.addEventListener('change',apply);
  document.addEventListener('click',function(e){var t=e.target;if(t&&t.classList&&t.classList.contains('copy')){
    var pre=document.getElementById(t.getAttribute('data-target'));if(pre&&navigator.clipboard){navigator.clipboard.writeText(pre.textContent);t.textContent='copied';}}});
  apply();
})();
`;

function bar(counts: Record<Verdict, number>, total: number): string {
  if (total === 0) return '';
  return `<div class="bar" role="img" aria-label="${VERDICTS.map((v) => `${counts[v]} ${v}`).join(', ')}">${VERDICTS.filter((v) => counts[v] > 0)
    .map((v) => `<span class="v-${v}" style="width:${((counts[v] / total) * 100).toFixed(2)}%" title="${counts[v]} ${v}"></span>`)
    .join('')}</div>`;
}

let preId = 0;
function copyable(text: string, label: string): string {
  const id = `pre-${++preId}`;
  return `<div>${label}<button class="copy" data-target="${id}">copy</button></div><pre id="${id}">${esc(text)}</pre>`;
}

function exchangeHtml(e: Exchange, i: number): string {
  const response = e.response
    ? `<div>→ ${e.response.status}${e.response.truncated ? ' (body truncated)' : ''}</div><pre>${esc(pretty(e.response.body))}</pre>`
    : `<div>→ no response: ${esc(e.error?.code ?? '')} ${esc(e.error?.message ?? '')}</div>`;
  return `<details><summary>#${i + 1} ${esc(e.operation)} (${e.durationMs} ms${e.attempts > 1 ? `, ${e.attempts} attempts` : ''})</summary><pre>${esc(pretty(e.request.body))}</pre>${response}${copyable(toCurl(e), 'curl')}</details>`;
}

function card(r: RuleResult, run: RunResult): string {
  const parts = [
    `<div class="card" data-rule-id="${esc(r.ruleId)}" data-verdict="${r.verdict}" data-section="${esc(r.section)}" data-level="${r.level}">`,
    `<h3><span class="badge v-${r.verdict}">${r.verdict}</span>${esc(r.ruleId)} <span class="clause">${esc(r.clause)} · ${r.level} · ${r.requestCount} requests · ${r.durationMs} ms</span></h3>`,
    `<div class="sentence">${esc(r.sentence)}</div>`,
  ];
  if (r.reason) parts.push(`<div class="reason">${esc(r.reason)}</div>`);
  for (const v of r.violations) {
    parts.push(
      `<div class="violation"><b>${esc(v.where)}</b>: ${esc(v.message)}${v.expected !== undefined ? `<br>expected: <code>${esc(show(v.expected))}</code>` : ''}${v.actual !== undefined ? `<br>actual: <code>${esc(show(v.actual))}</code>` : ''}</div>`,
    );
  }
  if (r.replay) {
    parts.push(`<div>property: seed ${r.replay.seed}${r.replay.path ? `, path ${esc(r.replay.path)}` : ''}, ${r.replay.numRuns} runs${r.replay.counterexample ? `; counterexample <code>${esc(r.replay.counterexample)}</code>` : ''}</div>`);
  }
  if (r.verdict === 'FAIL' || r.verdict === 'ERROR') {
    parts.push(copyable(replayCommand(r, run), 'replay'));
    parts.push(...r.exchanges.slice(-5).map((e, i) => exchangeHtml(e, r.exchanges.length - Math.min(5, r.exchanges.length) + i)));
  }
  if (r.observations.length > 0) {
    parts.push(`<ul class="observations">${r.observations.map((o) => `<li>${esc(o.subject)}: <code>${esc(show(o.value))}</code></li>`).join('')}</ul>`);
  }
  parts.push('</div>');
  return parts.join('\n');
}

/** Mean and slowest latency per operation, from the recorded exchanges, drawn as bars. */
function latencyChart(run: RunResult): string {
  const byOperation = new Map<string, number[]>();
  for (const r of run.results) for (const e of r.exchanges) byOperation.set(e.operation, [...(byOperation.get(e.operation) ?? []), e.durationMs]);
  if (byOperation.size === 0) return '<p>No exchanges recorded.</p>';
  const rows = [...byOperation].map(([op, times]) => ({ op, n: times.length, mean: times.reduce((a, b) => a + b, 0) / times.length, max: Math.max(...times) }));
  const scale = Math.max(1, ...rows.map((r) => r.max));
  return `<table id="latency"><thead><tr><th>operation</th><th>requests</th><th>mean ms</th><th>max ms</th><th></th></tr></thead><tbody>${rows
    .sort((a, b) => a.op.localeCompare(b.op))
    .map(
      (r) =>
        `<tr><td>${esc(r.op)}</td><td>${r.n}</td><td>${r.mean.toFixed(1)}</td><td>${r.max}</td><td><div class="bar" title="mean ${r.mean.toFixed(1)} ms, max ${r.max} ms"><span class="v-OBSERVED" style="width:${((r.mean / scale) * 100).toFixed(1)}%"></span><span class="v-SKIP" style="width:${(((r.max - r.mean) / scale) * 100).toFixed(1)}%"></span></div></td></tr>`,
    )
    .join('')}</tbody></table>`;
}

/** One self-contained page: no network, opens from disk. */
export function renderHtml(run: RunResult): string {
  preId = 0;
  const s = run.summary;
  const sections = [...new Set(run.results.map((r) => r.section))];
  const countsOf = (rs: RuleResult[]): Record<Verdict, number> => {
    const c = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
    for (const r of rs) c[r.verdict] += 1;
    return c;
  };
  const matrix = sections
    .map((sec) => {
      const rs = run.results.filter((r) => r.section === sec);
      const c = countsOf(rs);
      return `<tr><td>${esc(sec)} ${esc(rs[0]?.group ?? '')}</td>${VERDICTS.map((v) => `<td>${c[v] || ''}</td>`).join('')}<td>${bar(c, rs.length)}</td></tr>`;
    })
    .join('\n');
  const order: Verdict[] = ['FAIL', 'ERROR', 'NOT-TESTED', 'PASS', 'OBSERVED', 'SKIP'];
  const sorted = [...run.results].sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict) || a.ruleId.localeCompare(b.ruleId));
  const observed = run.results.filter((r) => r.observations.length > 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Directory conformance: ${esc(run.target.baseUrl)}</title><style>${CSS}</style></head>
<body>
<header><h1>Directory Service conformance</h1>
<div class="meta">${esc(run.target.baseUrl)}${run.target.profileName ? ` (${esc(run.target.profileName)})` : ''} · Service-Version ${esc(run.target.serviceVersion)} · ${esc(run.startedAt)} · seed ${run.options.seed} · ${esc(run.tool.name)} ${esc(run.tool.version)}</div>
<div class="figures">
<div class="figure" id="verdict"><span>verdict</span><b class="${s.conformant ? 'ok' : 'bad'}">${s.conformant ? 'conformant' : 'not conformant'}</b></div>
<div class="figure" id="score"><span>score (MUST rules passed)</span><b>${(s.score * 100).toFixed(1)}%</b></div>
<div class="figure" id="coverage"><span>coverage (rules exercised)</span><b>${(s.coverage * 100).toFixed(1)}%</b></div>
${VERDICTS.map((v) => `<div class="figure" data-count="${v}"><span>${v}</span><b>${s.byVerdict[v]}</b></div>`).join('\n')}
</div></header>
<main>
<h2>By section</h2>
<table id="matrix"><thead><tr><th>section</th>${VERDICTS.map((v) => `<th>${v}</th>`).join('')}<th></th></tr></thead><tbody>
${matrix}
</tbody></table>
<h2>Latency per operation</h2>
${latencyChart(run)}
<h2>Rules</h2>
<div class="filters">
<label><input type="checkbox" id="filter-failed"> failed only</label>
<label>section <select id="filter-section"><option value="">all</option>${sections.map((sec) => `<option value="${esc(sec)}">${esc(sec)}</option>`).join('')}</select></label>
<label>level <select id="filter-level"><option value="">all</option><option>MUST</option><option>OBSERVED</option></select></label>
<span><span id="shown-count">${sorted.length}</span> shown</span>
</div>
<div id="rules">
${sorted.map((r) => card(r, run)).join('\n')}
</div>
<h2>Observations</h2>
<p>Where the spec leaves a choice open, the suite records what the server did; these never count as failures.</p>
<table id="observations"><thead><tr><th>rule</th><th>what</th><th>seen</th></tr></thead><tbody>
${observed.flatMap((r) => r.observations.map((o) => `<tr><td>${esc(r.ruleId)}</td><td>${esc(o.subject)}</td><td><code>${esc(show(o.value))}</code></td></tr>`)).join('\n')}
</tbody></table>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
