import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../../src/admin/next-path.js';

describe('the sign-in return path', () => {
  it.each([
    '//evil.test',
    '//evil.test/acme/admin/api-tokens',
    'https://evil.test',
    'http:/evil.test',
    '/\\evil.test',
    '\\/evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    'javascript:alert(1)',
    'acme/admin/api-tokens',
    '',
  ])('refuses %j', (next) => {
    expect(safeNextPath(next)).toBeNull();
  });

  it('keeps a same-site path and its query', () => {
    expect(safeNextPath('/acme/admin/api-tokens?revoked=tok_1')).toBe('/acme/admin/api-tokens?revoked=tok_1');
  });

  it('never returns anything that a browser would resolve to another origin', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (tail) => {
        for (const next of [tail, `/${tail}`, `//${tail}`]) {
          const safe = safeNextPath(next);
          if (safe === null) continue;
          expect(new URL(safe, 'https://tracker.test').origin).toBe('https://tracker.test');
          expect(safe.startsWith('//')).toBe(false);
        }
      }),
    );
  });
});
