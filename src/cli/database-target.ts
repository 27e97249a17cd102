import { fileURLToPath } from 'node:url';

/** Whether a `--db` value names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);

const fileUrl = /^file:/i;

/**
 * Why a database target is refused, or null. Anything but a postgres:// URL is a SQLite file,
 * so `mysql://root@host/x` or a misspelt `postgress://…` would quietly become the folders
 * `mysql:/root@host/` and a fresh database in them: a value shaped like a URL must be one we know.
 * A `file:` URL is a file's path (see sqlitePathOf), unless it carries what a path cannot.
 */
export function unknownSchemeProblem(target: string): string | null {
  if (fileUrl.test(target)) return fileUrlProblem(target);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1];
  if (scheme === undefined || isPostgresUrl(target)) return null;
  return `unknown database scheme "${scheme}://": the known ones are postgres:// and postgresql://; anything else is a SQLite file path`;
}

/**
 * `file:` URLs (`file:///srv/x.db`, or SQLite's relative `file:./x.db`) are read as the path they
 * name; before this, `file:./x.db` made a folder named `file:.`. SQLite's query parameters
 * (`?mode=ro`) and a host other than this one are refused rather than dropped or made into names.
 */
function fileUrlProblem(target: string): string | null {
  if (/[?#]/.test(target))
    return `"${target}": a file: URL with a query or fragment is not supported; give the file's path`;
  try {
    sqlitePathOf(target);
    return null;
  } catch (error) {
    return `"${target}": ${(error as Error).message}`;
  }
}

/** The SQLite file a target names: a `file:` URL's path, anything else as given. */
export function sqlitePathOf(target: string): string {
  if (!fileUrl.test(target)) return target;
  const rest = target.slice('file:'.length);
  // file://host/path is a URL with a host (only "" and localhost are this machine): Node's own rule.
  if (rest.startsWith('//')) return fileURLToPath(target);
  const path = decodeURIComponent(rest);
  if (path === '') throw new Error('a file: URL must name a file');
  return path;
}
