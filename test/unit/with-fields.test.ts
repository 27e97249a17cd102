import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withFields } from '../../src/core/with-fields.js';

const record = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 8 });

describe('withFields', () => {
  it('is what spreading both makes: the same keys, in the same order, with the same values', () => {
    fc.assert(
      fc.property(record, record, (base, fields) => {
        const made = withFields(base, fields);
        const spread = { ...base, ...fields };
        expect(Object.keys(made)).toEqual(Object.keys(spread));
        expect(made).toEqual(spread);
      }),
    );
  });

  it('leaves both of its arguments as they were', () => {
    fc.assert(
      fc.property(record, record, (base, fields) => {
        const before = [structuredClone(base), structuredClone(fields)];
        withFields(base, fields);
        expect([base, fields]).toEqual(before);
      }),
    );
  });

  it('replaces a key of the base where it stands, and adds new keys after the others', () => {
    const made = withFields({ a: 1, b: 2, c: 3 }, { b: 20, d: 4 });
    expect(Object.entries(made)).toEqual([
      ['a', 1],
      ['b', 20],
      ['c', 3],
      ['d', 4],
    ]);
  });
});
