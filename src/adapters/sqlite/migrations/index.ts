import { type MigrationFile, migrationsIn } from '../../shared/migration-files.js';

/** One schema step. `version` is what `PRAGMA user_version` holds once it is applied. */
export type Migration = MigrationFile;

/**
 * Every migration, in the order they apply: the files of this folder, `NNN_name.ts` each, read by
 * their numbers (migration-files.ts), so a new one needs no line here. Append only: never edit a
 * released one.
 */
export const migrations: readonly Migration[] = await migrationsIn(new URL('./', import.meta.url));

/** The schema version this code knows. */
export const latestVersion = migrations.at(-1)?.version ?? 0;
