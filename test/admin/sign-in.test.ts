import { afterEach, describe, expect, it } from 'vitest';
import { signInLimits } from '../../src/admin/throttle.js';
import { hosts, startServer, type TestServer } from '../http/harness.js';
import { csrfOf, FormClient, setPassword, testPassword, tokensPath } from './form-client.js';

describe.each(hosts)('sign-in and sign-out through the %s host', (host) => {
  let server: TestServer;
  afterEach(() => server?.close());

  async function start() {
    server = await startServer(host);
    await setPassword(server, 'admin@acme.test');
    return server;
  }

  it('signs an admin in with email and password and sends them back to where they were going', async () => {
    await start();
    const browser = new FormClient(server.url);
    const answer = await browser.signIn('admin@acme.test', testPassword, tokensPath(server));
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/acme/admin/api-tokens');
    expect(browser.cookies.get('ot_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await browser.get(tokensPath(server));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('admin@acme.test');
  });

  it('lands a sign-in without a target in the workspace the user joined first, not one that added them since', async () => {
    server = await startServer(host);
    await setPassword(server, 'admin@globex.test');
    // Later, Acme's admin adds Globex's admin to Acme, an older workspace, by email: unasked.
    server.clock.advance(60_000);
    const added = await server.api('POST', '/api/v1/members', {
      token: server.tokens.admin,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { email: 'admin@globex.test', role: 'admin' },
    });
    expect(added.status).toBe(201);
    const answer = await new FormClient(server.url).signIn('admin@globex.test', testPassword);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/globex/admin');
  });

  it('matches emails case-insensitively', async () => {
    await start();
    const answer = await new FormClient(server.url).signIn(' Admin@ACME.test ', testPassword);
    expect(answer.status).toBe(303);
  });

  it('gives the same generic message for an unknown email and for a wrong password, and no session', async () => {
    await start();
    const unknown = new FormClient(server.url);
    const wrong = new FormClient(server.url);
    const noPassword = new FormClient(server.url);
    const answers = [
      await unknown.signIn('nobody@acme.test', testPassword),
      await wrong.signIn('admin@acme.test', 'not the password'),
      // The member exists but has never set a password.
      await noPassword.signIn('member@acme.test', ''.padEnd(12, 'x')),
    ];
    const messages = answers.map((a) => /role="alert"[^>]*>([^<]*)</.exec(a.text)?.[1]);
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
    expect(messages).toEqual([
      'Incorrect email or password.',
      'Incorrect email or password.',
      'Incorrect email or password.',
    ]);
    for (const browser of [unknown, wrong, noPassword]) expect(browser.cookies.has('ot_session')).toBe(false);
  });

  it('stores only a hash of the session cookie, with a CSRF token and a 12-hour expiry', async () => {
    await start();
    const browser = new FormClient(server.url);
    await browser.signIn('admin@acme.test', testPassword);
    const value = browser.cookies.get('ot_session') ?? '';
    const { createHash } = await import('node:crypto');
    const stored = await server.storage.transaction((tx) =>
      tx.sessions.get(createHash('sha256').update(value).digest('hex')),
    );
    expect(stored).toMatchObject({
      userId: server.ws.adminUserId,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: new Date(server.clock.now() + 12 * 3600_000).toISOString(),
    });
    expect(await server.storage.transaction((tx) => tx.sessions.get(value))).toBeNull();
  });

  it('refuses a sign-in post without the form’s CSRF token, even with the right password', async () => {
    await start();
    const browser = new FormClient(server.url);
    await browser.get('/sign-in');
    const missing = await browser.post('/sign-in', { email: 'admin@acme.test', password: testPassword });
    const wrong = await browser.post('/sign-in', {
      csrf: 'A'.repeat(43),
      email: 'admin@acme.test',
      password: testPassword,
    });
    expect([missing.status, wrong.status]).toEqual([403, 403]);
    expect(browser.cookies.has('ot_session')).toBe(false);
  });

  it('limits sign-in attempts per address and email and answers with a 429 page and Retry-After', async () => {
    await start();
    const statuses: number[] = [];
    for (let i = 0; i < signInLimits.perAddressAndEmail; i++) {
      // All from one address, whose budget is larger: the (address, email) budget runs out first.
      statuses.push((await new FormClient(server.url).signIn('admin@acme.test', `wrong ${i}`)).status);
    }
    const refused = await new FormClient(server.url).signIn('admin@acme.test', testPassword);
    expect(statuses).toEqual(Array(signInLimits.perAddressAndEmail).fill(400));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.setCookies.some((c) => c.startsWith('ot_session='))).toBe(false);
    // After the window the right password works again.
    server.clock.advance(signInLimits.windowMs);
    expect((await new FormClient(server.url).signIn('admin@acme.test', testPassword)).status).toBe(303);
  });

  it('limits sign-in attempts per client address across different emails', async () => {
    await start();
    const statuses: number[] = [];
    for (let i = 0; i <= signInLimits.perAddress; i++) {
      statuses.push((await new FormClient(server.url).signIn(`guess${i}@acme.test`, 'password1')).status);
    }
    expect(statuses.slice(0, signInLimits.perAddress)).toEqual(Array(signInLimits.perAddress).fill(400));
    expect(statuses[signInLimits.perAddress]).toBe(429);
  });

  it('sets cookies HttpOnly, SameSite=Strict and Path=/, without Secure over plain http', async () => {
    await start();
    const browser = new FormClient(server.url);
    const form = await browser.get('/sign-in');
    const answer = await browser.post('/sign-in', {
      csrf: csrfOf(form),
      email: 'admin@acme.test',
      password: testPassword,
    });
    const cookies = [...form.setCookies, ...answer.setCookies];
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['ot_signin', 'ot_session']);
    for (const cookie of cookies) {
      const attributes = cookie.split(';').map((a) => a.trim());
      expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
      expect(attributes).not.toContain('Secure');
    }
  });

  it('adds Secure to cookies when a TLS-terminating proxy says the request came over https', async () => {
    await start();
    const browser = new FormClient(server.url, { 'x-forwarded-proto': 'https' });
    const answer = await browser.signIn('admin@acme.test', testPassword);
    expect(answer.setCookies[0]?.split(';').map((a) => a.trim())).toContain('Secure');
  });

  it('ends the session on sign-out, so the old cookie no longer opens the page', async () => {
    await start();
    const browser = new FormClient(server.url);
    await browser.signIn('admin@acme.test', testPassword);
    const oldCookie = browser.cookies.get('ot_session') ?? '';
    const page = await browser.get(tokensPath(server));
    const out = await browser.post('/sign-out', { csrf: csrfOf(page) });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/sign-in');
    expect(out.setCookies[0]).toMatch(/^ot_session=; .*Max-Age=0/);
    // Replaying the old cookie by hand: the session is gone from storage, not just from the browser.
    browser.cookies.set('ot_session', oldCookie);
    const after = await browser.get(tokensPath(server));
    expect(after.status).toBe(303);
    expect(after.location).toBe('/sign-in?next=%2Facme%2Fadmin%2Fapi-tokens');
  });

  it('refuses a sign-out post without the session’s CSRF token and keeps the session', async () => {
    await start();
    const browser = new FormClient(server.url);
    await browser.signIn('admin@acme.test', testPassword);
    const out = await browser.post('/sign-out', {});
    expect(out.status).toBe(403);
    expect((await browser.get(tokensPath(server))).status).toBe(200);
  });

  it('sends a visitor with an expired session back to sign-in', async () => {
    await start();
    const browser = new FormClient(server.url);
    await browser.signIn('admin@acme.test', testPassword);
    server.clock.advance(12 * 3600_000 - 1);
    expect((await browser.get(tokensPath(server))).status).toBe(200);
    server.clock.advance(1);
    const expired = await browser.get(tokensPath(server));
    expect(expired.status).toBe(303);
    expect(expired.location).toBe('/sign-in?next=%2Facme%2Fadmin%2Fapi-tokens');
  });

  it.each([
    // Without a usable target, sign-in lands on the settings home of the admin's workspace.
    ['//evil.test', '/acme/admin'],
    ['https://evil.test', '/acme/admin'],
    ['/\\evil.test', '/acme/admin'],
    ['http:/evil.test', '/acme/admin'],
    ['/acme/admin/api-tokens?x=1', '/acme/admin/api-tokens?x=1'],
  ])('after sign-in with next=%s goes to %s (only same-site paths are followed)', async (next, expected) => {
    await start();
    const browser = new FormClient(server.url);
    const form = await browser.get(`/sign-in?next=${encodeURIComponent(next)}`);
    // The form does not even carry an unsafe next along.
    expect(form.text.includes('name="next"')).toBe(expected !== '/acme/admin');
    const answer = await browser.post('/sign-in', {
      csrf: csrfOf(form),
      email: 'admin@acme.test',
      password: testPassword,
      next,
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(expected);
  });

  it('answers a wrong method on an admin path with a 405 page naming the allowed one', async () => {
    await start();
    const answer = await new FormClient(server.url).get('/sign-out');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
