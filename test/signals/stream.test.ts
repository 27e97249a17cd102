import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SignalEvent, Tracker } from '../../src/core/index.js';
import { maxStreamsPerAccount } from '../../src/core/pipeline/stream-slots.js';
import { rawExchange, statusesOf } from '../hardening/raw-socket.js';
import { type Host, hosts, listen } from '../http/harness.js';
import { type WebhookFixture, webhookFixture } from '../webhooks/fixture.js';
import { openStream, type Stream } from './event-stream.js';

/** Serves the tracker on 127.0.0.1 through one of the hosts, with a base URL and a close. */
async function serveOn(host: Host, tracker: Tracker): Promise<{ url: string; close(): Promise<void> }> {
  const { server, port } = await listen(host, tracker);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

for (const host of hosts) {
  describe(`the signal stream (${host} host)`, () => {
    let fixture: WebhookFixture;
    let server: { url: string; close(): Promise<void> };
    const streams: Stream[] = [];

    beforeEach(async () => {
      fixture = await webhookFixture();
      server = await serveOn(host, fixture.tracker);
    });
    afterEach(async () => {
      for (const s of streams.splice(0)) await s.disconnect();
      await server.close();
      await fixture.close();
    });

    const open = async (query = '', headers: Record<string, string> = {}, token = fixture.main.token) => {
      const stream = await openStream(`${server.url}/api/v1/signals${query}`, token, headers);
      streams.push(stream);
      return stream;
    };
    /** Creates issues through the API, as a client would. */
    const createIssues = async (count: number, prefix: string) => {
      for (let i = 0; i < count; i++) {
        const created = await fixture.api('POST', '/issues', {
          body: { projectId: fixture.main.projectId, title: `${prefix} ${i}` },
        });
        expect(created.status).toBe(201);
      }
    };
    const allSignals = (): Promise<SignalEvent[]> =>
      fixture.storage.transaction((tx) =>
        tx.signals.list({ accountId: fixture.main.accountId, limit: 1000 }),
      );

    it('holds at most 25 streams of an account open: one more is 429 too_many_streams, others are not counted, a closed one frees its slot', async () => {
      const held: Stream[] = [];
      for (let i = 0; i < maxStreamsPerAccount; i++) held.push(await open());
      expect(held.map((s) => s.status)).toEqual(held.map(() => 200));
      const refuse = () =>
        fetch(`${server.url}/api/v1/signals`, {
          headers: { authorization: `Bearer ${fixture.main.token}`, accept: 'text/event-stream' },
        });
      const refused = await refuse();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('15');
      expect(await refused.json()).toMatchObject({ error: 'too_many_streams', limit: maxStreamsPerAccount });
      // Pages are no streams, and HEAD starts none: both still answered.
      expect((await fixture.api('GET', '/signals')).status).toBe(200);
      const head = await fetch(`${server.url}/api/v1/signals`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${fixture.main.token}`, accept: 'text/event-stream' },
      });
      expect(head.status).toBe(200);
      // Another account's streams are its own.
      expect((await open('', {}, fixture.other.token)).status).toBe(200);
      // A client that leaves frees its slot, once the server has seen it go.
      await (held[0] as Stream).disconnect();
      let again = await refuse();
      for (let tries = 0; again.status === 429 && tries < 200; tries++) {
        await again.body?.cancel();
        await new Promise((later) => setTimeout(later, 10));
        again = await refuse();
      }
      expect(again.status).toBe(200);
      await again.body?.cancel();
    });

    it('delivers each event once, in order, to a client that disconnects and resumes with Last-Event-ID', async () => {
      const before = (await allSignals()).length;
      const first = await open();
      expect(first.status).toBe(200);
      expect(first.contentType).toMatch(/^text\/event-stream/);
      await first.waitFor((m) => m.some((x) => x.retry !== undefined));

      await createIssues(5, 'Live');
      // Another account's changes, interleaved: never on this stream.
      await fixture.createIssue('Globex secret', fixture.other);
      const seen = (await first.waitForEvents(3)).slice(0, 3);
      await first.disconnect();

      await createIssues(4, 'While away');
      const resumed = await open('', { 'last-event-id': seen.at(-1)?.id as string });
      await createIssues(3, 'After resuming');
      const expected = (await allSignals()).slice(before);
      expect(expected).toHaveLength(12);
      const rest = await resumed.waitForEvents(expected.length - 3);

      const received = [...seen, ...rest.slice(0, expected.length - 3)];
      expect(received.map((m) => m.id)).toEqual(expected.map((e) => e.id));
      expect(received.map((m) => m.event)).toEqual(expected.map((e) => e.type));
      expect(received.map((m) => JSON.parse(m.data as string))).toEqual(expected);
      // Nothing more: no repeat of what came before, nothing from the other account.
      await createIssues(1, 'Marker');
      const [marker] = (await allSignals()).slice(-1);
      await resumed.waitFor(() => resumed.events().some((m) => m.id === marker?.id));
      expect(resumed.events().map((m) => m.id)).toEqual([...expected.slice(3), marker].map((e) => e?.id));
      for (const message of [...first.messages, ...resumed.messages]) {
        expect(message.data ?? '').not.toContain(fixture.other.accountId);
      }
    });

    it('starts at the newest event for a new client, or after `after`, and filters by types and resourceId', async () => {
      await createIssues(2, 'History');
      const history = await allSignals();
      const firstIssue = history.find((e) => e.type === 'issue.created');
      const fresh = await open('?types=issue.created');
      const fromStart = await open(`?after=${firstIssue?.sequence}&types=issue.created`);
      const created = await fixture.api('POST', '/issues', {
        body: { projectId: fixture.main.projectId, title: 'Watched' },
      });
      const resource = await open(`?after=0&resourceId=${created.json.id}`);
      await fixture.api('PATCH', `/issues/${created.json.id}`, {
        body: { severity: 'high' },
        headers: { 'if-match': '"1"' },
      });
      await fixture.api('POST', '/outcomes', { body: { projectId: fixture.main.projectId, title: 'Noise' } });
      await fixture.api('POST', '/issues', { body: { projectId: fixture.main.projectId, title: 'Last' } });

      expect(
        (await fresh.waitForEvents(2)).map((m) => JSON.parse(m.data as string).data.object.title),
      ).toEqual(['Watched', 'Last']);
      expect(
        (await fromStart.waitForEvents(3)).map((m) => JSON.parse(m.data as string).data.object.title),
      ).toEqual(['History 1', 'Watched', 'Last']);
      expect((await resource.waitForEvents(2)).map((m) => m.event)).toEqual([
        'issue.created',
        'issue.updated',
      ]);
    });

    it('sends a heartbeat comment while idle', async () => {
      const stream = await open();
      await stream.waitFor((m) => m.some((x) => x.retry !== undefined));
      fixture.clock.advance(15_000);
      await stream.waitFor((m) => m.some((x) => x.comment === 'heartbeat'));
      expect(stream.events()).toHaveLength(0);
    });

    it("refuses a Last-Event-ID that names no event of the token's account", async () => {
      await fixture.createIssue('Globex event', fixture.other);
      const [foreign] = await fixture.storage.transaction((tx) =>
        tx.signals.list({ accountId: fixture.other.accountId, limit: 1 }),
      );
      for (const id of [foreign?.id as string, 'not-an-event']) {
        const response = await fetch(`${server.url}/api/v1/signals`, {
          headers: {
            authorization: `Bearer ${fixture.main.token}`,
            accept: 'text/event-stream',
            'last-event-id': id,
          },
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: string }).error).toBe('validation_failed');
      }
    });

    it("refuses a stream's `after` past the account's newest event, which it would wait on in silence", async () => {
      await createIssues(1, 'Newest');
      const newest = (await allSignals()).at(-1)?.sequence as number;
      const past = await fetch(`${server.url}/api/v1/signals?after=${newest + 1}`, {
        headers: { authorization: `Bearer ${fixture.main.token}`, accept: 'text/event-stream' },
      });
      expect(past.status).toBe(400);
      const problem = (await past.json()) as { error: string; issues: { path: string }[] };
      expect(problem).toMatchObject({ error: 'validation_failed', issues: [{ path: 'after' }] });
      // At the newest event it is a stream, which then sends the next one.
      const atNewest = await open(`?after=${newest}`);
      expect(atNewest.status).toBe(200);
      await createIssues(1, 'Next');
      expect((await atNewest.waitForEvents(1)).map((m) => m.event)).toEqual(['issue.created']);
    });

    it('answers the JSON page when Accept weighs the event stream at q=0', async () => {
      const response = await fetch(`${server.url}/api/v1/signals`, {
        headers: {
          authorization: `Bearer ${fixture.main.token}`,
          accept: 'text/event-stream;q=0, application/json',
        },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toMatchObject({ data: expect.any(Array) });
      const stream = await open('', { accept: 'application/json;q=0.5, text/event-stream;q=0.9' });
      expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    });

    it('answers HEAD of a stream with its headers and ends it there, so the connection serves the next request', async () => {
      // Pipelined on one connection: a HEAD whose stream never ended would hold the GET behind it
      // (the exchange then gives up with the connection still open).
      const exchange = await rawExchange(server.url, [
        `HEAD /api/v1/signals HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fixture.main.token}\r\n` +
          'Accept: text/event-stream\r\n\r\n' +
          'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ]);
      expect(exchange.closed).toBe(true);
      expect(statusesOf(exchange.received)).toEqual([200, 200]);
      const [head] = exchange.received.split('HTTP/1.1 200 OK').slice(1);
      expect(head).toMatch(/content-type: text\/event-stream/i);
      expect(head).not.toMatch(/retry:/);
    });
  });
}
