import { describe, expect, it } from 'vitest';
import { clone } from '../../src/adapters/memory/undo.js';

describe("the memory adapter's copy of stored rows", () => {
  it('copies objects and arrays at every depth, so changing the copy leaves the original alone', () => {
    const original = { id: 'iss_1', labels: ['a', 'b'], payload: { nested: [{ n: 1 }] }, empty: null };
    const copy = clone(original);
    expect(copy).toEqual(original);
    copy.labels.push('c');
    (copy.payload.nested[0] as { n: number }).n = 2;
    expect(original).toEqual({
      id: 'iss_1',
      labels: ['a', 'b'],
      payload: { nested: [{ n: 1 }] },
      empty: null,
    });
  });

  it('keeps a "__proto__" key of JSON data as a field, not as the copy’s prototype', () => {
    const original = JSON.parse('{"__proto__": {"polluted": true}, "title": "x"}') as Record<string, unknown>;
    const copy = clone(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'title']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    // Copied too, not shared.
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).not.toBe(
      Object.getOwnPropertyDescriptor(original, '__proto__')?.value,
    );
  });
});
