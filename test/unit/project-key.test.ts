import { describe, expect, it } from 'vitest';
import { deriveProjectKey, firstFreeKey } from '../../src/core/families/projects/key.js';

describe('project keys', () => {
  it('takes the first three letters of a one-word name', () => {
    expect(deriveProjectKey('Apollo')).toBe('APO');
  });

  it('takes the initials of a several-word name', () => {
    expect(deriveProjectKey('Mobile app redesign')).toBe('MAR');
  });

  it('always gives a valid key, even for names without letters', () => {
    for (const name of ['1', '!!', 'A', 'é', '42 things', 'x'.repeat(300)]) {
      expect(deriveProjectKey(name)).toMatch(/^[A-Z][A-Z0-9]{1,9}$/);
    }
  });

  it('appends a number until the key is free', async () => {
    const taken = new Set(['APO', 'APO2']);
    expect(await firstFreeKey('APO', async (k) => taken.has(k))).toBe('APO3');
  });
});
