import type { FetchLike } from './transport.js';

/** The plain request `tracker.handle()` takes (a structural copy: the client imports nothing of the core). */
interface PlainRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** The plain response it answers. */
interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  stream?: AsyncIterable<string>;
}

/** A tracker the client may call in process: one with `fetch`, or at least `handle`. */
export type InProcessTracker =
  | { fetch(request: Request): Promise<Response> }
  | { handle(request: PlainRequest): Promise<PlainResponse> };

/**
 * A `fetch` that answers from a tracker in this process, with no server or socket: its own
 * `tracker.fetch` when it has one, else a translation to and from `tracker.handle()`.
 */
export function inProcessFetch(tracker: InProcessTracker): FetchLike {
  if ('fetch' in tracker && typeof tracker.fetch === 'function') return (request) => tracker.fetch(request);
  const handler = tracker as { handle(request: PlainRequest): Promise<PlainResponse> };
  return async (request) => {
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
    const answer = await handler.handle({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      body,
    });
    request.signal.throwIfAborted();
    const headers = new Headers(answer.headers);
    if (answer.stream)
      return new Response(streamOf(answer.stream, request.signal), { status: answer.status, headers });
    const empty = answer.status === 204 || answer.status === 304 || request.method === 'HEAD';
    return new Response(empty ? null : answer.body, { status: answer.status, headers });
  };
}

/** A byte stream of an async iterable of text, stopped when the reader cancels or `signal` aborts. */
function streamOf(source: AsyncIterable<string>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let stop: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stop = () => {
        void iterator.return?.()?.catch(() => {});
        try {
          controller.error(signal.reason);
        } catch {
          // Already closed.
        }
      };
      signal.addEventListener('abort', stop, { once: true });
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        signal.removeEventListener('abort', stop as () => void);
        controller.close();
      } else controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      signal.removeEventListener('abort', stop as () => void);
      // Not awaited: an idle event stream only finishes at its next heartbeat, as on the hosts.
      void iterator.return?.()?.catch(() => {});
    },
  });
}
