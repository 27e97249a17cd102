import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';

/** The same value with the keys of every object in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  );
}

describe('canonicalJson', () => {
  it('is JSON of the same value, whatever the order of its keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reversedKeys(value))).toBe(text);
      }),
    );
  });

  it('sorts keys by code unit at every depth and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ z: null, y: 'é' }, undefined], c: undefined, B: true })).toBe(
      '{"B":true,"a":[{"y":"é","z":null},null],"b":1}',
    );
  });
});
