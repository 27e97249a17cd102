import { hashPassword, minPasswordLength } from '../core/tenancy/password.js';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';

/** Reads a password from the first line of stdin, refuses a short one, and returns its hash. */
export async function readPasswordHash(io: CliIo): Promise<string> {
  const password = await io.readStdinLine('Password: ');
  if (password.length < minPasswordLength) {
    throw new CliError(
      `the password read from stdin is ${password.length} characters long; at least ${minPasswordLength} are needed`,
    );
  }
  return hashPassword(password);
}
