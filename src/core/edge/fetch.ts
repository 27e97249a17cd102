import { maxBodyBytes } from '../pipeline/body.js';
import type { TrackerRequest, TrackerResponse } from '../pipeline/request.js';
import { readCapped } from './read-capped.js';

/** What a fetch runtime knows about a request beyond the `Request` itself. */
export interface FetchRequestInfo {
  /** The peer address, for the address-keyed rate limits; runtimes that know it pass it here. */
  clientAddress?: string;
}

/** A WHATWG `Request` as the core's plain request. The body is read up to just past the size limit. */
export async function fromFetchRequest(
  request: Request,
  info: FetchRequestInfo = {},
): Promise<TrackerRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    method: request.method,
    path: url.pathname + url.search,
    headers,
    body: request.body ? await readCapped(request.body, maxBodyBytes) : null,
    ...(info.clientAddress ? { clientAddress: info.clientAddress } : {}),
    secure: url.protocol === 'https:',
  };
}

/**
 * The core's response as a WHATWG `Response`; a streamed body becomes a web stream, which stops
 * when the reader cancels it or the request's `signal` aborts (the client went away).
 */
export function toFetchResponse(response: TrackerResponse, signal?: AbortSignal): Response {
  const body = response.stream ? toReadable(response.stream, signal) : response.body;
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A web stream over a streamed body; cancelling it, or aborting `signal`, stops the source. */
export function toReadable(stream: AsyncIterable<string>, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const iterator = stream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let abort = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      abort = () => {
        void iterator.return?.()?.catch(() => {});
        try {
          controller.error(signal?.reason);
        } catch {
          // Already closed.
        }
      };
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    },
    async pull(controller) {
      const next = await iterator.next();
      if (signal?.aborted) return;
      if (next.done) {
        signal?.removeEventListener('abort', abort);
        controller.close();
      } else controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      signal?.removeEventListener('abort', abort);
      // Not awaited: a source waiting for its next event would hold the reader's cancel() until then.
      void iterator.return?.()?.catch(() => {});
    },
  });
}
