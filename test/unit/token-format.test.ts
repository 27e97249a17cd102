import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTokenText, routeOf, tokenAccount, tokenPattern } from '../../src/core/tenancy/token-format.js';

describe('the API token format', () => {
  it('names the account it was issued for, whatever the id, and has the shape clients see', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.stringMatching(/^acct_[0-9A-Za-z]{1,20}$/),
          fc.string({ minLength: 1, maxLength: 30 }),
          fc.constant('acct_x1'),
        ),
        (accountId) => {
          const token = newTokenText(accountId);
          expect(token).toMatch(tokenPattern);
          expect(token).toMatch(/^cn_[0-9A-Za-z]+_[0-9A-Za-z]{40}$/);
          expect(tokenAccount(token)).toBe(accountId);
        },
      ),
    );
  });

  it('spells an acct_ id by its body, and any other id (or a body that begins with x) in hex', () => {
    expect(routeOf('acct_0ABCdef')).toBe('0ABCdef');
    expect(routeOf('acct_xyz')).toBe(`x${Buffer.from('acct_xyz').toString('hex')}`);
    expect(routeOf('acc_1')).toBe(`x${Buffer.from('acc_1').toString('hex')}`);
    expect(tokenAccount(`cn_0ABCdef_${'a'.repeat(40)}`)).toBe('acct_0ABCdef');
  });

  it('reads no account from a token issued before routes, nor from a route that spells none', () => {
    const old = `cn_${'A1b2'.repeat(10)}`;
    expect(old).toMatch(tokenPattern);
    expect(tokenAccount(old)).toBeNull();
    expect(tokenAccount(`cn_x0_${'a'.repeat(40)}`)).toBeNull();
    expect(tokenAccount(`cn_xff_${'a'.repeat(40)}`)).toBeNull();
    expect(`cn_a_b_${'c'.repeat(40)}`).not.toMatch(tokenPattern);
  });
});
