import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import type { Storage } from '../../src/core/port/index.js';
import { hosts, listen } from '../http/harness.js';
import { type WebhookFixture, webhookFixture } from '../webhooks/fixture.js';

/** A storage that counts the read transactions run through it (an event stream's reads). */
function countingReads(inner: Storage): Storage & { reads(): number } {
  let reads = 0;
  return {
    transaction(fn, options) {
      if (options?.mode === 'read') reads++;
      return inner.transaction(fn, options);
    },
    close: () => inner.close(),
    reads: () => reads,
  };
}

/**
 * An event stream whose client stops reading: the server must stop reading events for it once
 * the socket is full, rather than queue every later event in its memory for as long as the client
 * stays connected (with the Node host it queued them all: hundreds of MB for a few streams).
 */
for (const host of hosts) {
  describe(`an event stream whose client stops reading (${host} host)`, () => {
    let fixture: WebhookFixture;
    let server: Server;
    let socket: Socket | undefined;
    afterEach(async () => {
      socket?.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fixture.close();
    });

    it('holds its stream without reading more events until the client reads again, and then loses none', async () => {
      const storage = countingReads(memoryStorage());
      fixture = await webhookFixture({ storage });
      let port: number;
      ({ server, port } = await listen(host, fixture.tracker));

      // A client that reads the answer's head, then nothing.
      let received = '';
      const client = connect(port, '127.0.0.1');
      socket = client;
      client.setEncoding('utf8');
      let headOnly = true;
      await new Promise<void>((resolve) => {
        client.on('data', (chunk: string) => {
          received += chunk;
          if (headOnly && received.includes('retry:')) {
            headOnly = false;
            client.pause();
            resolve();
          }
        });
        client.write(
          `GET /api/v1/signals HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fixture.main.token}\r\n` +
            'Accept: text/event-stream\r\n\r\n',
        );
      });

      // Issues of 50,000-character descriptions: each event carries one, about 50 kB.
      const description = 'd'.repeat(50_000);
      let created = 0;
      const createBatches = async (batches: number) => {
        for (let b = 0; b < batches; b++) {
          for (let i = 0; i < 20; i++) {
            const answer = await fixture.api('POST', '/issues', {
              body: { projectId: fixture.main.projectId, title: `Slow reader ${created++}`, description },
            });
            expect(answer.status).toBe(201);
          }
          // The stream wakes on the commits and reads what they wrote.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      // 40 MB of events: far more than the socket's buffers on both sides hold.
      await createBatches(40);
      const readsWhenFull = storage.reads();
      await createBatches(10);
      expect(storage.reads() - readsWhenFull).toBe(0);

      // Reading again, the client gets every event, in order.
      client.resume();
      const events = () => received.split('\nevent: issue.created\n').length - 1;
      for (let waited = 0; events() < created; waited += 20) {
        if (waited > 30_000) throw new Error(`only ${events()} of ${created} events arrived`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(events()).toBe(created);
      const titles = [...received.matchAll(/"title":"Slow reader (\d+)"/g)].map((m) => Number(m[1]));
      expect(titles).toEqual(Array.from({ length: created }, (_, i) => i));
    });
  });
}
