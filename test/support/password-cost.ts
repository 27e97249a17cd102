import { hashPassword, type ScryptCost } from '../../src/core/tenancy/password.js';

/**
 * The scrypt cost of the tests' admin pages and of the passwords the tests set: N=2^10, a few ms a
 * hash, where the production cost (N=2^17) takes close to a second of a core on this machine and
 * the suites sign in hundreds of times. test/admin/password-cost.test.ts runs at the production
 * cost, and a `serve` process the tests start always hashes at it.
 */
export const testPasswordCost: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/** A password hashed as the tests' admin pages hash it. */
export const hashTestPassword = (password: string): Promise<string> =>
  hashPassword(password, testPasswordCost);
