import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookSubscription } from '../../src/core/index.js';
import { isForbiddenAddress } from '../../src/core/webhooks/ssrf.js';
import { nodeWebhookSender, type Resolver } from '../../src/http/webhook-sender.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

/** An HTTP server listening on 127.0.0.1 and [::1] at one port, counting every connection it accepts. */
interface LoopbackTrap {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

async function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

async function startLoopbackTrap(): Promise<LoopbackTrap> {
  let connections = 0;
  const make = () => {
    const server = createServer((_req, res) => res.writeHead(200).end());
    server.on('connection', () => {
      connections++;
    });
    return server;
  };
  for (;;) {
    const v4 = make();
    const v6 = make();
    const port = await listen(v4, 0, '127.0.0.1');
    try {
      await listen(v6, port, '::1');
    } catch {
      v4.close();
      continue; // the port is taken on ::1: try another
    }
    return {
      port,
      connections: () => connections,
      close: async () => {
        for (const server of [v4, v6]) {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      },
    };
  }
}

/** A name whose answer the test controls: public when the subscription is made, 127.0.0.1 afterwards. */
const publicAddress = '93.184.215.14';
let rebindAnswer = publicAddress;
const resolver: Resolver = async (hostname) => {
  const table: Record<string, string> = {
    localhost: '127.0.0.1',
    'loopback.example.test': '127.0.0.1',
    'metadata.example.test': '169.254.169.254',
    'mapped.example.test': '::ffff:127.0.0.1',
    'rebind.example.test': rebindAnswer,
  };
  const address = table[hostname];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

let trap: LoopbackTrap;
let fixture: WebhookFixture;

beforeEach(async () => {
  rebindAnswer = publicAddress;
  trap = await startLoopbackTrap();
});
afterEach(async () => {
  await fixture?.close();
  await trap.close();
});

const guarded = async () => {
  fixture = await webhookFixture({ webhooks: { sender: nodeWebhookSender({ resolver }) } });
};

/** Stores a subscription as it is, past the create-time check, as if DNS had changed since. */
async function storeSubscription(url: string): Promise<string> {
  const now = new Date(fixture.clock.now()).toISOString();
  const subscription: WebhookSubscription = {
    id: fixture.tracker.ids.id('wh'),
    accountId: fixture.main.accountId,
    url,
    eventTypes: ['*'],
    description: null,
    status: 'active',
    disabledReason: null,
    secret: 'whsec_stored',
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    signatureScheme: 'stripe',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await fixture.storage.transaction((tx) => tx.webhooks.insert(subscription));
  return subscription.id;
}

const targets = (port: number): string[] => [
  `https://127.0.0.1:${port}/hook`,
  `https://10.0.0.1:${port}/hook`,
  `https://172.16.0.1:${port}/hook`,
  `https://192.168.1.1:${port}/hook`,
  `https://169.254.169.254:${port}/latest/meta-data`,
  `https://100.64.0.1:${port}/hook`,
  `https://[::1]:${port}/hook`,
  `https://[fc00::1]:${port}/hook`,
  `https://[::ffff:127.0.0.1]:${port}/hook`,
  `https://2130706433:${port}/hook`,
  `https://0x7f.1:${port}/hook`,
  `https://0.0.0.0:${port}/hook`,
  `https://224.0.0.1:${port}/hook`,
  `https://[fe80::1]:${port}/hook`,
  `https://[ff02::1]:${port}/hook`,
  `https://[::]:${port}/hook`,
  `https://[2002:7f00:1::]:${port}/hook`,
  `https://localhost:${port}/hook`,
  `https://loopback.example.test:${port}/hook`,
  `https://metadata.example.test:${port}/hook`,
  `https://mapped.example.test:${port}/hook`,
];

describe('the SSRF guard', () => {
  it('classifies the private, loopback, link-local, CGNAT, mapped, multicast and unspecified addresses as forbidden', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      // IPv4-translated (RFC 2765): 127.0.0.1 and 10.0.0.1.
      '::ffff:0:7f00:1',
      '::ffff:0:a00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'not-an-address',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of [
      '93.184.215.14',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('refuses every forbidden target at create with 400, and no connection reaches the loopback server', async () => {
    await guarded();
    for (const url of targets(trap.port)) {
      const created = await fixture.api('POST', '/webhooks', { body: { url, eventTypes: ['*'] } });
      expect(created.status, url).toBe(400);
      expect(created.json.error, url).toBe('validation_failed');
      expect(created.json.issues[0].path, url).toBe('url');
    }
    const listed = await fixture.api('GET', '/webhooks');
    expect(listed.json.total).toBe(0);
    expect(trap.connections()).toBe(0);
  });

  it('refuses plain http, credentials in the URL, names that do not resolve, control characters and port 0', async () => {
    await guarded();
    for (const url of [
      'http://rebind.example.test/hook',
      'ftp://rebind.example.test/hook',
      'https://user:pass@rebind.example.test/hook',
      'https://nowhere.example.test/hook',
      'not a url',
      // The URL parser would drop the line break and tab and escape the space: stored, these
      // would not be the URL delivered to.
      'https://rebind.example.test/A\r\nX-Injected: y',
      'https://rebind.example.test/a\tb',
      'https://rebind.example.test/a b',
      'https://rebind.example.test:0/hook',
    ]) {
      const created = await fixture.api('POST', '/webhooks', { body: { url, eventTypes: ['*'] } });
      expect(created.status, url).toBe(400);
      expect(created.json.error, url).toBe('validation_failed');
    }
    const accepted = await fixture.api('POST', '/webhooks', {
      body: { url: 'https://rebind.example.test/hook', eventTypes: ['*'] },
    });
    expect(accepted.status).toBe(201);
  });

  it('refuses the same targets again at delivery, against the address it would connect to', async () => {
    await guarded();
    const ids: string[] = [];
    for (const url of targets(trap.port)) ids.push(await storeSubscription(url));
    await fixture.createIssue('Bait');
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(ids.length);
    for (const id of ids) {
      const [delivery] = await fixture.deliveries(id);
      expect(delivery?.lastResponseStatus, delivery?.id).toBeNull();
      expect(delivery?.lastError, `${id}: ${delivery?.lastError}`).toMatch(/^refused: /);
    }
    expect(trap.connections()).toBe(0);
  });

  it('refuses a name that resolved to a public address at create and to 127.0.0.1 at delivery (DNS rebinding)', async () => {
    await guarded();
    const { id } = await fixture.subscribe(`https://rebind.example.test:${trap.port}/hook`);
    rebindAnswer = '127.0.0.1';
    await fixture.createIssue('Rebound');
    await fixture.tracker.webhooks.dispatchDue();
    const [delivery] = await fixture.deliveries(id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastResponseStatus: null });
    expect(delivery?.lastError).toMatch(
      /refused: rebind\.example\.test resolves to a private or reserved address/,
    );

    const tested = await fixture.api('POST', `/webhooks/${id}/test`);
    expect(tested.json).toMatchObject({ delivered: false, responseStatus: null });
    expect(tested.json.error).toMatch(/^refused: /);
    expect(trap.connections()).toBe(0);
  });

  it('does connect to the same loopback targets when private targets are allowed (the trap counts)', async () => {
    fixture = await webhookFixture({
      webhooks: { sender: nodeWebhookSender({ resolver }), allowPrivateTargets: true },
    });
    const { id } = await fixture.subscribe(`http://127.0.0.1:${trap.port}/hook`);
    const tested = await fixture.api('POST', `/webhooks/${id}/test`);
    expect(tested.json).toMatchObject({ delivered: true, responseStatus: 200, error: null });
    // https to a plain-HTTP server fails its handshake, but the connection is made: the guard is what stops it.
    const viaName = await fixture.subscribe(`https://loopback.example.test:${trap.port}/hook`);
    const handshake = await fixture.api('POST', `/webhooks/${viaName.id}/test`);
    expect(handshake.json.delivered).toBe(false);
    const viaV6 = await fixture.subscribe(`http://[::1]:${trap.port}/hook`);
    expect((await fixture.api('POST', `/webhooks/${viaV6.id}/test`)).json.delivered).toBe(true);
    expect(trap.connections()).toBe(3);
  });

  it('reports a 302 to a private address as a failure and never requests the Location', async () => {
    const redirector = createServer((_req, res) =>
      res.writeHead(302, { Location: `http://127.0.0.1:${trap.port}/internal` }).end(),
    );
    const port = await listen(redirector, 0, '127.0.0.1');
    try {
      fixture = await webhookFixture({
        webhooks: { sender: nodeWebhookSender({ resolver }), allowPrivateTargets: true },
      });
      const { id } = await fixture.subscribe(`http://127.0.0.1:${port}/hook`);
      const tested = await fixture.api('POST', `/webhooks/${id}/test`);
      expect(tested.json).toMatchObject({ delivered: false, responseStatus: 302 });
      await fixture.createIssue('Redirected');
      await fixture.tracker.webhooks.dispatchDue();
      const logged = await fixture.api('GET', `/webhooks/${id}/deliveries`);
      const byType = Object.fromEntries(
        logged.json.data.map((d: { eventType: string; status: string; lastResponseStatus: number }) => [
          d.eventType,
          [d.status, d.lastResponseStatus],
        ]),
      );
      // The test delivery is never retried; the event's delivery waits for its next attempt.
      expect(byType).toEqual({ 'webhook.test': ['failed', 302], 'issue.created': ['pending', 302] });
      expect(trap.connections()).toBe(0);
    } finally {
      redirector.closeAllConnections();
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});
