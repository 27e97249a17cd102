import { describe, expect, it } from 'vitest';
import { holdingSlot, streamSlots } from '../../src/core/pipeline/stream-slots.js';

describe('stream slots', () => {
  it('give each account its own slots up to the limit, and a slot freed twice counts once', () => {
    const slots = streamSlots(2);
    const first = slots.take('acc_1');
    const second = slots.take('acc_1');
    expect(first && second).toBeTruthy();
    expect(slots.take('acc_1')).toBeNull();
    expect(slots.take('acc_2')).not.toBeNull();
    first?.();
    first?.();
    expect(slots.openOf('acc_1')).toBe(1);
    expect(slots.take('acc_1')).not.toBeNull();
    expect(slots.take('acc_1')).toBeNull();
  });

  it('are freed when the stream ends, fails, or is stopped while it waits', async () => {
    const slots = streamSlots(3);
    async function* ends() {
      yield 'a';
    }
    async function* fails(): AsyncGenerator<string> {
      yield 'a';
      throw new Error('gone');
    }
    let wake: () => void = () => {};
    async function* waits() {
      yield 'a';
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      yield 'b';
    }
    const streams = [ends(), fails(), waits()].map((stream) => {
      const free = slots.take('acc_1');
      if (!free) throw new Error('no slot');
      return holdingSlot(stream, free)[Symbol.asyncIterator]();
    });
    const [ending, failing, waiting] = streams as [
      AsyncIterator<string>,
      AsyncIterator<string>,
      AsyncIterator<string>,
    ];
    await ending.next();
    expect((await ending.next()).done).toBe(true);
    expect(slots.openOf('acc_1')).toBe(2);
    await failing.next();
    await expect(failing.next()).rejects.toThrow('gone');
    expect(slots.openOf('acc_1')).toBe(1);
    await waiting.next();
    const pending = waiting.next();
    // Stopped while its next event is awaited: the slot is free at once, before the wait ends.
    const stopped = waiting.return?.();
    expect(slots.openOf('acc_1')).toBe(0);
    wake();
    await pending;
    await stopped;
  });
});
