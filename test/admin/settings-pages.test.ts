import { afterEach, describe, expect, it } from 'vitest';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { startServer, type TestServer } from '../http/harness.js';
import { recordingReceiver } from '../webhooks/recording-receiver.js';
import { csrfOf, FormClient, type PageResponse, setPassword, testPassword } from './form-client.js';

describe('the workspace settings pages (home, members, webhooks)', () => {
  let server: TestServer;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const close of closers.splice(0)) await close();
  });

  async function start() {
    server = await startServer('node', {
      rateLimit: false,
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
    });
    for (const email of ['admin@acme.test', 'member@acme.test', 'admin@globex.test'])
      await setPassword(server, email);
  }

  async function signedIn(email = 'admin@acme.test') {
    const browser = new FormClient(server.url);
    const answer = await browser.signIn(email, testPassword);
    expect(answer.status).toBe(303);
    return { browser, landing: answer.location };
  }

  /** Posts a form from the page at `from` with its CSRF token. */
  async function submit(
    browser: FormClient,
    from: string,
    action: string,
    fields: Record<string, string | string[]>,
  ) {
    const page = await browser.get(from);
    const body = new URLSearchParams({ csrf: csrfOf(page) });
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    }
    return browser.send('POST', action, body.toString());
  }

  const follow = (browser: FormClient, answer: PageResponse) => {
    expect(answer.status, answer.text.slice(0, 400)).toBe(303);
    return browser.get(answer.location ?? '');
  };

  it('lands on the settings home after sign-in, which links every section from the header', async () => {
    await start();
    const { browser, landing } = await signedIn();
    expect(landing).toBe('/acme/admin');
    const home = await browser.get('/acme/admin');
    expect(home.status).toBe(200);
    for (const href of [
      '/acme/admin',
      '/acme/admin/api-tokens',
      '/acme/admin/members',
      '/acme/admin/webhooks',
    ]) {
      expect(home.text).toContain(`href="${href}"`);
    }
    expect(home.text).toContain('aria-current="page">Settings</a>');
    expect(home.text).toContain('action="/sign-out"');
    // A member is no admin: no settings home to land on, and 403 on the pages.
    const member = await signedIn('member@acme.test');
    expect(member.landing).toBe('/sign-in');
    for (const path of ['/acme/admin', '/acme/admin/members', '/acme/admin/webhooks']) {
      expect((await member.browser.get(path)).status).toBe(403);
    }
    // Another workspace's admin: 403 here; an unknown workspace: 404.
    const globex = await signedIn('admin@globex.test');
    expect(globex.landing).toBe('/globex/admin');
    expect((await globex.browser.get('/acme/admin/members')).status).toBe(403);
    expect((await globex.browser.get('/nowhere/admin/webhooks')).status).toBe(404);
    // Signed out: to sign-in, and back afterwards.
    const anonymous = await new FormClient(server.url).get('/acme/admin/webhooks');
    expect(anonymous.location).toBe('/sign-in?next=%2Facme%2Fadmin%2Fwebhooks');
  });

  it('adds a member, changes their role, refuses to demote the last admin, and removes after confirming', async () => {
    await start();
    const { browser } = await signedIn();
    const members = '/acme/admin/members';
    const list = await follow(
      browser,
      await submit(browser, members, members, { email: 'grace@acme.test', role: 'viewer' }),
    );
    expect(list.text).toContain('grace@acme.test was added.');
    const grace = await server.storage.transaction((tx) => tx.tenancy.getUserByEmail('grace@acme.test'));
    const id = grace?.id ?? '';
    expect(list.text).toContain(`data-member-id="${id}"`);
    const again = await submit(browser, members, members, { email: 'grace@acme.test', role: 'viewer' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('already a member');

    const changed = await follow(
      browser,
      await submit(browser, members, `${members}/${id}/role`, { role: 'member' }),
    );
    expect(changed.text).toContain('role was changed');
    expect(
      (await server.storage.transaction((tx) => tx.tenancy.getMembership(server.ws.workspaceId, id)))?.role,
    ).toBe('member');
    const lastAdmin = await submit(browser, members, `${members}/${server.ws.adminUserId}/role`, {
      role: 'viewer',
    });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.text).toContain('last admin');

    const confirm = await browser.get(`${members}/${id}/remove`);
    expect(confirm.text).toContain('Remove <strong>grace@acme.test</strong>');
    const removed = await follow(
      browser,
      await submit(browser, `${members}/${id}/remove`, `${members}/${id}/remove`, {}),
    );
    expect(removed.text).toContain('grace@acme.test was removed');
    expect(removed.text).not.toContain(`data-member-id="${id}"`);
    // Without the CSRF token nothing happens.
    expect((await browser.post(`${members}/${server.tokens.viewer.userId}/remove`, {})).status).toBe(403);
  });

  it('creates a webhook with its secret shown once, sends a test, shows the delivery, edits, disables and deletes', async () => {
    await start();
    const hook = await recordingReceiver();
    closers.push(hook.close);
    const { browser } = await signedIn();
    const webhooks = '/acme/admin/webhooks';
    const refused = await submit(browser, webhooks, webhooks, { url: hook.url, description: 'CI' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Choose at least one event');

    const created = await submit(browser, webhooks, webhooks, {
      url: hook.url,
      description: 'CI receiver',
      eventTypes: ['issue.created', 'member.created'],
    });
    expect(created.location).toMatch(/^\/acme\/admin\/webhooks\/wh_[A-Za-z0-9]+\?created=1$/);
    const page = await browser.get(created.location ?? '');
    const secret = /id="webhook-secret"[^>]*value="(whsec_[^"]+)"/.exec(page.text)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const reload = await browser.get(created.location ?? '');
    expect(reload.text).not.toContain(secret ?? 'none');
    const path = (created.location ?? '').split('?')[0] ?? '';

    const tested = await follow(browser, await submit(browser, path, `${path}/test`, {}));
    expect(tested.text).toContain('Test event delivered: the endpoint answered 200');
    // The day's chart counts the attempt, read from the store's hourly counts.
    expect(tested.text).toContain('Attempts in the last 24 hours: 1 succeeded, 0 failed');
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const deliveryPath =
      /href="(\/acme\/admin\/webhooks\/wh_[^"]+\/deliveries\/dlv_[^"]+)"/.exec(tested.text)?.[1] ?? '';
    const delivery = await browser.get(deliveryPath);
    expect(delivery.status).toBe(200);
    expect(delivery.text).toContain('webhook.test');
    expect(delivery.text).toContain('Redeliver');
    // The detail shows the request exactly as signed and sent.
    const sentSignature = hook.received[0]?.headers['x-service-signature'] ?? 'none';
    expect(delivery.text).toContain(sentSignature);
    // And the receiver's answer: its status, a header and the first bytes of its body.
    expect(delivery.text).toContain('x-receiver-note: seen by the receiver');
    expect(delivery.text).toContain('thanks from the receiver');

    const edited = await follow(
      browser,
      await submit(browser, path, path, { url: hook.url, eventTypes: ['*'], description: '' }),
    );
    expect(edited.text).toContain('Your changes were saved.');
    expect(edited.text).toContain('<em>all events</em>');
    const disabled = await follow(
      browser,
      await submit(browser, path, `${path}/status`, { status: 'disabled' }),
    );
    expect(disabled.text).toContain('<span class="badge bad">disabled</span>');
    const enabled = await follow(
      browser,
      await submit(browser, path, `${path}/status`, { status: 'active' }),
    );
    expect(enabled.text).toContain('<span class="badge ok">active</span>');
    const rotated = await follow(browser, await submit(browser, path, `${path}/rotate-secret`, {}));
    const next = /id="webhook-secret"[^>]*value="(whsec_[^"]+)"/.exec(rotated.text)?.[1];
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);

    expect((await browser.get(`${path}/delete`)).text).toContain('Delete the webhook to');
    const gone = await follow(browser, await submit(browser, `${path}/delete`, `${path}/delete`, {}));
    expect(gone.text).toContain('was deleted');
    expect((await browser.get(path)).status).toBe(404);
  });
});
