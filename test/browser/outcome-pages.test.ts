import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword, testPassword } from '../admin/form-client.js';
import { newKey, startServer, type TestServer } from '../http/harness.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';

warnIfNoChromium('outcome pages test');

/** Screenshots of each page at each size, kept as the run's artefacts (the folder is git-ignored). */
const artefacts = join(process.cwd(), 'test-artifacts', 'outcome-pages');
const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const dayMs = 86_400_000;

/** How far the page is wider than the window (> 0: it scrolls sideways). */
const overflow = 'document.documentElement.scrollWidth - window.innerWidth';

/** A data table's rows as [first cell, second cell, …] text. */
const tableRows = (page: Page, id: string) =>
  page.$$eval(`#${id} tbody tr`, (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
  );

describe.skipIf(!hasChromium)('outcome pages in headless Chromium', () => {
  let browser: Browser;
  let server: TestServer;
  let page: Page;
  let outcomeId: string;
  let viewerEmail: string;

  beforeAll(async () => {
    mkdirSync(artefacts, { recursive: true });
    browser = await launchChromium();
    server = await startServer('node', { rateLimit: false });
    const api = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await server.api(method, `/api/v1${path}`, {
        token: server.tokens.admin,
        ...(body !== undefined ? { body } : {}),
        headers:
          method === 'POST' && !path.includes('/transition')
            ? { 'idempotency-key': newKey(), ...headers }
            : headers,
      });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      return res.json;
    };
    const outcome = await api('POST', '/outcomes', {
      projectId: server.ws.projectId,
      title: 'Launch the self-serve checkout for every market',
      ownerId: server.ws.adminUserId,
      dueDate: '2026-12-31',
      description: 'Customers pay without talking to sales.',
    });
    outcomeId = outcome.id;
    await api('POST', '/outcomes', {
      projectId: server.ws.projectId,
      title: 'An outcome with no issues yet',
    });
    // Ten days of work: issues created, some resolved or blocked, time logged across three weeks.
    const severities = ['low', 'medium', 'high', 'critical'];
    const ids: string[] = [];
    for (let day = 0; day < 10; day++) {
      server.clock.advance(dayMs);
      const issue = await api('POST', '/issues', {
        projectId: server.ws.projectId,
        outcomeId,
        title: `Checkout step ${day + 1}`,
        severity: severities[day % 4],
      });
      ids.push(issue.id);
      if (day % 3 === 1) await api('POST', `/issues/${ids[day - 1]}/transition`, { to: 'resolved' });
      await api('POST', '/time-entries', {
        outcomeId,
        minutes: 30 + day * 5,
        date: new Date(server.clock.now()).toISOString().slice(0, 10),
      });
    }
    await api('POST', `/issues/${ids[9]}/transition`, { to: 'blocked' });
    await api('POST', `/issues/${ids[8]}/relations`, { type: 'blocks', issueId: ids[9] });
    await api('POST', '/decisions', {
      projectId: server.ws.projectId,
      outcomeId,
      title: 'Card payments first',
      rationale: 'Most customers pay by card; invoices can follow.',
    });
    await setPassword(server, 'admin@acme.test');
    viewerEmail =
      (await server.storage.transaction((tx) => tx.tenancy.getUser(server.tokens.viewer.userId)))?.email ??
      '';
    await setPassword(server, viewerEmail);
    page = await browser.newPage({ viewport: sizes[0] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const signIn = async (email: string) => {
    await page.context().clearCookies();
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(testPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
  };

  it('shows the same numbers as GET /outcomes/{id}/summary, in its tables and charts', async () => {
    await signIn('admin@acme.test');
    await page.goto(`${server.url}/acme/outcomes/${outcomeId}`);
    const summary = (
      await server.api('GET', `/api/v1/outcomes/${outcomeId}/summary`, { token: server.tokens.admin })
    ).json;
    const byStatus = Object.fromEntries(
      (await tableRows(page, 'status-chart-data')).map(([name, n]) => [
        String(name).replace(' ', '_'),
        Number(n),
      ]),
    );
    expect(byStatus).toEqual(summary.issues.byStatus);
    const bySeverity = Object.fromEntries(
      (await tableRows(page, 'severity-chart-data')).map(([name, n]) => [name, Number(n)]),
    );
    expect(bySeverity).toEqual(summary.issues.bySeverity);
    const byWeek = Object.fromEntries(
      (await tableRows(page, 'minutes-chart-data')).map(([week, n]) => [week, Number(n)]),
    );
    expect(byWeek).toEqual(summary.time.byWeek);
    // The burn-up ends where the summary stands: every issue created, those resolved resolved.
    const burnUp = await tableRows(page, 'burn-up-chart-data');
    expect(burnUp.at(-1)?.slice(1).map(Number)).toEqual([
      summary.issues.total,
      summary.issues.byStatus.resolved,
    ]);
    expect(burnUp.length).toBeGreaterThan(5);
    const text = await page.textContent('main');
    expect(text).toContain(`${summary.time.totalMinutes} minutes in all`);
    expect(text).toContain(`${summary.openBlockers.total} issue is blocked`);
    expect(text).toContain('APO-9');
    expect(text).toContain('Card payments first');
    // Each chart names itself and its figures.
    const titles = await page.$$eval('svg[role=img] > title', (all) => all.map((t) => t.textContent ?? ''));
    expect(titles).toHaveLength(4);
    expect(titles[0]).toContain(
      `${summary.issues.total} issues in all, ${summary.issues.byStatus.resolved} resolved`,
    );
    // The list shows the outcome's progress: resolved of all its issues.
    await page.goto(`${server.url}/acme/outcomes`);
    const progress = await page
      .locator('table.outcomes tbody tr', { hasText: 'Launch the self-serve checkout' })
      .locator('progress')
      .evaluate((p) => [Number(p.getAttribute('value')), Number(p.getAttribute('max'))]);
    expect(progress).toEqual([summary.issues.byStatus.resolved, summary.issues.total]);
    expect(await page.textContent('table.outcomes')).toContain('2026-12-31');
  });

  it('answers 304 to its ETag until something it shows changes', async () => {
    await signIn('admin@acme.test');
    const path = `${server.url}/acme/outcomes/${outcomeId}`;
    const first = await page.request.get(path);
    expect(first.status()).toBe(200);
    const etag = first.headers().etag ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await page.request.get(path, { headers: { 'if-none-match': etag } })).status()).toBe(304);
    const list = await page.request.get(`${server.url}/acme/outcomes`);
    const listEtag = list.headers().etag ?? '';
    expect(
      (
        await page.request.get(`${server.url}/acme/outcomes`, { headers: { 'if-none-match': listEtag } })
      ).status(),
    ).toBe(304);
    await server.api('POST', '/api/v1/time-entries', {
      token: server.tokens.admin,
      body: { outcomeId, minutes: 15, date: new Date(server.clock.now()).toISOString().slice(0, 10) },
      headers: { 'idempotency-key': newKey() },
    });
    const after = await page.request.get(path, { headers: { 'if-none-match': etag } });
    expect(after.status()).toBe(200);
    expect(after.headers().etag).not.toBe(etag);
  });

  it('is linked from the admin home, and from where a viewer lands after signing in', async () => {
    await signIn('admin@acme.test');
    await page.goto(`${server.url}/acme/admin`);
    await page.getByRole('link', { name: 'Outcomes' }).click();
    await page.waitForURL(`${server.url}/acme/outcomes`);
    await signIn(viewerEmail);
    await page.getByRole('link', { name: 'Outcomes of acme' }).click();
    await page.waitForURL(`${server.url}/acme/outcomes`);
    await page.getByRole('link', { name: 'Launch the self-serve checkout for every market' }).click();
    await page.getByRole('heading', { name: 'Burn-up' }).waitFor();
  });

  for (const size of sizes) {
    it(`fits ${size.width} px with no sideways scroll and labels a person can read (screenshots kept)`, async () => {
      await signIn(viewerEmail);
      await page.setViewportSize(size);
      for (const [name, path] of [
        ['list', '/acme/outcomes'],
        ['outcome', `/acme/outcomes/${outcomeId}`],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        expect(await page.evaluate<number>(overflow), `${path} at ${size.width}`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(artefacts, `${name}-${size.name}.png`), fullPage: true });
      }
      // Every axis and bar label renders at 11 px or more on screen.
      const smallest = await page.$$eval('svg text', (texts) =>
        Math.min(...texts.map((t) => t.getBoundingClientRect().height)),
      );
      expect(smallest).toBeGreaterThanOrEqual(11);
    });
  }
});
