/** A command line that does not fit the command: printed with its usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on: printed as one line, exit code 1. */
export class CliError extends Error {
  override name = 'CliError';
}
