/**
 * The HTML report in a real headless Chromium (Debian's chromium, driven by
 * playwright-core): it opens from disk and fetches nothing, a person sees the
 * score and a failing rule's card, the filters and copy buttons work, and a
 * hostile body stays text; the search, the table of contents, and a
 * 390 px wide screen without sideways scrolling. A screenshot is stored in
 * reports/. Under CI a missing Chromium fails these tests: they never skip there.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { renderHtml } from '../../src/report/html.ts';
import { fixtureRun, HOSTILE_BODY } from '../fixtures/run-result/fixture-run.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const REPORTS = resolve('reports/browser-check');

/** What a page did that it must not: requests beyond its own file, dialogs, script errors, policy violations. */
interface Misdeeds {
  requests: string[];
  dialogs: string[];
  errors: string[];
}

test('Chromium is installed where CI runs the browser tests', () => {
  // Skipping under CI would leave the report untested in a browser: .ci/run installs it.
  if (process.env.CI) expect(available, `${CHROMIUM} is missing: apt-get install chromium`).toBe(true);
});

async function open(
  browser: Browser,
  file: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; misdeeds: Misdeeds }> {
  const page = await browser.newPage({ viewport });
  const misdeeds: Misdeeds = { requests: [], dialogs: [], errors: [] };
  page.on('request', (r) => {
    if (r.url() !== pathToFileURL(file).href) misdeeds.requests.push(r.url());
  });
  page.on('dialog', (d) => {
    misdeeds.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => misdeeds.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') misdeeds.errors.push(m.text());
  });
  await page.goto(pathToFileURL(file).href);
  return { page, misdeeds };
}

describe.skipIf(!available)(
  `HTML report in Chromium (${available ? CHROMIUM : 'chromium not installed: apt-get install chromium'})`,
  () => {
    let browser: Browser;
    let fixtureDir: string;

    beforeAll(async () => {
      await mkdir(REPORTS, { recursive: true });
      const code = await main(
        ['run', '--quiet', '--seed', '2', '--fault', 'revoke-star-removes-role', '--reports', REPORTS],
        { out: () => undefined, err: () => undefined },
      );
      expect(code).toBe(1);
      fixtureDir = await mkdtemp(join(tmpdir(), 'dc-html-'));
      await writeFile(join(fixtureDir, 'index.html'), renderHtml(fixtureRun()));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
    });

    test('a person sees the score, the failing rule, and can filter to failures', async () => {
      const { page, misdeeds } = await open(browser, resolve(REPORTS, 'index.html'));
      await expect.poll(() => page.locator('#score b').textContent()).toMatch(/^\d+\.\d%$/);
      expect(await page.locator('#verdict b').textContent()).toBe('not conformant');
      const failing = page.locator('.card[data-rule-id="revoke-roles.star-leaves-no-team"]');
      expect(await failing.getAttribute('data-verdict')).toBe('FAIL');
      expect(await failing.textContent()).toContain('must still show the role as assigned');
      const cards = page.locator('.card[data-rule-id]');
      const total = await cards.count();
      await page.locator('#filter-failed').check();
      const visible = await page.locator('.card[data-rule-id]:not(.hidden)').count();
      const failedOrErrored = await page.locator('.card[data-verdict="FAIL"], .card[data-verdict="ERROR"]').count();
      expect(visible).toBe(failedOrErrored);
      expect(visible).toBeGreaterThan(0);
      expect(visible).toBeLessThan(total);
      expect(await page.locator('#shown-count').textContent()).toBe(String(visible));
      await page.mouse.wheel(0, -100_000);
      await page.screenshot({ path: resolve('reports/report-screenshot.png'), fullPage: true });
      expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
      await page.close();
    });

    test.for([
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ])(
      'failures first at $width px: the first FAIL is in view unscrolled, no header breaks a word',
      async (viewport) => {
        const { page, misdeeds } = await open(browser, resolve(REPORTS, 'index.html'), viewport);
        const first = page.locator('#failures-table tbody a').first();
        expect(await first.textContent()).toBe('revoke-roles.star-leaves-no-team');
        const box = await first.boundingBox();
        expect(box, 'the first FAIL is laid out').not.toBeNull();
        expect(box!.y + box!.height, 'the first FAIL is in view without scrolling').toBeLessThanOrEqual(
          viewport.height,
        );
        // Every table header at least as wide as its longest word: no "F/A/I/L" letter by letter.
        // Run in the page, as text: the project's types know no DOM.
        const broken: unknown = await page.evaluate(`[...document.querySelectorAll('th')].flatMap((th) => {
        if (th.offsetParent === null) return [];
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap';
        probe.style.font = getComputedStyle(th).font;
        document.body.appendChild(probe);
        let widest = 0;
        for (const word of th.textContent.split(/\\s+/)) {
          probe.textContent = word;
          widest = Math.max(widest, probe.getBoundingClientRect().width);
        }
        probe.remove();
        const style = getComputedStyle(th);
        const inner = th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return widest > inner + 0.5 ? [th.textContent] : [];
      })`);
        expect(broken).toEqual([]);
        expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
        await page.close();
      },
    );

    test('a hostile body stays text: no element, no dialog, no policy violation', async () => {
      const { page, misdeeds } = await open(browser, join(fixtureDir, 'index.html'));
      const card = page.locator('#rule-pagination\\.exact-multiple-empty-page');
      await card.locator('details.exchange').last().locator('summary').click();
      const body = await card.locator('details.exchange').last().locator('pre.response-body').textContent();
      expect(body).toContain(HOSTILE_BODY.slice(0, HOSTILE_BODY.indexOf('\u0000')));
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
      await page.close();
    });

    test('the section filter, the level filter, and a click on a section row', async () => {
      const { page, misdeeds } = await open(browser, join(fixtureDir, 'index.html'));
      const shown = (): Promise<string[]> =>
        page
          .locator('.card[data-rule-id]:not(.hidden)')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule-id') ?? ''));
      const run = fixtureRun();
      const ids = (keep: (r: (typeof run.results)[number]) => boolean): string[] =>
        run.results
          .filter(keep)
          .map((r) => r.ruleId)
          .sort();
      await page.locator('#filter-section').selectOption('§5');
      expect((await shown()).sort()).toEqual(ids((r) => r.section === '§5'));
      await page.locator('#filter-section').selectOption('');
      await page.locator('#filter-level').selectOption('OBSERVED');
      expect((await shown()).sort()).toEqual(ids((r) => r.level === 'OBSERVED'));
      await page.locator('#filter-level').selectOption('');
      await page.locator('#matrix tr[data-section="§4.8"]').click();
      expect(await page.locator('#filter-section').inputValue()).toBe('§4.8');
      expect((await shown()).sort()).toEqual(ids((r) => r.section === '§4.8'));
      await page.locator('#filter-failed').check();
      expect(await shown()).toEqual([]);
      expect(await page.locator('#no-match').isVisible()).toBe(true);
      expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
      await page.close();
    });

    test('the search keeps the rules whose id, sentence or messages hold every word typed', async () => {
      const { page, misdeeds } = await open(browser, resolve(REPORTS, 'index.html'));
      const shown = (): Promise<string[]> =>
        page
          .locator('.card[data-rule-id]:not(.hidden)')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule-id') ?? ''));
      const total = (await shown()).length;
      // A violation's words: the failing rule is found by its message.
      await page.locator('#filter-text').fill('STILL show the role');
      const found = await shown();
      expect(found).toContain('revoke-roles.star-leaves-no-team');
      expect(found.length).toBeLessThan(total);
      expect(await page.locator('#shown-count').textContent()).toBe(String(found.length));
      // Words, in any order, each anywhere in the card's text.
      await page.locator('#filter-text').fill(' role the SHOW  still ');
      expect(await shown()).toEqual(found);
      await page.locator('#filter-text').fill('pagination.envelope');
      expect(await shown()).toEqual(['pagination.envelope']);
      await page.locator('#filter-text').fill('no rule has these words zzq');
      expect(await shown()).toEqual([]);
      expect(await page.locator('#no-match').isVisible()).toBe(true);
      await page.locator('#filter-text').fill('');
      expect((await shown()).length).toBe(total);
      expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
      await page.close();
    });

    test('a contents entry leads to its rule, shown even when the filters had hidden it', async () => {
      const { page, misdeeds } = await open(browser, resolve(REPORTS, 'index.html'));
      await page.locator('#filter-failed').check();
      const card = page.locator('.card[data-rule-id="pagination.envelope"]');
      expect(await card.isVisible()).toBe(false);
      const section = await card.getAttribute('data-section');
      const entry = page.locator(`#toc li[data-toc-section="${section}"]`);
      await entry.locator('summary').click();
      await entry.locator('a[data-toc-rule="pagination.envelope"]').click();
      expect(await card.isVisible()).toBe(true);
      expect(await page.locator('#filter-failed').isChecked()).toBe(false);
      expect(page.url()).toMatch(/#rule-pagination\.envelope$/);
      expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
      await page.close();
    });

    test('at 390 px wide the page reads without sideways scrolling, everything unfolded', async () => {
      for (const file of [resolve(REPORTS, 'index.html'), join(fixtureDir, 'index.html')]) {
        const { page, misdeeds } = await open(browser, file, { width: 390, height: 844 });
        // Everything unfolded: the widest content a reader can open.
        await page.evaluate<void>("document.querySelectorAll('details').forEach(function (d) { d.open = true; })");
        const widths = await page.evaluate<{ page: number; view: number }>(
          '({ page: document.documentElement.scrollWidth, view: window.innerWidth })',
        );
        expect(widths.page, file).toBeLessThanOrEqual(widths.view);
        expect(misdeeds).toEqual({ requests: [], dialogs: [], errors: [] });
        await page.close();
      }
    });

    test('a copy button puts the curl command on the clipboard', async () => {
      const context = await browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      await page.goto(pathToFileURL(join(fixtureDir, 'index.html')).href);
      const exchange = page.locator('#rule-pagination\\.exact-multiple-empty-page details.exchange').last();
      await exchange.locator('summary').click();
      const button = exchange.locator('button.copy');
      await button.click();
      await expect.poll(() => button.getAttribute('data-copied')).toBe('yes');
      const expected = await exchange.locator('pre.curl').textContent();
      expect(expected).toContain('"authorization: Bearer $DIRECTORY_API_KEY"');
      // A string: the test's TypeScript has no DOM types; the browser evaluates it.
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(expected);
      await context.close();
    });
  },
);
