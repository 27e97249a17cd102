import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventText } from '../../src/adapters/shared/event-text.js';
import type { SignalEvent } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, readSignals } from './support.js';

/** Text a client may send: any UTF-16, quotes, backslashes, controls and lone surrogates included. */
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const someText = anyText.filter((text) => text.trim().length > 0);

describe.each(adaptersUnderTest)('a create serialized once, on $name storage', (adapter) => {
  it('refuses a label holding U+0000, which no filter could name, with 400', async () => {
    await inWorld(adapter, async (world) => {
      const refused = await world.call('POST', '/issues', {
        body: { projectId: world.ws.projectId, title: 'T', labels: ['ok', 'a\u0000b'] },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toBe('validation_failed');
    });
  });

  it('answers the very text a read of the resource answers, and announces the object it answers', async () => {
    await inWorld(adapter, async (world) => {
      let seen = (await readSignals(world)).at(-1)?.sequence ?? 0;
      await fc.assert(
        fc.asyncProperty(
          someText,
          fc.option(anyText, { nil: undefined }),
          fc.array(
            // A label holding U+0000 is refused (400): the test below.
            someText.map((label) => label.slice(0, 64)).filter((label) => !label.includes('\u0000')),
            { maxLength: 3 },
          ),
          async (title, description, labels) => {
            const key = randomUUID();
            const body = { projectId: world.ws.projectId, title, description, labels };
            const created = await world.call('POST', '/issues', {
              body,
              headers: { 'idempotency-key': key },
            });
            expect(created.status).toBe(201);
            // What JSON.stringify makes of the answer: no member lost, none escaped otherwise.
            expect(created.text).toBe(JSON.stringify(created.json));
            expect(created.json.title).toBe(title.trim());
            expect(created.json).not.toHaveProperty('workspaceId');
            const read = await world.call('GET', `/issues/${created.json.id}`);
            expect(read.text).toBe(created.text);
            const replay = await world.call('POST', '/issues', { body, headers: { 'idempotency-key': key } });
            expect(replay.status).toBe(200);
            expect(replay.text).toBe(created.text);
            const events = await readSignals(world, seen);
            seen = events.at(-1)?.sequence ?? seen;
            expect(events.map((event) => event.type)).toEqual(['issue.created']);
            expect(events[0]?.data.object).toEqual(created.json);
            expect(JSON.stringify(events[0]?.data.object)).toBe(created.text);
          },
        ),
        { numRuns: 25 },
      );
    });
  });

  it('answers an outcome as a read of it answers', async () => {
    await inWorld(adapter, async (world) => {
      await fc.assert(
        fc.asyncProperty(someText, async (title) => {
          const created = await world.call('POST', '/outcomes', {
            body: { projectId: world.ws.projectId, title },
            headers: { 'idempotency-key': randomUUID() },
          });
          expect(created.status).toBe(201);
          const read = await world.call('GET', `/outcomes/${created.json.id}`);
          expect(read.text).toBe(created.text);
          expect(created.text).toBe(JSON.stringify(created.json));
        }),
        { numRuns: 10 },
      );
    });
  });
});

describe('an event whose data’s text was made already', () => {
  it('is written as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (object, known) => {
        const data = { object };
        const event: Omit<SignalEvent, 'sequence'> = {
          id: randomUUID(),
          type: 'issue.created',
          occurredAt: '2026-11-27T00:00:00.000Z',
          accountId: 'acct_1',
          workspaceId: 'ws_1',
          actor: { userId: 'usr_1', tokenId: null },
          resource: { type: 'issue', id: 'iss_1' },
          data,
        };
        expect(eventText(event, known ? { data: JSON.stringify(data) } : undefined)).toBe(
          JSON.stringify(event),
        );
      }),
    );
  });
});
