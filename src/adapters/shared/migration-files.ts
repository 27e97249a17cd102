import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One schema step, as a migration file gives it. */
export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
}

/** `024_saved_views.ts` (or `.js` once built): the version, then the name with underscores for spaces. */
const migrationFile = /^(\d{3})_([a-z0-9_]+)\.(?:ts|js)$/;

/**
 * Every migration of one adapter's migrations folder, read from the files themselves in the
 * order of their numbers: a family's new migration (`npm run new-family` writes one per SQL
 * adapter) applies without a line in a hand-kept list. A file is `NNN_name_in_words.ts` and
 * exports its SQL as its one string (other exports, such as the columns a migration counts, are
 * not strings). The numbers must run 1, 2, 3… without a gap or a repeat: a missing or doubled
 * file is refused here rather than applied out of order.
 */
export async function migrationsIn(folder: URL): Promise<MigrationFile[]> {
  const files = readdirSync(fileURLToPath(folder))
    .flatMap((file) => {
      const match = migrationFile.exec(file);
      return match ? [{ file, version: Number(match[1]), name: (match[2] ?? '').replaceAll('_', ' ') }] : [];
    })
    .sort((a, b) => a.version - b.version);
  return Promise.all(
    files.map(async ({ file, version, name }, index) => {
      if (version !== index + 1) throw new Error(`migration ${file} is not number ${index + 1}`);
      const exported = Object.values(await import(new URL(file, folder).href));
      const sql = exported.filter((value): value is string => typeof value === 'string');
      if (sql.length !== 1) throw new Error(`migration ${file} must export its SQL as its one string`);
      return { version, name, sql: sql[0] ?? '' };
    }),
  );
}
