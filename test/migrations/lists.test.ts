import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations as postgresMigrations } from '../../src/adapters/postgres/migrations/index.js';
import { migrations as sqliteMigrations } from '../../src/adapters/sqlite/migrations/index.js';

/** `024_saved_views.ts`: the version, then the name with underscores for spaces. */
const migrationFile = /^(\d{3})_([a-z0-9_]+)\.ts$/;

/**
 * Each adapter lists its migrations with static imports, which a bundler (Next.js's among them)
 * follows; reading the folder at run time does not survive bundling. The lists are held to the
 * folders here: every `NNN_name.ts` file listed, under its number and name, with the SQL it
 * exports, numbered 1, 2, 3… without a gap.
 */
describe.each([
  ['sqlite', sqliteMigrations],
  ['postgres', postgresMigrations],
] as const)('the %s migrations list', (adapter, listed) => {
  const folder = new URL(`../../src/adapters/${adapter}/migrations/`, import.meta.url);
  const files = readdirSync(fileURLToPath(folder))
    .flatMap((file) => {
      const match = migrationFile.exec(file);
      return match ? [{ file, version: Number(match[1]), name: (match[2] ?? '').replaceAll('_', ' ') }] : [];
    })
    .sort((a, b) => a.version - b.version);

  it('names every migration file of its folder, in order, with no gap', () => {
    expect(files.map(({ version }) => version)).toEqual(files.map((_, i) => i + 1));
    expect(listed.map(({ version, name }) => ({ version, name }))).toEqual(
      files.map(({ version, name }) => ({ version, name })),
    );
  });

  it('takes each migration’s SQL from its file', async () => {
    for (const { file, version } of files) {
      const exported = Object.values(await import(new URL(file, folder).href));
      const sql = exported.filter((value): value is string => typeof value === 'string');
      expect(sql, file).toHaveLength(1);
      expect(listed.find((m) => m.version === version)?.sql, file).toBe(sql[0]);
    }
  });
});
