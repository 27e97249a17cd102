import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { hosts, startServer, type TestServer } from '../http/harness.js';
import { tempSqliteStorage } from '../support/adapters.js';
import { csrfOf, FormClient, setPassword, shownToken, testPassword, tokensPath } from './form-client.js';

describe.each(hosts)('the admin pages over SQLite storage through the %s host', (host) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('signs in, creates and revokes a token, and signs out, with sessions kept in SQLite', async () => {
    server = await startServer(host, { storage: await tempSqliteStorage() });
    await setPassword(server, 'admin@acme.test');
    const browser = new FormClient(server.url);
    expect((await browser.signIn('admin@acme.test', testPassword)).status).toBe(303);
    const sessionHash = createHash('sha256')
      .update(browser.cookies.get('ot_session') ?? '')
      .digest('hex');
    expect(await server.storage.transaction((tx) => tx.sessions.get(sessionHash))).not.toBeNull();

    const list = await browser.get(tokensPath(server));
    const created = await browser.post(tokensPath(server), {
      csrf: csrfOf(list),
      name: 'sqlite',
      scope: 'read',
    });
    expect(created.status).toBe(303);
    // The token waits, sealed, with the SQLite-stored session for the page the redirect leads to.
    const plain = shownToken(await browser.get(created.location ?? ''));
    expect((await server.api('GET', '/api/v1/issues', { token: plain })).status).toBe(200);
    const tokenId = (await server.storage.transaction((tx) => tx.tokens.list(server.ws.workspaceId))).find(
      (t) => t.name === 'sqlite',
    )?.id;
    const revoked = await browser.post(`${tokensPath(server)}/${tokenId}/revoke`, { csrf: csrfOf(list) });
    expect(revoked.status).toBe(303);
    expect((await server.api('GET', '/api/v1/issues', { token: plain })).status).toBe(401);

    expect((await browser.post('/sign-out', { csrf: csrfOf(list) })).status).toBe(303);
    expect(await server.storage.transaction((tx) => tx.sessions.get(sessionHash))).toBeNull();
  });
});
