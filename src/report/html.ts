import type { Exchange } from '../core/exchange.ts';
import type { RuleResult, RunResult, Verdict, Violation } from '../core/types.ts';
import { UNSTABLE_FLIPS, UNSTABLE_WINDOW, type RuleHistory, type RunHistory } from '../gate/history.ts';
import { toCurl } from './curl.ts';
import { clip, replayCommand, show } from './describe-result.ts';
import { CONTENT_SECURITY_POLICY, CSS, SCRIPT } from './html-assets.ts';
import { escapeHtml as esc } from './html-escape.ts';
import { prettyJson } from './pretty-json.ts';
import { compareSections, compareText } from './sections.ts';
import { VERDICTS, honestCounts, noVerdicts } from '../core/summarise.ts';
import { blockedText, knownFailureOf } from './gate-status.ts';
import { describeSelection } from './selection.ts';
import { renderTrace } from './html-trace.ts';
import { searchText, tableOfContents } from './html-navigation.ts';
import { count, duration } from './plural.ts';
import { inputCoverageSection } from './html-input-coverage.ts';

/** Longest body or value shown; the JSON report keeps everything. */
const MAX_SHOWN = 4000;
/** Exchanges shown per failing rule, counted from the last. */
const MAX_EXCHANGES = 5;
/** Cards in the order a reader needs them: what is broken first. */
const CARD_ORDER: readonly Verdict[] = ['FAIL', 'FLAKY', 'ERROR', 'NOT-TESTED', 'SKIP', 'OBSERVED', 'PASS'];

type Counts = Record<Verdict, number>;

function countsOf(results: readonly RuleResult[]): Counts {
  const counts: Counts = noVerdicts();
  for (const r of results) counts[r.verdict] += 1;
  return counts;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Copy buttons point at their text by id; ids are numbered per page so a render is deterministic. */
class Ids {
  private next = 0;
  take(prefix: string): string {
    this.next += 1;
    return `${prefix}-${this.next}`;
  }
}

function copyable(ids: Ids, label: string, text: string, cls: string): string {
  const id = ids.take(cls);
  return `<div class="command"><b>${esc(label)}</b><button type="button" class="copy" data-copy-target="${id}">copy</button></div><pre id="${id}" class="${cls}">${esc(text)}</pre>`;
}

function verdictBar(counts: Counts, total: number, cls = ''): string {
  if (total === 0) return '';
  const label = VERDICTS.map((v) => `${counts[v]} ${v}`).join(', ');
  const spans = VERDICTS.filter((v) => counts[v] > 0)
    .map(
      (v) =>
        `<span class="v-${v}" style="width:${((counts[v] / total) * 100).toFixed(2)}%" title="${counts[v]} ${v}"></span>`,
    )
    .join('');
  return `<div class="bar${cls ? ` ${cls}` : ''}" role="img" aria-label="${label}">${spans}</div>`;
}

function header(run: RunResult, history?: RunHistory): string {
  const s = run.summary;
  const { mustPassed, mustDecided } = honestCounts(run.results);
  const elapsed = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  const duration: Array<[string, string]> = Number.isFinite(elapsed)
    ? [['Duration', `${(elapsed / 1000).toFixed(1)} s`]]
    : [];
  const meta: Array<[string, string]> = [
    ['Target', run.target.baseUrl + (run.target.profileName ? ` (${run.target.profileName})` : '')],
    ['Service-Version', run.target.serviceVersion],
    ['Selection', describeSelection(run)],
    ['Started', run.startedAt],
    ...duration,
    [
      'Seed',
      `${run.options.seed} (${run.options.numRuns !== undefined ? `${count(run.options.numRuns, 'run')} per property` : "each property's own runs"})`,
    ],
    ['Mutations', run.options.allowMutations ? 'allowed' : 'not allowed'],
    ['Tool', `${run.tool.name} ${run.tool.version}`],
  ];
  return `<header id="top">
<h1>Directory Service conformance</h1>
${failuresFirst(run)}
<dl class="run-meta">${meta.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>
<div class="figures">
<div class="figure" id="verdict"><span>verdict</span><b class="${run.interrupted ? 'bad' : OUTCOME[s.outcome].cls}">${run.interrupted ? `interrupted (${esc(run.interrupted.signal)})` : OUTCOME[s.outcome].text}</b><small>${esc(run.interrupted ? 'rules not started are NOT-TESTED' : verdictReasons(run).join('; '))}</small></div>
<div class="figure" id="score"><span>score</span><b>${percent(s.score)}</b><small>${mustPassed} of ${count(mustDecided, 'MUST rule')} passed</small></div>
<div class="figure" id="coverage"><span>coverage</span><b>${percent(s.coverage)}</b><small>${s.ran} of the ${count(s.total, 'selected rule')} ran; ${percent(s.servableCoverage)} of the ${s.servable} this target can serve (required ${percent(s.requiredCoverage)})</small></div>
${gateFigure(run)}${inferredFigure(run)}${requestsFigure(run)}${historyFigure(history)}
${VERDICTS.map((v) => `<div class="figure v-${v}" data-count="${v}"><span>${v}</span><b>${s.byVerdict[v]}</b></div>`).join('\n')}
</div>
${verdictBar(s.byVerdict, s.total, 'wide')}
</header>`;
}

/**
 * Why the run ended as it did, the FAILs first (they decide it), then what
 * left it inconclusive (FLAKY, ERROR, coverage).
 */
function verdictReasons(run: RunResult): string[] {
  const failed = run.results.filter((r) => r.verdict === 'FAIL');
  const fails =
    failed.length > 0 ? [`${count(failed.length, 'rule')} FAILed: ${failed.map((r) => r.ruleId).join(', ')}`] : [];
  const rest = run.summary.inconclusive;
  if (fails.length + rest.length === 0) return ['no MUST rule may fail; every rule the target can serve must run'];
  return [...fails, ...rest];
}

/**
 * The FAILs, right under the page's title: each rule with its clause, its
 * first violation in one line and a link to its card, so a reader sees what
 * failed before any figure or table (the cards come far below).
 */
function failuresFirst(run: RunResult): string {
  const failed = run.results.filter((r) => r.verdict === 'FAIL');
  if (failed.length === 0) return '';
  const rows = failed.map((r) => {
    const first = r.violations[0];
    const line = first ? `${first.where}: ${first.message}` : (r.reason ?? '');
    return `<tr><td><a href="#rule-${esc(r.ruleId)}">${esc(r.ruleId)}</a></td><td>${esc(r.clause)}</td><td>${esc(clip(line, 200))}</td></tr>`;
  });
  return `<div id="failures"><h2>${count(failed.length, 'FAIL')}</h2>
<div class="table-wrap"><table id="failures-table"><thead><tr><th>rule</th><th>clause</th><th>first violation</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div></div>`;
}

/** A section after the rules, folded: open it to read it (the failures and the rules come first). */
function folded(title: string, body: string): string {
  return body.trim() === '' ? '' : `<details class="folded"><summary>${esc(title)}</summary>${body}</details>`;
}

const OUTCOME = {
  conformant: { text: 'conformant', cls: 'ok' },
  'not-conformant': { text: 'not conformant', cls: 'bad' },
  inconclusive: { text: 'inconclusive', cls: 'warn' },
} as const;

/** Gate mode: whether the gate passed, with its known failures (they do not fail the run). */
function gateFigure(run: RunResult): string {
  const g = run.gate;
  if (!g) return '';
  const notes = [
    `${count(g.knownFailures.length, 'known failure')} (${g.file})`,
    ...(g.unexpectedFailures.length > 0 ? [`${g.unexpectedFailures.length} new`] : []),
    ...(g.unexpectedPasses.length > 0
      ? [count(g.unexpectedPasses.length, 'unexpected pass', 'unexpected passes')]
      : []),
    ...(g.expired.length > 0 ? [`${g.expired.length} expired`] : []),
  ];
  return `<div class="figure" id="gate"><span>gate</span><b class="${g.passed ? 'ok' : 'bad'}">${g.passed ? 'passed' : 'failed'}</b><small>${esc(notes.join(', '))}</small></div>
`;
}

/** What the run cost the target, against the budget when it had one; each rule's own count is on its card. */
function requestsFigure(run: RunResult): string {
  const r = run.requests;
  if (!r) return '';
  const budget = r.budget === null ? 'no --max-requests budget' : `of a budget of ${r.budget} (--max-requests)`;
  const shared = r.shared ? `; ${count(r.shared, 'answer')} shared between rules` : '';
  return `<div class="figure" id="requests"><span>requests</span><b>${r.total}</b><small>${esc(budget + shared)}</small></div>
`;
}

/** INFERRED departures, counted apart from the score (they fail the run only with --strict). */
function inferredFigure(run: RunResult): string {
  const inferred = run.summary.inferred;
  if (!inferred || inferred.judged === 0) return '';
  const note = run.options.strict ? 'strict run: they fail it' : 'counted apart; fail the run only with --strict';
  return `<div class="figure" id="inferred"><span>inferred</span><b>${count(inferred.failed, 'departure')}</b><small>${count(inferred.judged, 'INFERRED rule')} judged; ${note}</small></div>`;
}

function matrix(run: RunResult, sections: readonly string[]): string {
  if (sections.length === 0) return '<p>No rule ran.</p>';
  const rows = sections.map((section) => {
    const rs = run.results.filter((r) => r.section === section);
    const counts = countsOf(rs);
    const title = [...new Set(rs.map((r) => r.group))].join(' · ');
    const cells = VERDICTS.map(
      (v) => `<td class="n v-${v}${counts[v] > 0 ? ' has' : ''}" data-verdict="${v}">${counts[v]}</td>`,
    ).join('');
    return `<tr data-section="${esc(section)}" title="show only ${esc(section)}"><td>${esc(section)} ${esc(title)}</td>${cells}<td>${rs.length}</td><td>${verdictBar(counts, rs.length)}</td></tr>`;
  });
  return `<div class="table-wrap"><table id="matrix"><thead><tr><th>section</th>${VERDICTS.map((v) => `<th>${v}</th>`).join('')}<th>rules</th><th></th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

/** The value below which `q` of the sorted values fall (nearest rank). */
function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/**
 * Latency per operation (p50, p95, max) from the recorded exchanges: the
 * server's time from sending a request to its complete answer. Time spent
 * waiting for the rate limiter and between retries is not latency; it is
 * shown apart.
 */
function latency(run: RunResult): string {
  const byOperation = new Map<string, { times: number[]; waited: number }>();
  for (const r of run.results) {
    for (const e of r.exchanges) {
      if (e.shared) continue; // another rule's request, timed there
      const t = byOperation.get(e.operation) ?? { times: [], waited: 0 };
      t.times.push(e.durationMs);
      t.waited += (e.queuedMs ?? 0) + (e.retryWaitMs ?? 0);
      byOperation.set(e.operation, t);
    }
  }
  if (byOperation.size === 0) return '<p>No exchanges recorded.</p>';
  const rows = [...byOperation]
    .map(([operation, t]) => {
      const sorted = [...t.times].sort((a, b) => a - b);
      return {
        operation,
        n: sorted.length,
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        max: sorted.at(-1) ?? 0,
        waited: t.waited,
      };
    })
    .sort((a, b) => compareText(a.operation, b.operation));
  const scale = rows.reduce((m, r) => Math.max(m, r.max), 1);
  const width = (ms: number): string => ((ms / scale) * 100).toFixed(1);
  const body = rows
    .map((r) => {
      const bar = `<span class="v-OBSERVED" style="width:${width(r.p50)}%"></span><span class="v-SKIP" style="width:${width(r.p95 - r.p50)}%"></span><span class="v-NOT-TESTED" style="width:${width(r.max - r.p95)}%"></span>`;
      return `<tr><td>${esc(r.operation)}</td><td>${r.n}</td><td>${r.p50}</td><td>${r.p95}</td><td>${r.max}</td><td>${Math.round(r.waited)}</td><td><div class="bar" title="p50 ${r.p50} ms, p95 ${r.p95} ms, max ${r.max} ms">${bar}</div></td></tr>`;
    })
    .join('\n');
  return `<p class="muted">From sending a request to its complete answer, over the exchanges kept in the rules' transcripts. Waiting for the rate limiter and between retries is not latency: it is the "waited" column.</p>
<div class="table-wrap"><table id="latency"><thead><tr><th>operation</th><th>requests</th><th>p50 ms</th><th>p95 ms</th><th>max ms</th><th>waited ms (total)</th><th>p50 / p95 / max</th></tr></thead><tbody>
${body}
</tbody></table></div>`;
}

function filters(sections: readonly string[], total: number): string {
  return `<div id="filters">
<label><input type="checkbox" id="filter-failed"> failed only (FAIL, ERROR)</label>
<label>section <select id="filter-section"><option value="">all</option>${sections.map((s) => `<option value="${esc(s)}">${esc(s)}</option>`).join('')}</select></label>
<label>level <select id="filter-level"><option value="">all</option><option value="MUST">MUST</option><option value="INFERRED">INFERRED</option><option value="OBSERVED">OBSERVED</option></select></label>
<label>search <input type="search" id="filter-text" placeholder="rule, clause or message" autocomplete="off"></label>
<span class="muted"><span id="shown-count">${total}</span> of ${count(total, 'rule')} shown</span>
</div>`;
}

function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function shownBody(body: string): string {
  return body === '' ? '(empty body)' : clip(prettyJson(body), MAX_SHOWN);
}

/** `n`: the exchange's number in the rule's transcript; a trace's exchanges go by their step instead. */
function exchange(e: Exchange, n: number | undefined, ids: Ids): string {
  const status = e.response ? String(e.response.status) : e.error.code;
  const statusClass = e.response ? `s${String(e.response.status).charAt(0)}` : 'none';
  const attempts = e.shared
    ? ', shared: the answer to the same request another rule sent'
    : e.attempts > 1
      ? `, ${e.attempts} attempts${e.earlierAttempts ? `: ${answersOf(e)}` : ''}`
      : '';
  const response = e.response
    ? `<h4>Response ${e.response.status}${e.response.truncated ? ' (body truncated when recorded)' : ''}</h4><pre class="response-headers">${esc(headersText(e.response.headers))}</pre><pre class="response-body">${esc(shownBody(e.response.body))}</pre>`
    : `<h4>No response</h4><pre class="transport-error">${esc(`${e.error.code}: ${e.error.message}`)}</pre>`;
  return `<details class="exchange"${n === undefined ? '' : ` data-exchange="${n}"`}><summary>${n === undefined ? '' : `#${n} `}${esc(e.request.method)} ${esc(e.operation)} → <span class="status ${statusClass}">${esc(status)}</span> <span class="muted">(${e.durationMs} ms${attempts})</span></summary>
<h4>Request</h4><pre class="request-headers">${esc(`${e.request.method} ${e.request.url}\n${headersText(e.request.headers)}`)}</pre><pre class="request-body">${esc(shownBody(e.request.body))}</pre>
${response}
${copyable(ids, 'curl', toCurl(e), 'curl')}
</details>`;
}

/** Every answer (or transport error) the request got, the client's repeats included, oldest first. */
function answersOf(e: Exchange): string {
  const last = e.response ? String(e.response.status) : e.error.code;
  return [...(e.earlierAttempts ?? []).map((a) => String(a.status ?? a.error)), last].join(', ');
}

/**
 * Server errors the client repeated and that did not decide the verdict (a
 * lone 500 to a read, answered when sent again): noted on every card, whatever
 * its verdict, so a passing rule's glitch is seen.
 */
function repeatedServerErrors(r: RuleResult): string {
  const noted = r.exchanges.flatMap((e, i) =>
    e.earlierAttempts?.some((a) => a.status !== undefined && a.status >= 500) === true && !e.shared
      ? [`#${i + 1} ${e.operation}${e.startedAt ? ` at ${e.startedAt}` : ''}: ${answersOf(e)}`]
      : [],
  );
  if (noted.length === 0) return '';
  const errors = count(noted.length, 'server error');
  return `<div class="repeated-server-errors"><b>${errors} the client repeated</b> (the repeat's answer stands): <ul>${noted.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></div>`;
}

/**
 * A rule's violations, those of one kind (the same place once its numbers are
 * set aside, and the same message) grouped: the first of each kind shown in
 * full, with how many there were ("56 × …"), not the same block 56 times.
 */
function violations(r: RuleResult): string {
  if (r.violations.length === 0) return '';
  const kinds = new Map<string, { first: Violation; count: number }>();
  for (const v of r.violations) {
    const kind = `${v.where.replace(/\d+/g, '#')}\u0000${v.message.replace(/\d+/g, '#')}\u0000${v.foundBy ?? ''}`;
    const known = kinds.get(kind);
    if (known) known.count += 1;
    else kinds.set(kind, { first: v, count: 1 });
  }
  const items = [...kinds.values()].map(({ first: v, count: times }) => {
    const rows = [
      ...(v.expected !== undefined
        ? [`<dt>expected</dt><dd><pre class="expected">${esc(clip(show(v.expected), MAX_SHOWN))}</pre></dd>`]
        : []),
      ...(v.actual !== undefined
        ? [`<dt>actual</dt><dd><pre class="actual">${esc(clip(show(v.actual), MAX_SHOWN))}</pre></dd>`]
        : []),
    ];
    const foundBy = v.foundBy
      ? ` <span class="found-by">(seen in the requests of <a href="#rule-${esc(v.foundBy)}">${esc(v.foundBy)}</a>)</span>`
      : '';
    const repeated = times > 1 ? `<span class="times">${times} ×</span> ` : '';
    return `<div class="violation">${repeated}<span class="where">${esc(v.where)}</span>: <span class="message">${esc(v.message)}</span>${foundBy}${rows.length > 0 ? `<dl class="expected-actual">${rows.join('')}</dl>` : ''}</div>`;
  });
  return `<div class="violations">${items.join('\n')}</div>`;
}

function propertyReplay(r: RuleResult): string {
  if (!r.replay) return '';
  const p = r.replay;
  const facts = [
    `seed ${p.seed}`,
    ...(p.path ? [`path ${p.path}`] : []),
    count(p.numRuns, 'run'),
    ...(p.numShrinks !== undefined ? [count(p.numShrinks, 'shrink')] : []),
  ];
  const counterexample = p.counterexample
    ? `<pre class="counterexample">${esc(clip(p.counterexample, MAX_SHOWN))}</pre>`
    : '';
  return `<div class="property"><b>Property</b> <span class="mono">${esc(facts.join(' · '))}</span>${counterexample}</div>`;
}

function observationsList(r: RuleResult): string {
  if (r.observations.length === 0) return '';
  return `<ul class="observations">${r.observations.map((o) => `<li>${esc(o.subject)}: <code>${esc(clip(show(o.value), 300))}</code></li>`).join('')}</ul>`;
}

/**
 * The rule's last verdicts as a strip (oldest first, this run last), how
 * often it flipped, since when it fails, and whether it is unstable.
 */
function historyStrip(h: RuleHistory | undefined): string {
  if (h === undefined) return '';
  const cells = h.verdicts
    .map((v) => `<span class="v-${v.verdict}" title="${esc(`${v.verdict} · ${v.startedAt}`)}"></span>`)
    .join('');
  const runs = h.verdicts.length;
  const facts = [
    `${runs === 1 ? 'first run kept' : `last ${runs} runs`}: flipped ${count(h.flips, 'time')}`,
    ...(h.changedFrom !== undefined ? [`was ${h.changedFrom} in the last run`] : []),
    ...(h.failingSince !== undefined ? [`failing since ${h.failingSince}`] : []),
  ];
  const unstable = h.unstable
    ? `<span class="unstable" title="${UNSTABLE_FLIPS} or more flips in its last ${UNSTABLE_WINDOW} runs">unstable</span>`
    : '';
  return `<div class="history" data-flips="${h.flips}"${h.unstable ? ' data-unstable="true"' : ''}><span class="strip" role="img" aria-label="${esc(h.verdicts.map((v) => v.verdict).join(', '))}">${cells}</span>${unstable}<span class="muted">${esc(facts.join(' · '))}</span></div>`;
}

/** Across runs: how many were kept, how many rules changed since the last, how many flip often. */
function historyFigure(history: RunHistory | undefined): string {
  if (history === undefined) return '';
  const unstable = [...history.rules.values()].filter((h) => h.unstable).length;
  const note =
    history.earlierRuns === 0
      ? `the first run kept in ${history.dir}`
      : `${history.changed.length} changed since the last run; ${unstable} unstable; ${count(history.earlierRuns, 'earlier run')} in ${history.dir}`;
  return `<div class="figure" id="history"><span>history</span><b>${count(history.earlierRuns + 1, 'run')}</b><small>${esc(note)}</small></div>
`;
}

function card(r: RuleResult, run: RunResult, ids: Ids, history?: RunHistory): string {
  const known = knownFailureOf(run, r);
  const meta = [r.clause, r.level, ...(r.kind === 'property' ? ['property'] : []), count(r.requestCount, 'request')];
  const parts = [
    `<article class="card v-${r.verdict}" id="rule-${esc(r.ruleId)}" data-rule-id="${esc(r.ruleId)}" data-verdict="${r.verdict}" data-section="${esc(r.section)}" data-level="${r.level}" data-kind="${r.kind}" data-search="${esc(searchText(r))}">`,
    `<div class="card-head"><span class="badge v-${r.verdict}">${r.verdict}</span>${known ? '<span class="known">known failure</span>' : ''}<h3>${esc(r.ruleId)}</h3><span class="muted">${esc(meta.join(' · '))} · <span class="duration" title="how long the rule took">${esc(duration(r.durationMs))}</span></span></div>`,
    `<p class="sentence">${esc(r.sentence)}</p>`,
    historyStrip(history?.rules.get(r.ruleId)),
  ];
  if (known)
    parts.push(
      `<p class="known-failure">known failure (${esc(run.gate?.file ?? 'expectations')}): ${esc(known.reason)}${known.expires ? ` · expires ${esc(known.expires)}` : ' · no expiry'}</p>`,
    );
  if (r.verdict === 'ERROR')
    parts.push(
      `<p class="reason"><code class="error-code">${esc(r.errorCode ?? 'DC_ERR_HARNESS')}</code> ${esc(r.reason ?? '')}</p>`,
    );
  else if (r.blockedBy) {
    // One sentence: the blocking rule, linked, and its reason (never the reason and a second "blocked by").
    const { owner, why } = blockedText(r);
    parts.push(
      `<p class="reason blocked">blocked by <a href="#rule-${esc(owner)}">${esc(owner)}</a>${why ? `: ${esc(why)}` : ''}</p>`,
    );
  } else if (r.reason) parts.push(`<p class="reason">${esc(r.reason)}</p>`);
  parts.push(
    violations(r),
    propertyReplay(r),
    renderTrace(r.trace, (e) => exchange(e, undefined, ids)),
    repeatedServerErrors(r),
  );
  if (r.verdict === 'FAIL' || r.verdict === 'FLAKY' || r.verdict === 'ERROR') {
    parts.push(copyable(ids, 'Replay', replayCommand(r, run), 'replay'));
    if (r.verdict === 'FAIL')
      parts.push(
        `<p class="reproducer">Standalone reproducer (curl; exits 1 while the server departs, 0 once fixed): <code>reproduce/${esc(r.ruleId)}.sh</code>, beside this page</p>`,
      );
    const last = r.exchanges.slice(-MAX_EXCHANGES);
    if (last.length > 0) {
      const first = r.exchanges.length - last.length + 1;
      parts.push(
        `<div class="exchanges"><h4>${last.length === r.exchanges.length ? count(last.length, 'exchange') : `Last ${last.length} of ${count(r.exchanges.length, 'exchange')}`}</h4>${last.map((e, i) => exchange(e, first + i, ids)).join('\n')}</div>`,
      );
    }
  }
  parts.push(observationsList(r), '</article>');
  return parts.filter((p) => p !== '').join('\n');
}

function observationsTable(run: RunResult): string {
  const rows = run.results
    .filter((r) => r.observations.length > 0)
    .sort((a, b) => compareText(a.ruleId, b.ruleId))
    .flatMap((r) =>
      r.observations.map(
        (o) =>
          `<tr data-rule-id="${esc(r.ruleId)}"><td><a href="#rule-${esc(r.ruleId)}">${esc(r.ruleId)}</a></td><td>${esc(o.subject)}</td><td><pre>${esc(clip(prettyJson(show(o.value)), MAX_SHOWN))}</pre></td></tr>`,
      ),
    );
  if (rows.length === 0) return '<p>No observations recorded.</p>';
  return `<div class="table-wrap"><table id="observations"><thead><tr><th>rule</th><th>what was looked at</th><th>what the server did</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

/**
 * One self-contained page (inline style and script, nothing fetched) that
 * opens from disk. Every string from the run is escaped: server text is
 * hostile input.
 */
export function renderHtml(run: RunResult, history?: RunHistory): string {
  const ids = new Ids();
  const sections = [...new Set(run.results.map((r) => r.section))].sort(compareSections);
  const cards = [...run.results].sort(
    (a, b) => CARD_ORDER.indexOf(a.verdict) - CARD_ORDER.indexOf(b.verdict) || compareText(a.ruleId, b.ruleId),
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>Directory conformance: ${esc(run.target.baseUrl)}</title>
<style>${CSS}</style>
</head>
<body>
${header(run, history)}
<main>
${tableOfContents(run.results, sections)}
<h2 id="by-section">By section</h2>
${matrix(run, sections)}
<h2 id="rules-title">Rules</h2>
${filters(sections, cards.length)}
<div id="rules">
${cards.map((r) => card(r, run, ids, history)).join('\n')}
<p id="no-match" class="hidden">No rule matches the filters.</p>
</div>
${folded('Latency per operation', `<h2 id="by-operation">Latency per operation</h2>\n${latency(run)}`)}
${folded('Input coverage', inputCoverageSection(run.inputCoverage))}
<h2 id="observations-title">Observations</h2>
<p>Where the spec leaves a choice open ("not shown"), the suite records what the server did. These never count as failures.</p>
${observationsTable(run)}
</main>
<footer>${esc(run.tool.name)} ${esc(run.tool.version)} · this page fetches nothing and runs only its own script</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
