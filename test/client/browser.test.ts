import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeaderValue } from '../../src/core/index.js';
import { nodeHandler } from '../../src/http/node.js';
import { assertBuilt } from '../cli/process.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';
import { type ClientFixture, clientFixture } from './harness.js';

warnIfNoChromium('client browser test');
// The client as its package ships it (packages/client, built by npm run build).
const distClient = new URL('../../packages/client/dist/', import.meta.url);

/**
 * One origin serving the built client's modules under /client/ and the API everywhere else, so
 * the page needs no CORS: what is tested is that the client itself runs in a browser.
 */
async function sameOrigin(f: ClientFixture): Promise<{ url: string; server: Server }> {
  const api = nodeHandler(f.tracker);
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>');
      return;
    }
    if (path.startsWith('/client/') && !path.includes('..')) {
      readFile(new URL(path.slice('/client/'.length), distClient))
        .then((source) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(source))
        .catch(() => res.writeHead(404).end());
      return;
    }
    api(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!hasChromium)('the built client in headless Chromium', () => {
  let browser: Browser;
  let f: ClientFixture;
  let origin: { url: string; server: Server };
  beforeAll(async () => {
    assertBuilt();
    browser = await launchChromium();
    f = await clientFixture('in-process');
    origin = await sameOrigin(f);
  });
  afterAll(async () => {
    await browser?.close();
    origin?.server.closeAllConnections();
    origin?.server.close();
    await f?.close();
  });

  it('creates, modifies, pages, streams signals and verifies a signature with web APIs only', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(origin.url);

    const secret = 'whsec_browser-test-secret';
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      type: 'webhook.test',
      occurredAt: new Date().toISOString(),
      data: { object: { webhookId: 'wh_1', message: 'hi' } },
    });
    const signature = await signatureHeaderValue([secret], Math.floor(Date.now() / 1000), body);
    const input = { token: f.ws.adminToken, projectId: f.ws.projectId, secret, body, signature };

    // Run in the page as a string: this file is compiled without the DOM's types.
    const result = await page.evaluate(`(async (input) => {
      const { createClient, verifyWebhook, ApiError } = await import('/client/index.js');
      const client = createClient({ baseUrl: location.origin, token: input.token });
      const issue = await client.issues.create({ projectId: input.projectId, title: 'From the browser' });
      await client.issues.create({ projectId: input.projectId, title: 'Second from the browser' });
      const labelled = await client.issues.modify(issue.id, (current) => ({ labels: [...current.labels, 'browser'] }));
      let refused = null;
      try { await client.issues.transition(issue.id, 'open'); } catch (error) { refused = error instanceof ApiError ? error.code : String(error); }
      const keys = [];
      for await (const each of client.issues.list({ projectId: input.projectId, limit: 1 })) keys.push(each.key);
      const stream = client.signals.stream({ after: 0, types: ['issue.created'] });
      const streamed = [(await stream.next()).value.data.object.key, (await stream.next()).value.data.object.key];
      await stream.return();
      const headers = { 'X-Service-Signature': input.signature };
      const verified = (await verifyWebhook(input.body, headers, input.secret)).type;
      let tampered = null;
      try { await verifyWebhook(input.body.replace('hi', 'ho'), headers, input.secret); } catch (error) { tampered = error.reason; }
      // Same createdAt on the test's fixed clock: the order between the two is by id, so compare sorted.
      return { key: issue.key, etag: issue.etag, labels: labelled.labels, refused, keys: keys.sort(), streamed, verified, tampered };
    })(${JSON.stringify(input)})`);

    expect(result).toEqual({
      key: 'APO-1',
      etag: '"1"',
      labels: ['browser'],
      refused: 'invalid_transition',
      keys: ['APO-1', 'APO-2'],
      streamed: ['APO-1', 'APO-2'],
      verified: 'webhook.test',
      tampered: 'no_matching_signature',
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
