/** One server-sent event, as the HTML standard's parser dispatches it. */
export interface ServerSentEvent {
  /** The last `id:` seen on the stream, carried over as the standard's "last event ID" is. */
  id: string | undefined;
  event: string;
  data: string;
}

/** What the parser reports: an event, or a `retry:` (the reconnection delay the server asks for). */
export type SseItem = { kind: 'event'; event: ServerSentEvent } | { kind: 'retry'; ms: number };

/**
 * Parses a `text/event-stream` body (the HTML standard's rules: lines end in CR, LF or CRLF; a
 * blank line dispatches; comment lines start with `:`; an event without data is not dispatched).
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseItem> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  // Not every fetch stops its body when the request's signal aborts (an in-process one may not).
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let lastId: string | undefined;
  let pendingCr = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        // A CR at the end of a chunk may be the first half of a CRLF split across chunks.
        if (pendingCr && buffer.length > 0) {
          if (buffer.startsWith('\n')) buffer = buffer.slice(1);
          pendingCr = false;
        }
        const end = buffer.search(/[\r\n]/);
        if (end === -1) break;
        const line = buffer.slice(0, end);
        if (buffer[end] === '\r') {
          if (end + 1 < buffer.length) buffer = buffer.slice(end + (buffer[end + 1] === '\n' ? 2 : 1));
          else {
            buffer = '';
            pendingCr = true;
          }
        } else buffer = buffer.slice(end + 1);
        if (line === '') {
          if (data.length > 0)
            yield { kind: 'event', event: { id: lastId, event: event || 'message', data: data.join('\n') } };
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) lastId = value;
        else if (field === 'retry' && /^\d+$/.test(value)) yield { kind: 'retry', ms: Number(value) };
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    // Not awaited: a server's stream may only notice at its next write that it was cancelled.
    stop();
  }
}
