/** Whether a `--db` value names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);

/**
 * Why a database target is refused, or null. Anything but a postgres:// URL is a SQLite file,
 * so `mysql://root@host/x` or a misspelt `postgress://…` would quietly become the folders
 * `mysql:/root@host/` and a fresh database in them: a value shaped like a URL must be one we know.
 */
export function unknownSchemeProblem(target: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1];
  if (scheme === undefined || isPostgresUrl(target)) return null;
  return `unknown database scheme "${scheme}://": the known ones are postgres:// and postgresql://; anything else is a SQLite file path`;
}
