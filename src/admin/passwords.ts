import { hashPassword, randomSecret, type ScryptCost } from '../core/extension-kit.js';

/**
 * How the admin area hashes passwords: the scrypt cost of the hashes it makes (a sign-in rehashes
 * one made at a lower cost), and the hash an unknown email is checked against, so that it takes as
 * long as a known one.
 */
export interface AdminPasswords {
  readonly cost: ScryptCost;
  /** Hashed once, at `cost`, the first time an unknown email signs in. */
  dummyHash(): Promise<string>;
}

export function adminPasswords(cost: ScryptCost): AdminPasswords {
  let dummy: Promise<string> | null = null;
  return {
    cost,
    dummyHash: () => {
      dummy ??= hashPassword(randomSecret(), cost);
      return dummy;
    },
  };
}
