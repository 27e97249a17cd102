import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type UniqueKey, UniqueKeys } from '../../src/adapters/memory/unique-keys.js';

/** The memory adapter's unique keys against a plain map of whole keys spelled out. */
describe("the memory adapter's unique keys", () => {
  const key = fc.record({
    prefix: fc.constantFrom('wsp_1\u0000sprj_1', 'wsp_2\u0000sprj_1'),
    // Numbers and the strings that spell them are different values of a rule's field. Few of
    // each, so that sequences often release every key of a prefix.
    last: fc.constantFrom(1, 2, '1'),
  });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key, id: fc.constantFrom('a', 'b') }),
    fc.record({ kind: fc.constant('release' as const), key, id: fc.constantFrom('a', 'b') }),
  );
  const spelled = (k: UniqueKey) => JSON.stringify([k.prefix, typeof k.last, k.last]);

  it('hold what a map of whole keys holds, and forget a prefix once none of its keys is held', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(key, { minLength: 1, maxLength: 10 }),
        (ops, probes) => {
          const keys = new UniqueKeys();
          const model = new Map<string, { key: UniqueKey; id: string }>();
          for (const { kind, key: k, id } of ops) {
            if (kind === 'set') {
              keys.set(k, id);
              model.set(spelled(k), { key: k, id });
            } else {
              keys.release(k, id);
              if (model.get(spelled(k))?.id === id) model.delete(spelled(k));
            }
          }
          for (const k of probes) expect(keys.get(k)).toBe(model.get(spelled(k))?.id);
          expect(keys.prefixes).toBe(new Set([...model.values()].map((held) => held.key.prefix)).size);
        },
      ),
    );
  });
});
