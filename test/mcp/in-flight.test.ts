import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker, type Storage, type Tracker } from '../../src/core/index.js';
import { maxStreamsPerAccount } from '../../src/core/pipeline/stream-slots.js';
import { mcpEndpoint } from '../../src/mcp/index.js';
import { hosts, listen } from '../http/harness.js';
import { initializeRequest, type McpWorld, seedMcpWorld } from './support.js';

/** A storage whose write transactions wait while the gate is shut: a tool call that does not end. */
function gatedStorage(storage: Storage) {
  let open: Promise<void> = Promise.resolve();
  let release = () => {};
  const gated: Storage = {
    ...storage,
    transaction: (fn, options) =>
      options?.mode === 'read'
        ? storage.transaction(fn, options)
        : open.then(() => storage.transaction(fn, options)),
  };
  return {
    storage: gated,
    shut: () => {
      open = new Promise((resolve) => (release = resolve));
    },
    open: () => release(),
  };
}

interface Answer {
  status: number;
  contentType: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  messages: any[];
}

for (const host of hosts) {
  describe(`POSTs to a /mcp session through the ${host} host`, () => {
    let gate: ReturnType<typeof gatedStorage>;
    let tracker: Tracker;
    let server: Server;
    let url: string;
    let world: McpWorld;
    let session: string;

    const send = (message: unknown, token = world.admin): Promise<Response> =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(message),
      });
    const read = async (response: Response): Promise<Answer> => {
      const text = await response.text();
      const contentType = response.headers.get('content-type') ?? '';
      const messages = contentType.startsWith('text/event-stream')
        ? text
            .split('\n')
            .filter((line) => line.startsWith('data: {'))
            .map((line) => JSON.parse(line.slice(6)))
        : text
          ? [JSON.parse(text)]
          : [];
      if (!session) session = response.headers.get('mcp-session-id') ?? '';
      return { status: response.status, contentType, messages };
    };
    const post = async (message: unknown): Promise<Answer> => read(await send(message));
    const createIssue = (id: number | string, title = 'From a POST') => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'create_issue', arguments: { projectId: world.projectId, title } },
    });

    const start = async (answerWithinMs?: number) => {
      gate = gatedStorage(memoryStorage());
      tracker = createTracker({
        storage: gate.storage,
        basePath: '/api/v1',
        mcp: mcpEndpoint({ pollMs: 100, ...(answerWithinMs ? { answerWithinMs } : {}) }),
        rateLimit: false,
        onError: () => {},
      });
      ({ server, port: url } = await listen(host, tracker).then(({ server, port }) => ({
        server,
        port: `http://127.0.0.1:${port}/mcp`,
      })));
      world = await seedMcpWorld(tracker, tracker.storage);
      session = '';
      await post(initializeRequest);
      expect(session).toBeTruthy();
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    };
    beforeEach(() => {
      session = '';
    });
    afterEach(async () => {
      gate?.open();
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        server?.closeAllConnections();
      });
      await tracker?.close();
    });

    it('ends 20 concurrent POSTs of one id: the one in flight is answered, the others refused with 409', {
      timeout: 15_000,
    }, async () => {
      await start();
      gate.shut();
      // Its stream started, the first holds the id while its create waits at the gate.
      const first = await send(createIssue(5));
      expect(first.status).toBe(200);
      const results = await Promise.all(Array.from({ length: 19 }, () => post(createIssue(5))));
      for (const answer of results) {
        expect(answer.status).toBe(409);
        expect(answer.messages[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      }
      gate.open();
      expect((await read(first)).messages).toMatchObject([
        { id: 5, result: { structuredContent: { title: 'From a POST' } } },
      ]);
      // Answered, the id is free again.
      expect((await post(createIssue(5, 'Again'))).messages).toMatchObject([{ id: 5, result: {} }]);
    });

    it('refuses a batch that repeats an id', async () => {
      await start();
      const answer = await post([createIssue(1), createIssue(1)]);
      expect(answer.status).toBe(409);
      expect(answer.messages[0].error.code).toBe(-32600);
    });

    it('answers a request not answered within the deadline with a JSON-RPC error, ending its stream', async () => {
      await start(50);
      gate.shut();
      const answer = await post(createIssue('slow'));
      expect(answer.status).toBe(200);
      expect(answer.messages).toEqual([
        { jsonrpc: '2.0', id: 'slow', error: { code: -32002, message: 'Not answered within 0.05 s' } },
      ]);
      gate.open();
      // The id is free again, and the cancelled handler answers nothing into the next POST.
      const again = await post(createIssue('slow', 'After the deadline'));
      expect(again.messages).toHaveLength(1);
      expect(again.messages[0]).toMatchObject({
        id: 'slow',
        result: { structuredContent: { title: 'After the deadline' } },
      });
    });

    it('counts open POST streams toward the account stream cap', async () => {
      await start();
      gate.shut();
      const held = Array.from({ length: maxStreamsPerAccount }, (_, i) => post(createIssue(100 + i)));
      // A ping's stream ends at once: ping until the held POSTs have taken every slot.
      let refused: Answer | null = null;
      for (let id = 1000; refused === null; id++) {
        const probe = await post({ jsonrpc: '2.0', id, method: 'ping' });
        if (probe.status === 429) refused = probe;
        else expect(probe.messages[0]).toMatchObject({ id, result: {} });
      }
      expect(refused.messages[0]).toMatchObject({ error: 'too_many_streams' });
      gate.open();
      const answers = await Promise.all(held);
      expect(answers.every((answer) => answer.messages[0]?.result !== undefined)).toBe(true);
      // The streams ended and gave their slots back.
      expect((await post(createIssue(99))).status).toBe(200);
    });
  });
}
