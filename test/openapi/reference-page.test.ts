import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../http/harness.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';

warnIfNoChromium('reference page in a browser');

const installedBundle = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');

describe('the API reference page', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('hono');
  });
  afterAll(async () => {
    await s.close();
  });

  it('is served at /docs without a token, loading the renderer from this server and the served document', async () => {
    const res = await s.api('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/<script src="\/docs\/scalar\.js\?v=[\w-]+"><\/script>/);
    expect(res.text).toContain('data-url="/api/v1/openapi.json"');
    expect(res.text).toContain('href="/docs/guide"');
    expect(res.text).not.toMatch(/src="https?:/);
  });

  it('serves the Scalar bundle copied into the package at build time at /docs/scalar.js', async () => {
    const res = await s.api('GET', '/docs/scalar.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text).toBe(readFileSync(installedBundle, 'utf8'));
  });
});

describe.skipIf(!hasChromium)('in headless Chromium with no internet', () => {
  let browser: Browser;
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('node');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s.close();
  });

  it('renders every family and the webhook events from the served document', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    // Anything not from this server is refused, as on a machine without internet.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(s.url) || url.startsWith('data:') || url.startsWith('blob:'))
        return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    await page.goto(`${s.url}/docs`);
    // The title and one section per family and for the webhook events, as visible headings. The
    // renderer fills sections in as it gets to them, so a slow machine may need a few seconds more.
    const visibleHeadings = async () =>
      (await page.locator('h1, h2').filter({ visible: true }).allTextContents()).map((text) =>
        text.replace('(Collapsed)', '').trim(),
      );
    await expect
      .poll(visibleHeadings, { timeout: 30_000, interval: 250 })
      .toEqual(
        expect.arrayContaining([
          'outcome-tracker API',
          'Issues',
          'Time entries',
          'Signals',
          'Webhook events',
        ]),
      );
    expect(elsewhere).toEqual([]);
    await page.close();
  });
});
