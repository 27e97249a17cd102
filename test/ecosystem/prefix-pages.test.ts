import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { csrfOf, FormClient, type PageResponse, testPassword } from '../admin/form-client.js';
import { hashTestPassword } from '../support/password-cost.js';
import { type EdgeServer, startEdgeServer } from './support.js';

/**
 * The pages outside the API under a base path: every link, script, stylesheet, form action,
 * redirect and cookie of the reference page and the admin pages stays under the prefix.
 */
const prefix = '/tracker';
const basePath = `${prefix}/api/v1`;

/** Each root-relative URL a page names in an attribute (href, src, action, data-url, srcset…). */
function urlsOf(page: string): string[] {
  const found: string[] = [];
  for (const [, , value = ''] of page.matchAll(/\s(href|src|action|data-url|formaction|poster)="([^"]*)"/g))
    found.push(value.replaceAll('&amp;', '&'));
  for (const [, value = ''] of page.matchAll(/\ssrcset="([^"]*)"/g))
    found.push(...value.split(',').map((entry) => entry.trim().split(/\s+/)[0] ?? ''));
  for (const [, value = ''] of page.matchAll(/url\(\s*['"]?([^'")]+)/g)) found.push(value);
  for (const [, value = ''] of page.matchAll(/http-equiv="refresh"[^>]*content="[^"]*url=([^"]+)"/gi))
    found.push(value);
  return found.filter((url) => url.startsWith('/'));
}

/** The URLs of a page that leave the prefix (a link the mount did not move). */
const outside = (page: string) => urlsOf(page).filter((url) => !url.startsWith(`${prefix}/`));

/** Paths of the API or the pages a page shows as text, without the prefix. */
const unprefixedText = (page: string) =>
  [...page.replace(/<[^>]*>/g, '').matchAll(/(?<!\/tracker)\/(?:api\/v1|docs|sign-in)\b\S*/g)].map(
    ([text]) => text,
  );

/** A receiver for the webhook the pages create, so its delivery pages have something to show. */
async function receiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume().on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}

describe(`the reference page and the admin pages under basePath ${basePath}`, () => {
  let server: EdgeServer;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let browser: FormClient;
  beforeAll(async () => {
    hook = await receiver();
    const storage = memoryStorage();
    server = await startEdgeServer('node', {
      storage,
      basePath,
      rateLimit: false,
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
    });
    const passwordHash = await hashTestPassword(testPassword);
    await storage.transaction(async (tx) => {
      const user = await tx.tenancy.getUserByEmail('admin@acme.test');
      if (user) await tx.tenancy.updateUser({ ...user, passwordHash });
    });
    browser = new FormClient(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  /** GETs a page that must answer 200 with every URL it names under the prefix. */
  async function pageAt(path: string): Promise<PageResponse> {
    const page = await browser.get(path);
    expect(page.status, `${path}: ${page.text.slice(0, 300)}`).toBe(200);
    expect(outside(page.text), `URLs outside ${prefix} on ${path}`).toEqual([]);
    return page;
  }

  /** Posts a form of the page at `from` with its CSRF token; expects a 303 under the prefix. */
  async function submit(from: string, action: string, fields: Record<string, string | string[]> = {}) {
    const page = await pageAt(from);
    expect(page.text).toContain(`action="${action}"`);
    const body = new URLSearchParams({ csrf: csrfOf(page) });
    for (const [name, value] of Object.entries(fields))
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    const answer = await browser.send('POST', action, body.toString());
    expect(answer.status, `${action}: ${answer.text.slice(0, 300)}`).toBe(303);
    expect(answer.location?.startsWith(`${prefix}/`), `${action} redirects to ${answer.location}`).toBe(true);
    return answer.location ?? '';
  }

  it('serves the reference page, the guide and an OpenAPI document of the prefixed paths', async () => {
    const docs = await pageAt(`${prefix}/docs`);
    expect(docs.text).toContain(`href="${basePath}/openapi.json"`);
    expect(outside(docs.text)).toEqual([]);
    for (const url of urlsOf(docs.text)) expect((await browser.get(url)).status, url).toBe(200);
    expect(outside((await pageAt(`${prefix}/docs/guide`)).text)).toEqual([]);

    const document = JSON.parse((await browser.get(`${basePath}/openapi.json`)).text);
    // Paths are where they are served, relative to the server the document came from.
    expect(document.servers).toEqual([{ url: '/', description: 'This server' }]);
    const paths = Object.keys(document.paths);
    expect(paths).toContain(`${basePath}/issues/{id}`);
    expect(paths.filter((path) => !path.startsWith(`${prefix}/`))).toEqual([]);
  });

  it('signs in under the prefix, with its cookies scoped to it, and lands on the settings home', async () => {
    const away = await browser.get(`${prefix}/acme/admin`);
    expect(away.status).toBe(303);
    expect(away.location).toBe(`${prefix}/sign-in?next=%2Facme%2Fadmin`);
    const form = await pageAt(away.location ?? '');
    expect(form.setCookies.every((cookie) => cookie.includes(`; Path=${prefix};`))).toBe(true);
    const signedIn = await browser.send(
      'POST',
      `${prefix}/sign-in`,
      new URLSearchParams({
        csrf: csrfOf(form),
        email: 'admin@acme.test',
        password: testPassword,
        next: '/acme/admin',
      }).toString(),
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${prefix}/acme/admin`);
    expect(signedIn.setCookies.length).toBeGreaterThan(0);
    expect(signedIn.setCookies.every((cookie) => cookie.includes(`; Path=${prefix};`))).toBe(true);

    const home = await pageAt(`${prefix}/acme/admin`);
    for (const section of ['', '/api-tokens', '/members', '/webhooks'])
      expect(home.text).toContain(`href="${prefix}/acme/admin${section}"`);
    expect(home.text).toContain(`action="${prefix}/sign-out"`);
  });

  it('creates a token, a member and a webhook through the forms, each redirect under the prefix', async () => {
    const tokens = `${prefix}/acme/admin/api-tokens`;
    const created = await pageAt(await submit(tokens, tokens, { name: 'prefixed', scope: 'read' }));
    expect(created.text).toContain('New token created');
    // The page's one script (the Copy button) loads from under the prefix.
    expect(created.text).toContain(`src="${prefix}/admin-assets/copy-token.js"`);
    expect((await browser.get(`${prefix}/admin-assets/copy-token.js`)).status).toBe(200);
    const members = `${prefix}/acme/admin/members`;
    await submit(members, members, { email: 'grace@acme.test', role: 'viewer' });
    const webhooks = `${prefix}/acme/admin/webhooks`;
    const webhook = await submit(webhooks, webhooks, { url: hook.url, eventTypes: ['issue.created'] });
    expect(webhook).toMatch(new RegExp(`^${webhooks}/wh_\\w+\\?created=1$`));
    const detail = webhook.split('?')[0] ?? '';
    const tested = await pageAt(await submit(detail, `${detail}/test`));
    expect(tested.text).toContain('Test event delivered');
    expect(tested.text).toMatch(new RegExp(`href="${detail}/deliveries/dlv_\\w+"`));
  });

  it('links every page of the settings area, its assets and its forms under the prefix', async () => {
    const seen = new Set<string>();
    const queue = [`${prefix}/acme/admin`];
    const actions = new Set<string>();
    while (queue.length > 0 && seen.size < 60) {
      const path = queue.shift() ?? '';
      if (seen.has(path)) continue;
      seen.add(path);
      const page = await pageAt(path);
      // The walk stays in the settings area (the reference page has its own test above); the
      // guide shows the API's default paths as documentation, so only admin pages are read as text.
      if (!path.startsWith(`${prefix}/acme/`)) continue;
      expect(unprefixedText(page.text), path).toEqual([]);
      for (const [, action = ''] of page.text.matchAll(/<form method="post" action="([^"]+)"/g))
        actions.add(action.replaceAll('&amp;', '&'));
      for (const [, url = ''] of page.text.matchAll(/\s(?:href|src)="(\/[^"#]*)/g))
        if (!seen.has(url)) queue.push(url.replaceAll('&amp;', '&'));
    }
    // The area was walked: every section, a token's revoke page, a webhook and its delivery, the assets.
    const walked = [...seen].join('\n');
    for (const page of [
      /\/api-tokens\/tok_\w+\/revoke$/m,
      /\/members\/usr_\w+\/remove$/m,
      /\/webhooks\/wh_\w+\/deliveries\/dlv_\w+$/m,
      /\/admin-assets\/admin\.css$/m,
      /^\/tracker\/docs$/m,
    ])
      expect(walked).toMatch(page);
    // Every form posts to a route under the prefix: without its CSRF token it is refused, not missing.
    expect(actions.size).toBeGreaterThan(5);
    for (const action of actions) {
      expect(action.startsWith(`${prefix}/`), action).toBe(true);
      if (action.endsWith('/sign-out')) continue;
      expect((await browser.post(action, {})).status, action).toBe(403);
    }
  });

  it('signs out under the prefix, clearing the cookie where it was set', async () => {
    const home = await pageAt(`${prefix}/acme/admin`);
    const out = await browser.post(`${prefix}/sign-out`, { csrf: csrfOf(home) });
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${prefix}/sign-in`);
    expect(out.setCookies.every((cookie) => cookie.includes(`; Path=${prefix};`))).toBe(true);
    expect((await browser.get(`${prefix}/acme/admin`)).status).toBe(303);
  });
});
