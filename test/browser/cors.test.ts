import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Served, startServeJson, tempDir } from '../cli/process.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';

warnIfNoChromium('browser CORS test');
// Code run in the page is passed as strings: the test is compiled without the DOM's types.

/** An origin that serves an empty page: the browser app whose script calls the API. */
async function pageOrigin(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What the page's script could read of one response. */
interface Seen {
  status: number;
  body: Record<string, unknown>;
  etag: string | null;
  location: string | null;
  remaining: string | null;
  requestId: string | null;
  replayed: string | null;
}

/**
 * The page's own fetch helper: it reads the headers a browser app needs, and reports a rejected
 * fetch (the browser refusing the answer) as `refused: <message>`.
 */
const fetchHelper = `
window.call = async (url, init) => {
  try {
    const res = await fetch(url, init);
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : {},
      etag: res.headers.get('ETag'),
      location: res.headers.get('Location'),
      remaining: res.headers.get('X-RateLimit-Remaining'),
      requestId: res.headers.get('X-Request-Id'),
      replayed: res.headers.get('Idempotent-Replayed'),
    };
  } catch (error) {
    return 'refused: ' + error.message;
  }
};`;

/** Runs `fetch(url, init)` in the page and returns what the script saw. */
function callFromPage(page: Page, url: string, init: Record<string, unknown> = {}): Promise<Seen | string> {
  return page.evaluate(`window.call(${JSON.stringify(url)}, ${JSON.stringify(init)})`);
}

describe.skipIf(!hasChromium)('a browser app on another origin calls the API of `serve --cors`', () => {
  let browser: Browser;
  let app: { origin: string; server: Server };
  let stranger: { origin: string; server: Server };
  let served: Served;
  let api: string;
  let token: string;
  const dir = tempDir();

  beforeAll(async () => {
    assertBuilt();
    app = await pageOrigin();
    stranger = await pageOrigin();
    const started = await startServeJson(['--cors', app.origin, '--db', join(dir, 'cors.db')]);
    served = started;
    api = started.startup.apiUrl;
    token = started.startup.init?.token ?? '';
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    for (const { server } of [app, stranger]) await new Promise((closed) => server?.close(closed));
    rmSync(dir, { recursive: true, force: true });
  });

  async function openPage(origin: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(origin);
    await page.evaluate(fetchHelper);
    return page;
  }

  it('creates, replays, reads and updates with preflighted requests, reading the exposed headers', async () => {
    expect(new URL(api).origin).not.toBe(app.origin);
    const page = await openPage(app.origin);
    const auth = { Authorization: `Bearer ${token}` };
    const create = {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ name: 'Browser app' }),
    };

    const created = (await callFromPage(page, `${api}/projects`, create)) as Seen;
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(created.location).toBe(`${new URL(api).pathname}/projects/${id}`);
    expect(created.etag).toBe('"1"');
    expect(created.replayed).toBeNull();

    const replayed = (await callFromPage(page, `${api}/projects`, create)) as Seen;
    // The same create again (a retry after a lost answer): the stored answer, marked as a replay.
    expect(replayed).toMatchObject({ status: 200, replayed: 'true' });
    expect(replayed.body.id).toBe(id);

    const read = (await callFromPage(page, `${api}/projects/${id}`, { headers: auth })) as Seen;
    expect(read).toMatchObject({ status: 200, etag: '"1"' });
    // Every request so far counted against the token's 100 a minute: the page sees what is left.
    expect(Number(read.remaining)).toBe(Number(replayed.remaining) - 1);
    expect(Number(read.remaining)).toBeLessThan(100);
    // The id the page read is the one the server logged for that request.
    const logged = await served.waitForLogLine((line) => line.includes(`"requestId":"${read.requestId}"`));
    expect(JSON.parse(logged)).toMatchObject({ method: 'GET', path: `/api/v1/projects/${id}`, status: 200 });

    const updated = (await callFromPage(page, `${api}/projects/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'Content-Type': 'application/json', 'If-Match': read.etag },
      body: JSON.stringify({ description: 'Edited from a page on another origin' }),
    })) as Seen;
    expect(updated).toMatchObject({ status: 200, etag: '"2"' });
    const stale = (await callFromPage(page, `${api}/projects/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'Content-Type': 'application/json', 'If-Match': read.etag },
      body: JSON.stringify({ description: 'Lost update' }),
    })) as Seen;
    // A stale If-Match: the conflict carries the current ETag, which the page can read to re-read.
    expect(stale).toMatchObject({ status: 409, etag: '"2"' });
    await page.close();
  });

  it('refuses a page on an origin not listed: the browser rejects the fetch', async () => {
    const page = await openPage(stranger.origin);
    // Preflighted (Authorization): the preflight gets no CORS headers, so the request is never sent.
    const preflighted = await callFromPage(page, `${api}/projects`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(preflighted).toMatch(/^refused: Failed to fetch/);
    // A simple request is sent, but its answer has no Access-Control-Allow-Origin for this page.
    const simple = await callFromPage(page, `${new URL(api).origin}/healthz`);
    expect(simple).toMatch(/^refused: Failed to fetch/);
    // The same simple request from the listed origin is readable: the refusal is the origin's.
    const listed = await openPage(app.origin);
    expect(await callFromPage(listed, `${new URL(api).origin}/healthz`)).toMatchObject({ status: 200 });
    await Promise.all([page.close(), listed.close()]);
  });
});
