import { createHash } from 'node:crypto';

/** The page's only style sheet. Verdict colours come from one place: the --pass … --nt variables. */
export const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--error:#bc4c00;--skip:#6e7781;--observed:#0969da;--nt:#8250df;
--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}
body{margin:0;overflow-wrap:anywhere;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:#fff}
a{color:var(--observed)}
code,pre,.mono{font-family:var(--mono);font-size:12px}
pre{margin:4px 0;padding:8px 10px;background:var(--soft);border:1px solid var(--line);border-radius:6px;overflow:auto;max-height:360px;white-space:pre-wrap;overflow-wrap:anywhere}
h2{font-size:18px;margin:28px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h4{margin:12px 0 4px;font-size:13px}
.hidden{display:none!important}
.muted{color:var(--muted)}
#top{padding:20px 32px 16px;background:var(--soft);border-bottom:1px solid var(--line)}
#top h1{margin:0;font-size:22px}
.run-meta{display:flex;flex-wrap:wrap;gap:4px 18px;margin:6px 0 0;color:var(--muted)}
.run-meta dt{display:inline;font-weight:600}.run-meta dd{display:inline;margin:0 0 0 4px}
.figures{display:flex;flex-wrap:wrap;gap:10px;margin-top:16px}
.figure{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:92px}
.figure>span{display:block;color:var(--muted);font-size:12px}
.figure b{display:block;font-size:22px;line-height:1.3}
.figure small{color:var(--muted)}
.figure[data-count]{border-top:4px solid var(--c)}
.ok{color:var(--pass)}.bad{color:var(--fail)}.warn{color:var(--error)}
.known{display:inline-block;margin-left:6px;color:var(--error);border:1px solid var(--error);border-radius:10px;padding:0 8px;font-size:11px;font-weight:700}
main{padding:4px 32px 40px;max-width:1280px}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border:1px solid var(--line);padding:4px 10px;text-align:right;vertical-align:top}
th{background:var(--soft);font-weight:600;overflow-wrap:normal;word-break:keep-all;hyphens:none;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
#matrix tbody tr{cursor:pointer}#matrix tbody tr:hover{background:var(--soft)}
#matrix td.n{color:#afb8c1}#matrix td.n.has{color:#fff;font-weight:600;background:var(--c)}
.bar{display:flex;height:12px;width:260px;border-radius:6px;overflow:hidden;background:#eaeef2}
.bar span{display:block;height:100%;background:var(--c)}
.bar.wide{width:100%;max-width:720px;height:10px;margin-top:14px}
.v-PASS{--c:var(--pass)}.v-FAIL{--c:var(--fail)}.v-ERROR{--c:var(--error)}.v-SKIP{--c:var(--skip)}.v-OBSERVED{--c:var(--observed)}.v-NOT-TESTED{--c:var(--nt)}.v-FLAKY{--c:var(--error)}
#filters{position:sticky;top:0;z-index:1;display:flex;flex-wrap:wrap;gap:14px;align-items:center;padding:10px 0;background:#fff;border-bottom:1px solid var(--line)}
#filters select{font:inherit}
.card{border:1px solid var(--line);border-left:4px solid var(--c);border-radius:8px;margin:10px 0;padding:10px 14px}
.card-head{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
.card-head h3{margin:0;font:600 14px var(--mono)}
.badge{display:inline-block;min-width:64px;text-align:center;color:#fff;background:var(--c);border-radius:10px;padding:0 8px;font-size:11px;font-weight:700;letter-spacing:.03em}
.sentence{margin:6px 0;padding-left:10px;border-left:3px solid var(--line);color:var(--muted)}
.reason{margin:6px 0}
.history{display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px;margin:4px 0;font-size:12px}.strip{display:inline-flex;gap:1px}.strip span{display:inline-block;width:8px;height:14px;background:var(--c);border-radius:1px}
.unstable{color:var(--error);border:1px solid var(--error);border-radius:10px;padding:0 8px;font-size:11px;font-weight:700}
.repeated-server-errors{margin:6px 0;padding:4px 10px;border-left:3px solid var(--line);font-size:13px}.repeated-server-errors ul{margin:2px 0;padding-left:18px;font-family:var(--mono);font-size:12px}
.violation{margin:8px 0;padding:6px 10px;border-left:3px solid var(--fail);background:#fff8f8;border-radius:0 6px 6px 0}
.violation .where{font-family:var(--mono);font-weight:600}
.expected-actual{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:4px 0 0}
.expected-actual dt{color:var(--muted);padding-top:8px}.expected-actual dd{margin:0;min-width:0}
.command{display:flex;align-items:center;gap:8px;margin-top:8px}
button.copy{font:12px system-ui,sans-serif;padding:1px 10px;border:1px solid var(--line);border-radius:6px;background:#fff;cursor:pointer}
button.copy:hover{background:var(--soft)}
details.exchange{margin:6px 0;border:1px solid var(--line);border-radius:6px;padding:4px 10px}
details.exchange summary{cursor:pointer;font-family:var(--mono);font-size:12px}
.status{font-weight:700}.status.s2{color:var(--pass)}.status.s4,.status.s5,.status.none{color:var(--fail)}
.observations{margin:6px 0 0;padding-left:18px}
#observations td:first-child{white-space:nowrap}#observations td,#observations th{text-align:left}#observations pre{max-height:180px}
.trace ol{margin:4px 0;padding-left:22px}.trace-step{margin:8px 0}.trace-step.departs>.command{color:var(--fail)}
.trace-step>.command{font-weight:600;overflow-wrap:anywhere}
.states{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:8px}.states pre{max-height:240px}
.difference{margin:4px 0;padding:4px 10px;border-left:3px solid var(--fail);background:#fff8f8;overflow-wrap:anywhere}
footer{padding:16px 32px;color:var(--muted);border-top:1px solid var(--line)}
.table-wrap{max-width:100%;overflow-x:auto}
#filters input[type=search]{font:inherit;width:16em;max-width:100%}
#toc ul{list-style:none;margin:4px 0;padding-left:0}#toc .toc-parts{display:flex;flex-wrap:wrap;gap:4px 16px}
#toc .toc-sections ul{padding-left:16px}#toc summary{cursor:pointer}#toc .badge{min-width:0;font-size:10px}
@media (max-width:600px){#top,main,footer{padding-left:12px;padding-right:12px}.bar{width:100%;max-width:260px}
.figure{flex:1 1 40%}th,td{padding:3px 5px}.card{padding:8px 10px}#filters{position:static;gap:8px}}
#failures{margin:8px 0 12px}#failures h2{margin:4px 0;color:var(--fail);font-size:18px}#failures td:first-child{overflow-wrap:anywhere}
.times{font-weight:700;color:var(--fail)}details.folded>summary{cursor:pointer;font-weight:600;font-size:18px;margin:18px 0 6px}
`;

/**
 * The page's only script: the filter bar, section rows that set the section
 * filter, and copy buttons. Clipboard access is not granted to every page
 * opened from disk, so copying falls back to a selected textarea.
 */
export const SCRIPT = `
(function () {
  'use strict';
  var failed = document.getElementById('filter-failed');
  var section = document.getElementById('filter-section');
  var level = document.getElementById('filter-level');
  var text = document.getElementById('filter-text');
  function apply() {
    var words = text.value.toLowerCase().split(' ').filter(function (w) { return w !== ''; });
    var cards = document.querySelectorAll('.card[data-rule-id]');
    var shown = 0;
    for (var i = 0; i < cards.length; i++) {
      var c = cards[i];
      var v = c.getAttribute('data-verdict');
      var ok = (!failed.checked || v === 'FAIL' || v === 'FLAKY' || v === 'ERROR') &&
        (!section.value || c.getAttribute('data-section') === section.value) &&
        (!level.value || c.getAttribute('data-level') === level.value) &&
        words.every(function (w) { return (c.getAttribute('data-search') || '').indexOf(w) >= 0; });
      c.classList.toggle('hidden', !ok);
      if (ok) shown++;
    }
    document.getElementById('shown-count').textContent = String(shown);
    document.getElementById('no-match').classList.toggle('hidden', shown > 0);
  }
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  function copy(button) {
    var source = document.getElementById(button.getAttribute('data-copy-target'));
    var text = source ? source.textContent : '';
    function done(ok) {
      button.textContent = ok ? 'copied' : 'select and copy';
      button.setAttribute('data-copied', ok ? 'yes' : 'no');
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(fallbackCopy(text)); });
    } else {
      done(fallbackCopy(text));
    }
  }
  failed.addEventListener('change', apply);
  section.addEventListener('change', apply);
  level.addEventListener('change', apply);
  text.addEventListener('input', apply);
  document.addEventListener('click', function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var button = target.closest('button.copy');
    if (button) { copy(button); return; }
    var link = target.closest('#toc a[data-toc-rule]');
    if (link) {
      // The rule a contents entry names is shown, whatever the filters hid.
      failed.checked = false; section.value = ''; level.value = ''; text.value = '';
      apply();
      return;
    }
    var row = target.closest('#matrix tr[data-section]');
    if (row) {
      section.value = row.getAttribute('data-section');
      apply();
      document.getElementById('rules').scrollIntoView();
    }
  });
  apply();
})();
`;

/**
 * Content-Security-Policy of the page: nothing is fetched, and the only script
 * that may run is the one above (by hash). Escaping keeps server text inert;
 * this keeps it inert even if an escape were ever missed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
