/** The last thing a stream sends when the server ends it: an SSE comment, which clients ignore. */
export const shutdownComment = ': server shutting down\n\n';

/**
 * Event streams the server can end at once: on shutdown each open stream sends a last comment and
 * ends, so clients reconnect (with Last-Event-ID) to another instance instead of being cut.
 */
export interface StreamEnding {
  /** The stream, ending with the comment as soon as `endAll` is called. */
  track(stream: AsyncIterable<string>): AsyncIterable<string>;
  /** Ends every open stream and every stream opened from now on. */
  endAll(): void;
}

export function streamEnding(): StreamEnding {
  let ended = false;
  const waiting = new Set<() => void>();
  return {
    endAll() {
      ended = true;
      for (const wake of waiting) wake();
      waiting.clear();
    },
    track(stream) {
      // A plain iterator rather than a generator: a generator's return() waits for its pending
      // next(), whereas a client that leaves must stop the source at once.
      return {
        [Symbol.asyncIterator]() {
          const source = stream[Symbol.asyncIterator]();
          let finished = false;
          let wake = () => {};
          const end = new Promise<'end'>((resolve) => {
            wake = () => resolve('end');
          });
          waiting.add(wake);
          const finish = async (): Promise<IteratorResult<string>> => {
            finished = true;
            waiting.delete(wake);
            // Not awaited: the source is an async generator, whose return() waits for its pending
            // next(), and that one settles only at the next event or heartbeat. The stream ends now;
            // the source stops when it next wakes.
            void Promise.resolve(source.return?.()).catch(() => {});
            return { done: true, value: undefined };
          };
          return {
            async next(): Promise<IteratorResult<string>> {
              if (finished) return { done: true, value: undefined };
              const next = ended ? 'end' : await Promise.race([source.next(), end]);
              if (next === 'end') {
                await finish();
                return { done: false, value: shutdownComment };
              }
              if (next.done) return finish();
              return next;
            },
            return: finish,
          };
        },
      };
    },
  };
}
