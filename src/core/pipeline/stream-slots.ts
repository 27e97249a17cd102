import { ApiError } from '../errors.js';

/**
 * Event streams one account may hold open at once on one tracker (one server process): each
 * holds a connection for as long as it lasts, and the server's connections are bounded for all
 * tenants together (`serve --max-connections`), so one tenant opening streams without end would
 * shut every other out. More answer 429 `too_many_streams`.
 */
export const maxStreamsPerAccount = 25;

/** The open streams of each account, at most `limit` each. */
export interface StreamSlots {
  /** A slot for one more stream of the account, freed by calling it (once counts); null when full. */
  take(accountId: string): (() => void) | null;
  /** How many streams the account holds open now. */
  openOf(accountId: string): number;
}

export function streamSlots(limit = maxStreamsPerAccount): StreamSlots {
  const open = new Map<string, number>();
  return {
    take(accountId) {
      const held = open.get(accountId) ?? 0;
      if (held >= limit) return null;
      open.set(accountId, held + 1);
      let freed = false;
      return () => {
        if (freed) return;
        freed = true;
        const left = (open.get(accountId) ?? 1) - 1;
        if (left > 0) open.set(accountId, left);
        else open.delete(accountId);
      };
    },
    openOf: (accountId) => open.get(accountId) ?? 0,
  };
}

export const tooManyStreams = (): ApiError =>
  new ApiError(
    429,
    'too_many_streams',
    `This account holds ${maxStreamsPerAccount} event streams open on this server already; close one, or read pages of GET /signals instead.`,
    { limit: maxStreamsPerAccount },
    { 'Retry-After': '15' },
  );

/**
 * The stream, freeing its slot as soon as it ends, fails or is stopped (`return`, when the client
 * went away): at once, not when the stream's own pending wait for a change ends.
 */
export function holdingSlot(stream: AsyncIterable<string>, free: () => void): AsyncIterable<string> {
  const inner = stream[Symbol.asyncIterator]();
  const iterator: AsyncIterator<string> = {
    async next() {
      try {
        const step = await inner.next();
        if (step.done) free();
        return step;
      } catch (error) {
        free();
        throw error;
      }
    },
    async return(value?: unknown) {
      free();
      return (await inner.return?.(value)) ?? { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
