import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/openapi/document.js';
import { startServer, type TestServer } from '../http/harness.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';

warnIfNoChromium('reference page in a browser');

const document = openApiDocument();
const operationsOf = (items: Record<string, unknown>) =>
  Object.values(items).flatMap((item) =>
    ['get', 'put', 'post', 'patch', 'delete'].filter((method) => (item as Record<string, unknown>)[method]),
  );

describe('the API reference page', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('hono');
  });
  afterAll(async () => {
    await s.close();
  });

  it('is served at /docs without a token, as HTML rendered on the server, with no script to load', async () => {
    const res = await s.api('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).toContain('href="/api/v1/openapi.json"');
    expect(res.text).toContain('href="/docs/guide"');
    expect(res.text).not.toMatch(/(src|href)="https?:/);
  });

  it('shows every operation, every webhook event and every schema of the document, each once', async () => {
    const { text } = await s.api('GET', '/docs');
    const sections = text.match(/<section class="op" id="/g) ?? [];
    expect(sections).toHaveLength(
      operationsOf(document.paths).length + operationsOf(document.webhooks).length,
    );
    for (const name of Object.keys(document.components.schemas)) {
      expect(text, name).toContain(`<h3>${name}</h3>`);
    }
    expect(text).toContain('<code class="path">/api/v1/issues/{id}</code>');
    expect(text).toContain('<code class="path">issue.created</code>');
    // Every link within the page lands on something of it.
    const ids = new Set([...text.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id));
    const targets = [...new Set([...text.matchAll(/href="#([^"]+)"/g)].map(([, id]) => id as string))];
    expect(targets.length).toBeGreaterThan(50);
    expect(targets.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('answers a 304 to a reader that has it, by its ETag', async () => {
    const first = await s.api('GET', '/docs');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await s.api('GET', '/docs', { headers: { 'if-none-match': etag } })).status).toBe(304);
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

  it('shows every family and the webhook events as soon as the page has loaded, from one request', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    const started = Date.now();
    await page.goto(`${s.url}/docs`, { waitUntil: 'load' });
    const loaded = Date.now() - started;
    const visibleHeadings = (await page.locator('h1, h2').filter({ visible: true }).allTextContents()).map(
      (text) => text.trim(),
    );
    expect(visibleHeadings).toEqual(
      expect.arrayContaining(['outcome-tracker API', 'Issues', 'Time entries', 'Signals', 'Webhook events']),
    );
    // Usable at load: nothing else to fetch, nothing to run, nothing the console complains of.
    expect(requested).toEqual([`${s.url}/docs`]);
    expect(errors).toEqual([]);
    const bytes = await page.evaluate<number>('document.documentElement.outerHTML.length');
    // Once more, the page rendered and the browser warm: what a reader who comes back waits.
    const again = Date.now();
    await page.reload({ waitUntil: 'load' });
    console.log(
      `/docs: loaded in ${loaded} ms (first), ${Date.now() - again} ms (again), ${(bytes / 1e3).toFixed(0)} kB of HTML, one request`,
    );
    // A link to a schema moves to it.
    await page.locator('a[href="#schema-Issue"]').first().click();
    expect(await page.evaluate<string>('location.hash')).toBe('#schema-Issue');
    await page.close();
  });
});
