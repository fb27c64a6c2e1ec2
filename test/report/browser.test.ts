/**
 * The HTML report in a real headless Chromium (Debian's chromium, driven by
 * playwright-core): it opens from disk, shows the score and a failing rule's
 * card, and the "failed only" filter works. A screenshot is stored in reports/.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const REPORTS = resolve('reports/browser-check');

describe.skipIf(!available)(`HTML report in Chromium (${available ? CHROMIUM : 'chromium not installed: apt-get install chromium'})`, () => {
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(REPORTS, { recursive: true });
    const code = await main(['run', '--quiet', '--seed', '2', '--fault', 'revoke-star-removes-role', '--reports', REPORTS], { out: () => undefined, err: () => undefined });
    expect(code).toBe(1);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  test('a person sees the score, the failing rule, and can filter to failures', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(resolve(REPORTS, 'index.html')).href);
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
    expect(requests.every((u) => u.startsWith('file:'))).toBe(true);
    await page.close();
  });
});
