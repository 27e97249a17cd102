import { ApiError } from './errors.js';
import { parseSse } from './sse.js';
import type { Transport } from './transport.js';
import type { EventType, SignalEvent } from './types.js';

export interface SignalStreamOptions {
  /** Only these event types. */
  types?: readonly EventType[];
  /** Only events of this resource. */
  resourceId?: string;
  /**
   * Start after this `sequence` (an event you hold). Without it the stream starts at the newest
   * event when it connects: it shows what happens from then on.
   */
  after?: number;
  /** Resume after this event id, as a reconnecting stream does. */
  lastEventId?: string;
  /** Wait before reconnecting, in ms; default: what the server asks (`retry:`), else 1 s. */
  reconnectDelayMs?: number;
  /** Stops the stream (the iterator then ends). */
  signal?: AbortSignal;
}

/** Statuses after which reconnecting cannot help: the request itself is refused. */
const isFinal = (error: unknown) =>
  error instanceof ApiError && error.status < 500 && error.status !== 429 && error.status !== 408;

/**
 * The live signal stream. Each connection asks for the events after the last one yielded
 * (`Last-Event-ID`, or `after` before the first); an event whose `sequence` is not past the last
 * one yielded is dropped, so a server that repeats itself after a reconnect does not make the
 * caller see an event twice. Network errors, dropped connections, 429 and 5xx reconnect after a
 * delay that grows while connecting keeps failing; other errors (401, 403, a Last-Event-ID the
 * server no longer knows) are thrown.
 */
export async function* streamSignals(
  t: Transport,
  options: SignalStreamOptions,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): AsyncGenerator<SignalEvent, void, undefined> {
  let lastId = options.lastEventId;
  let lastSequence = options.after ?? -1;
  let serverDelayMs = 1000;
  let failures = 0;
  const stopped = () => options.signal?.aborted === true;
  while (!stopped()) {
    const connection = new AbortController();
    const onStop = () => connection.abort();
    options.signal?.addEventListener('abort', onStop, { once: true });
    try {
      const response = await t.open({
        method: 'GET',
        path: '/signals',
        query: {
          types: options.types,
          resourceId: options.resourceId,
          after: lastId === undefined ? options.after : undefined,
        },
        headers: {
          Accept: 'text/event-stream',
          ...(lastId !== undefined ? { 'Last-Event-ID': lastId } : {}),
        },
        options: { signal: connection.signal },
      });
      if (!response.body) throw new Error('The signal stream answered without a body');
      for await (const item of parseSse(response.body, connection.signal)) {
        if (item.kind === 'retry') {
          serverDelayMs = item.ms;
          continue;
        }
        const event = JSON.parse(item.event.data) as SignalEvent;
        failures = 0;
        if (event.sequence <= lastSequence) continue;
        lastSequence = event.sequence;
        lastId = item.event.id ?? event.id;
        yield event;
      }
    } catch (error) {
      if (stopped()) return;
      if (isFinal(error)) throw error;
      failures++;
    } finally {
      options.signal?.removeEventListener('abort', onStop);
      connection.abort();
    }
    // The server ended the stream (it shuts down) or the connection dropped: come back.
    const base = options.reconnectDelayMs ?? serverDelayMs;
    try {
      await sleep(Math.min(30_000, base * 2 ** Math.min(failures, 5)), options.signal);
    } catch {
      return;
    }
  }
}
