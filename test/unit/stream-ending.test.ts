import { describe, expect, it } from 'vitest';
import { shutdownComment, streamEnding } from '../../src/core/edge/stream-ending.js';

/** A source like the signal stream between events: one line, then waiting until released. */
function idleSource() {
  let release = () => {};
  let stopped = false;
  async function* source() {
    try {
      yield 'retry: 2000\n\n';
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      yield 'id: 1\n\n';
    } finally {
      stopped = true;
    }
  }
  return { stream: source(), release: () => release(), stopped: () => stopped };
}

describe('streamEnding', () => {
  it('ends a stream idle between events at once with the last comment, and stops its source when it wakes', async () => {
    const ending = streamEnding();
    const source = idleSource();
    const reader = ending.track(source.stream)[Symbol.asyncIterator]();
    expect(await reader.next()).toEqual({ done: false, value: 'retry: 2000\n\n' });
    const pending = reader.next();
    ending.endAll();
    // Answered without the source yielding again: the source is still waiting.
    expect(await pending).toEqual({ done: false, value: shutdownComment });
    expect(await reader.next()).toEqual({ done: true, value: undefined });
    expect(source.stopped()).toBe(false);
    source.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(source.stopped()).toBe(true);
  });

  it('ends a stream opened after endAll with the comment alone', async () => {
    const ending = streamEnding();
    ending.endAll();
    const reader = ending.track(idleSource().stream)[Symbol.asyncIterator]();
    expect(await reader.next()).toEqual({ done: false, value: shutdownComment });
    expect(await reader.next()).toEqual({ done: true, value: undefined });
  });
});
