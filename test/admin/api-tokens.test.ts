import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/core/index.js';
import { hashToken } from '../../src/core/tenancy/token-hash.js';
import { hosts, newKey, startServer, type TestServer } from '../http/harness.js';
import {
  csrfOf,
  FormClient,
  type PageResponse,
  setPassword,
  shownToken,
  testPassword,
  tokensPath,
} from './form-client.js';

describe.each(hosts)('the API-token page through the %s host', (host) => {
  let server: TestServer;
  let log: RequestLogEntry[];
  let errors: unknown[];
  afterEach(() => server?.close());

  async function start(options: Parameters<typeof startServer>[1] = {}) {
    log = [];
    errors = [];
    server = await startServer(host, {
      ...options,
      onRequest: (entry) => log.push(entry),
      onError: (error) => errors.push(error),
    });
    for (const email of ['admin@acme.test', 'member@acme.test', 'viewer@acme.test', 'admin@globex.test']) {
      await setPassword(server, email);
    }
    return server;
  }

  async function signedIn(email = 'admin@acme.test'): Promise<FormClient> {
    const browser = new FormClient(server.url);
    expect((await browser.signIn(email, testPassword)).status).toBe(303);
    return browser;
  }

  const workspaceTokens = () => server.storage.transaction((tx) => tx.tokens.list(server.ws.workspaceId));

  /** Submits the "New token" form and follows its redirect (Post/Redirect/Get) to the page that shows it. */
  async function createToken(
    browser: FormClient,
    name: string,
    scope: string,
    expiresInDays = '',
  ): Promise<PageResponse> {
    const page = await browser.get(tokensPath(server));
    const posted = await browser.post(tokensPath(server), { csrf: csrfOf(page), name, scope, expiresInDays });
    expect(posted.status).toBe(303);
    expect(posted.location).toMatch(/^\/acme\/admin\/api-tokens\?created=tok_[A-Za-z0-9]+$/);
    return browser.get(posted.location ?? '');
  }

  it('sends a signed-out visitor to sign-in with the way back', async () => {
    await start();
    const visitor = new FormClient(server.url);
    const answer = await visitor.get(tokensPath(server));
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/sign-in?next=%2Facme%2Fadmin%2Fapi-tokens');
    const form = await visitor.get(answer.location ?? '');
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="next" value="/acme/admin/api-tokens"');
  });

  it('lists the workspace’s tokens with name, scope, owner, last four characters and dates, never a whole token', async () => {
    await start();
    const page = await (await signedIn()).get(tokensPath(server));
    expect(page.status).toBe(200);
    const rows = page.text.match(/<tr data-token-id="tok_[^"]+">/g) ?? [];
    expect(rows).toHaveLength((await workspaceTokens()).length);
    const memberToken = server.tokens.member;
    const memberRow = page.text.split(`data-token-id="${memberToken.id}"`)[1]?.split('</tr>')[0] ?? '';
    expect(memberRow).toContain('member@acme.test');
    expect(memberRow).toContain('<code>read_write</code>');
    expect(memberRow).toContain(`cn_…${memberToken.plain.slice(-4)}`);
    expect(memberRow).toContain('datetime="2026-11-22T10:00:00.000Z"');
    expect(memberRow).toContain('Revoke');
    for (const plain of [server.tokens.admin, server.tokens.read.plain, memberToken.plain]) {
      expect(page.text).not.toContain(plain);
    }
    // Another workspace's tokens are not listed.
    expect(page.text).not.toContain(server.other.adminTokenId);
  });

  it('serves the pages with a strict Content-Security-Policy, no framing, no referrer and no caching', async () => {
    await start();
    const page = await (await signedIn()).get(tokensPath(server));
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // No inline script or style at all: the page works under that policy.
    expect(page.text).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/);
    const css = await new FormClient(server.url).get('/admin-assets/admin.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('creates a read token, shows it once, and the token reads but cannot write', async () => {
    await start();
    const browser = await signedIn();
    const created = await createToken(browser, 'CI reader', 'read');
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const plain = shownToken(created);
    expect(plain).toMatch(/^cn_[0-9A-Za-z_]{32,}$/);

    const stored = (await workspaceTokens()).find((t) => t.name === 'CI reader');
    expect(stored).toMatchObject({
      userId: server.ws.adminUserId,
      scope: 'read',
      hash: hashToken(plain),
      lastFour: plain.slice(-4),
      revokedAt: null,
    });
    expect(JSON.stringify(stored)).not.toContain(plain);

    expect((await server.api('GET', '/api/v1/issues', { token: plain })).status).toBe(200);
    const write = await server.api('POST', '/api/v1/issues', {
      token: plain,
      body: { projectId: server.ws.projectId, title: 'Not allowed' },
      headers: { 'idempotency-key': newKey() },
    });
    expect({ status: write.status, error: write.json?.error }).toEqual({
      status: 403,
      error: 'insufficient_scope',
    });
  });

  it('creates a read_write token that can write', async () => {
    await start();
    const plain = shownToken(await createToken(await signedIn(), 'deploy bot', 'read_write'));
    const write = await server.api('POST', '/api/v1/issues', {
      token: plain,
      body: { projectId: server.ws.projectId, title: 'Written with a page-made token' },
      headers: { 'idempotency-key': newKey() },
    });
    expect(write.status).toBe(201);
  });

  it('never shows the new token again: not on the list, not after revoking, not in the request log', async () => {
    await start();
    const browser = await signedIn();
    const created = await createToken(browser, 'once only', 'read');
    const plain = shownToken(created);
    const tokenId = (await workspaceTokens()).find((t) => t.name === 'once only')?.id ?? '';

    const later: PageResponse[] = [];
    later.push(await browser.get(tokensPath(server)));
    const revoked = await browser.post(`${tokensPath(server)}/${tokenId}/revoke`, {
      csrf: csrfOf(later[0] as PageResponse),
    });
    later.push(revoked, await browser.get(revoked.location ?? ''), await browser.get('/sign-in'));
    for (const page of later) {
      expect(page.text).not.toContain(plain);
      expect(page.location ?? '').not.toContain(plain);
    }
    expect(later[0]?.text).toContain(`cn_…${plain.slice(-4)}`);
    expect(JSON.stringify(log)).not.toContain(plain);
    expect(log.some((entry) => entry.method === 'POST' && entry.path === tokensPath(server))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('revokes a token with its button, after which the API answers 401 and the list shows it revoked', async () => {
    await start();
    const browser = await signedIn();
    const plain = shownToken(await createToken(browser, 'short-lived', 'read'));
    const tokenId = (await workspaceTokens()).find((t) => t.name === 'short-lived')?.id ?? '';
    expect((await server.api('GET', '/api/v1/issues', { token: plain })).status).toBe(200);

    const list = await browser.get(tokensPath(server));
    expect(list.text).toContain(`href="/acme/admin/api-tokens/${tokenId}/revoke"`);
    // The Revoke link asks first, on a page of its own (no script needed).
    const confirm = await browser.get(`${tokensPath(server)}/${tokenId}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Revoke the token <strong>short-lived</strong>');
    expect(confirm.text).toContain(`action="/acme/admin/api-tokens/${tokenId}/revoke"`);
    expect((await server.api('GET', '/api/v1/issues', { token: plain })).status).toBe(200);
    const revoked = await browser.post(`${tokensPath(server)}/${tokenId}/revoke`, { csrf: csrfOf(list) });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`/acme/admin/api-tokens?revoked=${tokenId}`);

    const api = await server.api('GET', '/api/v1/issues', { token: plain });
    expect({ status: api.status, error: api.json?.error }).toEqual({ status: 401, error: 'unauthorized' });
    const after = await browser.get(revoked.location ?? '');
    expect(after.text).toContain('Token &quot;short-lived&quot; was revoked.');
    expect(after.text).not.toContain(`href="/acme/admin/api-tokens/${tokenId}/revoke"`);
    const row = after.text.split(`data-token-id="${tokenId}"`)[1]?.split('</tr>')[0] ?? '';
    expect(row).toContain('<td data-label="Expires">revoked <time datetime="2026-11-22T10:00:00.000Z">');
    expect(row).toContain('<span class="badge off">revoked</span>');
  });

  it('shows a new token once: reloading the page it redirected to makes no second token and shows no token', async () => {
    await start();
    const browser = await signedIn();
    const before = (await workspaceTokens()).length;
    const form = await browser.get(tokensPath(server));
    const posted = await browser.post(tokensPath(server), {
      csrf: csrfOf(form),
      name: 'reloaded',
      scope: 'read',
      expiresInDays: '30',
    });
    const first = await browser.get(posted.location ?? '');
    const plain = shownToken(first);
    const reload = await browser.get(posted.location ?? '');
    expect(reload.status).toBe(200);
    expect(reload.text).not.toContain(plain);
    expect(reload.text).toContain('Its value was shown once');
    expect((await workspaceTokens()).length).toBe(before + 1);
    // The session kept the token only sealed, and not at all once shown.
    const stored = (await workspaceTokens()).find((t) => t.name === 'reloaded');
    expect(stored?.expiresAt).toBe(
      new Date(Date.parse(stored?.createdAt ?? '') + 30 * 86_400_000).toISOString(),
    );
  });

  it('lets a new token expire in 7, 30 or 90 days, or never, and refuses another lifetime', async () => {
    await start();
    const browser = await signedIn();
    for (const days of ['7', '90', ''])
      await createToken(browser, `lives ${days || 'forever'}`, 'read', days);
    const tokens = await workspaceTokens();
    const expiry = (name: string) => tokens.find((t) => t.name === name)?.expiresAt ?? null;
    expect(expiry('lives 7')).toBe('2026-11-29T10:00:00.000Z');
    expect(expiry('lives 90')).toBe('2027-02-20T10:00:00.000Z');
    expect(expiry('lives forever')).toBeNull();
    const list = await browser.get(tokensPath(server));
    expect(list.text).toContain('<time datetime="2026-11-29T10:00:00.000Z">');
    const refused = await browser.post(tokensPath(server), {
      csrf: csrfOf(list),
      name: 'a year',
      scope: 'read',
      expiresInDays: '365',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Choose when the token expires');
  });

  it('rejects create and revoke posts without the CSRF token, or with a wrong one, and changes nothing', async () => {
    await start();
    const browser = await signedIn();
    const before = await workspaceTokens();
    const target = server.tokens.member;
    const answers = [
      await browser.post(tokensPath(server), { name: 'forged', scope: 'read_write' }),
      await browser.post(tokensPath(server), { csrf: 'x'.repeat(43), name: 'forged', scope: 'read_write' }),
      await browser.post(`${tokensPath(server)}/${target.id}/revoke`, {}),
      await browser.post(`${tokensPath(server)}/${target.id}/revoke`, { csrf: 'x'.repeat(43) }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(await workspaceTokens()).toEqual(before);
    expect((await server.api('GET', '/api/v1/issues', { token: target.plain })).status).toBe(200);
  });

  it('does not accept another session’s CSRF token', async () => {
    await start();
    const first = await signedIn();
    const second = await signedIn();
    const firstCsrf = csrfOf(await first.get(tokensPath(server)));
    const answer = await second.post(tokensPath(server), { csrf: firstCsrf, name: 'forged', scope: 'read' });
    expect(answer.status).toBe(403);
  });

  it.each([
    ['member@acme.test', 'member'],
    ['viewer@acme.test', 'viewer'],
    ['admin@globex.test', 'admin of another workspace'],
  ])('answers %s (%s) with a 403 page and lets them create nothing', async (email) => {
    await start();
    const browser = await signedIn(email);
    const before = await workspaceTokens();
    const page = await browser.get(tokensPath(server));
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Admins only');
    expect(page.text).not.toContain('data-token-id');
    // Their own session's CSRF token (from the sign-out form) does not help.
    const create = await browser.post(tokensPath(server), {
      csrf: csrfOf(page),
      name: 'sneaky',
      scope: 'read',
    });
    const revoke = await browser.post(`${tokensPath(server)}/${server.tokens.member.id}/revoke`, {
      csrf: csrfOf(page),
    });
    expect([create.status, revoke.status]).toEqual([403, 403]);
    expect(await workspaceTokens()).toEqual(before);
  });

  it('does not let an admin revoke another workspace’s token through their own workspace’s page', async () => {
    await start();
    const globexAdmin = await signedIn('admin@globex.test');
    const page = await globexAdmin.get('/globex/admin/api-tokens');
    expect(page.status).toBe(200);
    const answer = await globexAdmin.post(`/globex/admin/api-tokens/${server.tokens.member.id}/revoke`, {
      csrf: csrfOf(page),
    });
    expect(answer.status).toBe(404);
    expect((await server.api('GET', '/api/v1/issues', { token: server.tokens.member.plain })).status).toBe(
      200,
    );
  });

  it('answers an unknown workspace with a 404 page', async () => {
    await start();
    const page = await (await signedIn()).get('/no-such-workspace/admin/api-tokens');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('There is no workspace &quot;no-such-workspace&quot;.');
  });

  it.each([
    [{ name: '   ', scope: 'read' }, 'Give the token a name.'],
    [{ name: 'ok', scope: 'admin' }, 'Choose the scope read or read_write.'],
    [{ name: 'x'.repeat(101), scope: 'read' }, 'Token names are at most 100 characters.'],
  ])(
    'refuses the new-token form %o with a 400 page saying why, creating nothing',
    async (fields, message) => {
      await start();
      const browser = await signedIn();
      const before = await workspaceTokens();
      const page = await browser.get(tokensPath(server));
      const answer = await browser.post(tokensPath(server), { csrf: csrfOf(page), ...fields });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(message);
      expect(await workspaceTokens()).toEqual(before);
    },
  );

  it('escapes a token name everywhere it is shown', async () => {
    await start();
    const browser = await signedIn();
    const name = '<script>alert("x")</script>&';
    const created = await createToken(browser, name, 'read');
    const list = await browser.get(tokensPath(server));
    for (const page of [created, list]) {
      expect(page.text).not.toContain(name);
      expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;');
    }
  });

  it('answers admin pages over the client-address rate limit with a 429 page', async () => {
    await start({ rateLimit: { limit: 3 } });
    const visitor = new FormClient(server.url);
    const statuses: number[] = [];
    let last: PageResponse | undefined;
    for (let i = 0; i < 4; i++) {
      last = await visitor.get('/sign-in');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
