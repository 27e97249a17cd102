import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { adminArea } from '../../src/admin/index.js';
import { createTracker, type Tracker, tenancy } from '../../src/core/index.js';
import { honoApp } from '../../src/http/hono.js';
import { nodeHandler } from '../../src/http/node.js';
import { fakeClock, type Host, hosts } from '../http/harness.js';
import { hashTestPassword, testPasswordCost } from '../support/password-cost.js';
import { testPassword } from './form-client.js';

// A throwaway self-signed certificate for 127.0.0.1, made for this test only (it guards nothing).
const tls = {
  key: readFileSync(new URL('./fixtures/localhost-key.pem', import.meta.url)),
  cert: readFileSync(new URL('./fixtures/localhost-cert.pem', import.meta.url)),
};

interface Answer {
  status: number;
  setCookies: string[];
  body: string;
}

/** One request over TLS that trusts only the test certificate. */
function send(port: number, method: string, path: string, cookie = '', form?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        ca: tls.cert,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, setCookies: res.headers['set-cookie'] ?? [], body }),
        );
      },
    );
    req.on('error', reject);
    req.end(form);
  });
}

async function listenTls(host: Host, tracker: Tracker): Promise<{ server: Server; port: number }> {
  if (host === 'node') {
    const server = createServer(tls, nodeHandler(tracker));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return { server, port: (server.address() as AddressInfo).port };
  }
  return new Promise((resolve) => {
    const server = serve(
      { fetch: honoApp(tracker).fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: tls },
      (info) => resolve({ server: server as Server, port: info.port }),
    ) as Server;
  });
}

describe.each(hosts)('admin cookies over https through the %s host', (host) => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  it('marks both cookies Secure when the host served the page over TLS', async () => {
    const storage = memoryStorage();
    const tracker = createTracker({
      storage,
      clock: fakeClock(),
      onError: () => {},
      extensions: [adminArea({ passwordCost: testPasswordCost })],
    });
    const passwordHash = await hashTestPassword(testPassword);
    await storage.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: tracker.ids, now: tracker.clock.now() },
        { slug: 'acme', adminEmail: 'admin@acme.test', passwordHash },
      ),
    );
    const { server, port } = await listenTls(host, tracker);
    close = async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await tracker.close();
    };

    const form = await send(port, 'GET', '/sign-in');
    const signInCookie = form.setCookies[0]?.split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
    const body = new URLSearchParams({ csrf, email: 'admin@acme.test', password: testPassword }).toString();
    const signedIn = await send(port, 'POST', '/sign-in', signInCookie, body);

    expect(signedIn.status).toBe(303);
    const cookies = [...form.setCookies, ...signedIn.setCookies];
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['ot_signin', 'ot_session']);
    for (const cookie of cookies) {
      expect(cookie.split(';').map((a) => a.trim())).toEqual(
        expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/']),
      );
    }
  });
});
