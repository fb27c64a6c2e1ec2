import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toCurl } from '../../src/report/curl.ts';
import { renderHtml } from '../../src/report/html.ts';
import { VERDICTS } from '../../src/core/summarise.ts';
import type { RunResult } from '../../src/core/types.ts';
import { fixtureRun, HOSTILE_BODY } from '../fixtures/run-result/fixture-run.ts';
import { hostileText, withServerText } from './helpers/hostile-run.ts';
import { scanHtml, shapeOfHtml, type HtmlTag } from './helpers/html-tags.ts';

/** Every element the page is built from; server text must add none. */
const ALLOWED = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'header',
  'h1',
  'h2',
  'h3',
  'h4',
  'dl',
  'dt',
  'dd',
  'div',
  'span',
  'b',
  'small',
  'main',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'label',
  'input',
  'select',
  'option',
  'article',
  'nav',
  'ol',
  'p',
  'a',
  'pre',
  'code',
  'button',
  'details',
  'summary',
  'ul',
  'li',
  'footer',
  'script',
]);

const run = fixtureRun();
const html = renderHtml(run);
const scan = scanHtml(html);
const starts = scan.tags.filter((t) => !t.end);

function withAttr(name: string, value?: string): HtmlTag[] {
  return starts.filter(
    (t) => Object.hasOwn(t.attributes, name) && (value === undefined || t.attributes[name] === value),
  );
}

/** Decoded text between the start tag at `tag` and the next tag with its name at the same depth. */
function textIn(tag: HtmlTag): string {
  const sub = scanHtml(html.slice(tag.offset, elementEnd(tag)));
  return sub.text;
}

function elementEnd(tag: HtmlTag): number {
  let depth = 0;
  for (const t of scan.tags.filter((x) => x.offset >= tag.offset && x.name === tag.name)) {
    depth += t.end ? -1 : 1;
    if (depth === 0) return t.offset;
  }
  return html.length;
}

/** Start tags inside the element that `tag` opens. */
function startsWithin(tag: HtmlTag): HtmlTag[] {
  const end = elementEnd(tag);
  return starts.filter((t) => t.offset > tag.offset && t.offset < end);
}

function byId(id: string): HtmlTag {
  const found = withAttr('id', id);
  expect(found, `#${id}`).toHaveLength(1);
  return found[0]!;
}

describe('HTML report', () => {
  test('only the page’s own elements: server text added no tag, no event handler, no script', () => {
    expect(starts.map((t) => t.name).filter((n) => !ALLOWED.has(n))).toEqual([]);
    expect(starts.flatMap((t) => Object.keys(t.attributes)).filter((a) => a.startsWith('on'))).toEqual([]);
    expect(starts.filter((t) => t.name === 'script')).toHaveLength(1);
    expect(scan.rawText.map((r) => r.element)).toEqual(['style', 'script']);
  });

  test('is self-contained: nothing to fetch, and the policy allows only its own script', () => {
    expect(starts.filter((t) => 'src' in t.attributes)).toEqual([]);
    expect(starts.filter((t) => 'href' in t.attributes && !t.attributes.href!.startsWith('#'))).toEqual([]);
    const csp =
      starts.find((t) => t.name === 'meta' && t.attributes['http-equiv'] === 'Content-Security-Policy')?.attributes
        .content ?? '';
    expect(csp).toContain("default-src 'none'");
    const script = scan.rawText.find((r) => r.element === 'script')!.content;
    expect(csp).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  test('the hostile body is shown as text, with only unprintable characters replaced', () => {
    const visible = HOSTILE_BODY.replace('\u0000', '\u2400').replace('\u0007', '\u2407').replace('\uD800', '\uFFFD');
    expect(scan.text).toContain(visible);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>true</b>');
  });

  test('header: target, Service-Version, date, verdict, score and coverage from the summary, one count per verdict', () => {
    const top = textIn(byId('top'));
    for (const s of [run.target.baseUrl, run.target.serviceVersion, run.startedAt, 'Seed', String(run.options.seed)])
      expect(top).toContain(s);
    expect(textIn(byId('verdict'))).toContain(run.summary.conformant ? 'conformant' : 'not conformant');
    expect(textIn(byId('score'))).toContain(`${(run.summary.score * 100).toFixed(1)}%`);
    expect(textIn(byId('score'))).toContain('1 of 3 MUST rules passed');
    expect(textIn(byId('coverage'))).toContain(`${(run.summary.coverage * 100).toFixed(1)}%`);
    for (const v of VERDICTS) {
      const [figure] = withAttr('data-count', v);
      expect(textIn(figure!)).toContain(String(run.summary.byVerdict[v]));
    }
  });

  test('matrix: a row per section with the count of each verdict, coloured only where there are some', () => {
    const sections = [...new Set(run.results.map((r) => r.section))];
    const rows = withAttr('data-section').filter((t) => t.name === 'tr');
    expect(rows.map((r) => r.attributes['data-section'])).toEqual(['§4.8', '§4.9', '§5']);
    for (const section of sections) {
      const row = rows.find((r) => r.attributes['data-section'] === section)!;
      const cells = startsWithin(row).filter((t) => t.name === 'td' && t.attributes['data-verdict']);
      for (const cell of cells) {
        const v = cell.attributes['data-verdict']!;
        const n = run.results.filter((r) => r.section === section && r.verdict === v).length;
        expect(cell.attributes.class!.split(' ').includes('has'), `${section} ${v}`).toBe(n > 0);
      }
      const counted = cells.map((c) => Number(textIn(c)));
      expect(counted).toEqual(
        VERDICTS.map((v) => run.results.filter((r) => r.section === section && r.verdict === v).length),
      );
    }
  });

  test('a card per rule with its id, verdict, section and level as data attributes; failures first', () => {
    const cards = withAttr('data-rule-id').filter((t) => t.name === 'article');
    expect(cards.map((c) => c.attributes['data-rule-id']).sort()).toEqual(run.results.map((r) => r.ruleId).sort());
    for (const r of run.results) {
      const card = cards.find((c) => c.attributes['data-rule-id'] === r.ruleId)!;
      expect(card.attributes).toMatchObject({
        'data-verdict': r.verdict,
        'data-section': r.section,
        'data-level': r.level,
        id: `rule-${r.ruleId}`,
      });
      expect(textIn(card)).toContain(r.sentence);
      if (r.reason) expect(textIn(card)).toContain(r.reason);
    }
    expect(cards.slice(0, 3).map((c) => c.attributes['data-verdict'])).toEqual(['FAIL', 'FAIL', 'ERROR']);
  });

  test('a failing card shows violations, exchanges with request and response, a curl command and the replay command, each with a copy button', () => {
    const r = run.results.find((x) => x.ruleId === 'pagination.exact-multiple-empty-page')!;
    const card = byId(`rule-${r.ruleId}`);
    const text = textIn(card);
    for (const v of r.violations) expect(text).toContain(v.where);
    expect(text).toContain('2 exchanges');
    for (const e of r.exchanges) expect(text).toContain(toCurl(e));
    expect(text).toContain(
      'npx directory-conformance run --fault pagination-no-trailing-empty-page --rule pagination.exact-multiple-empty-page',
    );
    // Bodies are indented, and numbers keep their digits.
    expect(text).toContain('"big": 12345678901234567890');
    const buttons = startsWithin(card).filter((t) => t.name === 'button');
    expect(buttons.length).toBe(r.exchanges.length + 1);
    for (const b of buttons) expect(withAttr('id', b.attributes['data-copy-target'])).toHaveLength(1);
  });

  test('a failing property gives the replay command with its seed and path', () => {
    expect(textIn(byId('rule-pagination.prop.any-limit-once'))).toContain(
      'npx directory-conformance run --fault pagination-no-trailing-empty-page --rule pagination.prop.any-limit-once --seed 42 --path 3:1:0',
    );
  });

  test('a blocked rule links to the rule that blocks it', () => {
    const links = withAttr('href', '#rule-pagination.exact-multiple-empty-page');
    expect(links.length).toBeGreaterThan(0);
  });

  test('observations have their own section', () => {
    const table = textIn(byId('observations'));
    expect(table).toContain('list.counting-mode-approximate');
    expect(table).toContain('total_count_approximate');
    expect(table).toContain('</script><script>alert(4)</script>');
  });

  test('the filter bar and the counters the page script drives', () => {
    for (const id of ['filter-failed', 'filter-section', 'filter-level', 'shown-count', 'no-match', 'rules']) byId(id);
    const options = startsWithin(byId('filter-section')).filter((t) => t.name === 'option');
    expect(options.map((o) => o.attributes.value)).toEqual(['', '§4.8', '§4.9', '§5']);
  });

  test('element ids are unique', () => {
    const ids = withAttr('id').map((t) => t.attributes.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('server text cannot change the page: any text in any server field leaves the same elements', () => {
    const shape = shapeOfHtml(renderHtml(withServerText(fixtureRun(), 'plain')));
    fc.assert(
      fc.property(hostileText(), (text) => {
        const page = renderHtml(withServerText(fixtureRun(), text));
        expect(shapeOfHtml(page)).toEqual(shape);
        expect(scanHtml(page).rawText.map((r) => r.element)).toEqual(['style', 'script']);
      }),
      // 'İ' lowercases to two code units: a scanner that lowercased the page lost its place once.
      { numRuns: 200, examples: [['İ\u0000']] },
    );
  });

  test('an empty run renders', () => {
    const empty: RunResult = { ...fixtureRun(), results: [] };
    const page = renderHtml(empty);
    expect(scanHtml(page).text).toContain('No rule ran.');
  });

  test('a server error the client repeated is noted on the card, whatever its verdict', () => {
    const base = fixtureRun();
    const passing = base.results.find((r) => r.verdict === 'PASS');
    const answered = base.results.flatMap((r) => r.exchanges).find((e) => e.response !== undefined);
    if (passing === undefined || answered?.response === undefined)
      throw new Error('the fixture has a PASS and an answer');
    const retried = { ...answered, attempts: 2, earlierAttempts: [{ status: 500 }] };
    const results = base.results.map((r) => (r === passing ? { ...r, exchanges: [retried] } : r));
    const page = scanHtml(renderHtml({ ...base, results }));
    const card = page.tags.find((t) => !t.end && t.attributes['data-rule-id'] === passing.ruleId);
    const next = page.tags.find((t) => !t.end && t.name === 'article' && t.offset > (card?.offset ?? Infinity));
    const note = page.tags.find((t) => !t.end && t.attributes.class === 'repeated-server-errors');
    // The note is inside the passing rule's card.
    expect(note?.offset).toBeGreaterThan(card?.offset ?? Infinity);
    expect(note?.offset).toBeLessThan(next?.offset ?? Infinity);
    expect(page.text).toContain(`1 server error the client repeated`);
    expect(page.text).toContain(`#1 ${retried.operation}`);
    expect(page.text).toContain(`500, ${answered.response.status}`);
  });

  test('matches the committed snapshot', async () => {
    await expect(html).toMatchFileSnapshot('./__snapshots__/index.html');
  });
});

describe('a report you can navigate', () => {
  const page = scanHtml(html);
  const cards = page.tags.filter((t) => !t.end && t.name === 'article' && t.attributes['data-rule-id'] !== undefined);

  test('counts read in the singular for one: "1 request", never "1 requests"', () => {
    expect(run.results.some((r) => r.requestCount === 1)).toBe(true);
    expect(page.text).toContain('1 request');
    expect(page.text).not.toMatch(/\b1 (requests|rules|exchanges|runs|server errors|times|answers)\b/);
    const one = renderHtml({ ...run, results: run.results.slice(0, 1) });
    expect(scanHtml(one).text).toContain('of 1 rule shown');
    // A property's replay: one run, one shrink.
    const replayed = run.results.find((r) => r.replay);
    expect(replayed).toBeDefined();
    if (!replayed?.replay) return;
    const once = { ...replayed, replay: { ...replayed.replay, numRuns: 1, numShrinks: 1 } };
    const text = scanHtml(renderHtml({ ...run, results: [once] })).text;
    expect(text).toContain('1 run');
    expect(text).toContain('1 shrink');
    expect(text).not.toMatch(/\b1 (runs|shrinks)\b/);
  });

  test("each rule's card shows its duration, in seconds past one", () => {
    const durations = page.tags.filter((t) => !t.end && t.attributes.class === 'duration');
    expect(durations.length).toBe(cards.length);
    expect(run.results.some((r) => r.durationMs === 15002)).toBe(true);
    expect(page.text).toContain('15.0 s');
  });

  test('each card carries what the search looks in: id, clause, sentence and every violation, lower-cased', () => {
    const failing = run.results.find((r) => r.violations.length > 0);
    const card = cards.find((t) => t.attributes['data-rule-id'] === failing?.ruleId);
    const searched = card?.attributes['data-search'] ?? '';
    expect(searched).toContain(failing?.ruleId.toLowerCase());
    expect(searched).toContain(failing?.violations[0]?.message.toLowerCase());
    expect(searched).toBe(searched.toLowerCase());
    expect(page.tags.some((t) => t.name === 'input' && t.attributes.id === 'filter-text')).toBe(true);
  });

  test('the table of contents names every section and links every rule once', () => {
    const links = page.tags.filter((t) => !t.end && t.attributes['data-toc-rule'] !== undefined);
    expect(links.map((t) => t.attributes['data-toc-rule']).sort()).toEqual(run.results.map((r) => r.ruleId).sort());
    for (const t of links) expect(t.attributes.href).toBe(`#rule-${t.attributes['data-toc-rule']}`);
    const sections = page.tags.filter((t) => !t.end && t.attributes['data-toc-section'] !== undefined);
    expect(sections.map((t) => t.attributes['data-toc-section'])).toEqual(
      [...new Set(run.results.map((r) => r.section))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
    );
  });
});

describe('failures first', () => {
  test('the FAILs are listed right under the title, each linked to its card, and the verdict names them first', () => {
    const html = renderHtml(fixtureRun());
    const table = html.indexOf('id="failures-table"');
    expect(table).toBeGreaterThan(html.indexOf('<h1>'));
    expect(table).toBeLessThan(html.indexOf('id="verdict"'));
    expect(table).toBeLessThan(html.indexOf('id="rules-title"'));
    expect(html).toContain(
      '<a href="#rule-pagination.exact-multiple-empty-page">pagination.exact-multiple-empty-page</a>',
    );
    const verdict = html.slice(html.indexOf('id="verdict"'), html.indexOf('id="score"'));
    expect(verdict.indexOf('FAILed')).toBeLessThan(verdict.indexOf('harness ERROR'));
    // Latency and input coverage come after the rules, folded.
    expect(html.indexOf('id="by-operation"')).toBeGreaterThan(html.indexOf('id="rules-title"'));
  });

  test('violations of one kind are grouped with their count, the first shown in full', () => {
    const run = fixtureRun();
    const failing = run.results.find((r) => r.verdict === 'FAIL')!;
    const repeated = Array.from({ length: 56 }, (_, i) => ({
      where: `limit 8, page ${i + 2}`,
      message: 'must not begin with the last item of the page before',
      expected: `resource ${i} once`,
      actual: 'again',
    }));
    const html = renderHtml({ ...run, results: [{ ...failing, violations: repeated }] });
    expect(html).toContain('<span class="times">56 ×</span> <span class="where">limit 8, page 2</span>');
    expect(html.match(/class="violation"/g)?.length).toBe(1);
  });
});
