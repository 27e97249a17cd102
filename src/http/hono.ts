import { Hono } from 'hono';
import { readCapped } from '../core/edge/read-capped.js';
import { maxBodyBytes, type Tracker } from '../core/index.js';

/** Node's server puts the incoming request in Hono's env; other runtimes have no peer address here. */
type NodeBindings = {
  incoming?: AsyncIterable<Uint8Array> & {
    readableEnded?: boolean;
    socket?: { remoteAddress?: string; destroy(): void };
  };
  outgoing?: { once(event: 'finish', listener: () => void): void };
};

/**
 * The tracker as a Hono app. Mount it with `app.route('/api/v1', honoApp(tracker))`, or serve it
 * as it is: either way it answers the /api/v1 paths (and /healthz). Served as it is, it also answers the
 * admin pages (/sign-in, /{workspaceSlug}/admin/api-tokens).
 */
export function honoApp(tracker: Tracker): Hono<{ Bindings: NodeBindings }> {
  const app = new Hono<{ Bindings: NodeBindings }>();
  app.all('*', async (c) => {
    const raw = c.req.raw;
    const url = new URL(raw.url);
    const incoming = c.env?.incoming;
    // A GET or HEAD body never reaches the Request, but it is on the socket all the same: read it
    // (the core ignores it), as the Node host does. Left unread, the connection is closed over it
    // and a large answer is cut off at the client.
    const unreadBody = !raw.body && incoming && incoming.readableEnded === false ? incoming : null;
    const source = raw.body ?? unreadBody;
    const body = source ? await readCapped(source, maxBodyBytes) : null;
    const response = await tracker.handle({
      method: raw.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(raw.headers),
      body,
      clientAddress: c.env?.incoming?.socket?.remoteAddress ?? 'unknown',
      secure: url.protocol === 'https:',
    });
    if (response.status === 413 || (body !== null && body.byteLength > maxBodyBytes)) {
      // The rest of an oversized body is still coming: never read it as the next request. Close
      // the connection once the answer is out, as the Node host does.
      response.headers.Connection = 'close';
      const socket = c.env?.incoming?.socket;
      c.env?.outgoing?.once('finish', () => socket?.destroy());
    }
    const answer = response.stream ? toReadable(response.stream) : response.body;
    return new Response(answer, { status: response.status, headers: response.headers });
  });
  return app;
}

/** A web stream over a streamed body; cancelling it (the client left) stops the source. */
function toReadable(stream: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = stream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
