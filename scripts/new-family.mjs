#!/usr/bin/env node
// `npm run new-family -- <name>`: scaffolds a working resource family. It writes the family's
// folder (src/core/families/<name>/), its tests (test/families/<name>/), one migration per SQL
// adapter, and its line in the resource family list (src/core/families/resources.ts); everything
// else (routes, OpenAPI, events, collections, PostgreSQL distribution, dump and export) derives
// from that list. Exits 2, writing nothing, for a name that is not a lowercase plural noun or that
// a family already has.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coreFiles } from './new-family/core-files.mjs';
import { migrationFileName, postgresMigration, sqliteMigration } from './new-family/migrations.mjs';
import { nameProblem, namesOf } from './new-family/names.mjs';
import { testFiles } from './new-family/test-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => join(root, ...parts);

function refuse(message) {
  process.stderr.write(`new-family: ${message}\n`);
  process.exit(2);
}

const name = process.argv[2];
const problem = nameProblem(name);
if (problem) refuse(problem);
const n = namesOf(name);

const familyDir = at('src/core/families', n.kebab);
const testDir = at('test/families', n.kebab);
const listFile = at('src/core/families/resources.ts');
const migrationDirs = {
  sqlite: at('src/adapters/sqlite/migrations'),
  postgres: at('src/adapters/postgres/migrations'),
};

/** Every source file of the families, read once: what a new family's names must not collide with. */
const familySources = readdirSync(at('src/core/families'), { recursive: true })
  .filter((file) => String(file).endsWith('.ts'))
  .map((file) => readFileSync(at('src/core/families', String(file)), 'utf8'))
  .join('\n');
const migrationSources = Object.values(migrationDirs)
  .flatMap((dir) => readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')))
  .join('\n');

if (existsSync(familyDir)) refuse(`there is a family "${n.kebab}" already (src/core/families/${n.kebab}/)`);
if (existsSync(testDir)) refuse(`test/families/${n.kebab}/ exists already`);
if (new RegExp(`\\bname: '${n.collection}'`).test(familySources))
  refuse(`a family stores a collection "${n.collection}" already`);
if (new RegExp(`\\b${n.resourceType}\\.created\\b`).test(familySources))
  refuse(`a family announces ${n.resourceType}.created already`);
const runtime = readFileSync(at('src/core/runtime.ts'), 'utf8');
if (new RegExp(`^\\s+${n.idPrefix}: true;`, 'm').test(runtime + familySources))
  refuse(`the id prefix ${n.idPrefix}_ is taken`);
if (new RegExp(`CREATE TABLE ${n.table}\\b`).test(migrationSources))
  refuse(`a migration makes a table ${n.table} already`);

const written = [];
function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  written.push(relative(root, path));
}

for (const [file, text] of Object.entries(coreFiles(n))) write(join(familyDir, file), text);
for (const [file, text] of Object.entries(testFiles(n))) write(join(testDir, file), text);

/** The number after the folder's last `NNN_*.ts` migration. */
const nextVersion = (dir) =>
  Math.max(0, ...readdirSync(dir).flatMap((file) => /^(\d{3})_/.exec(file)?.slice(1).map(Number) ?? [])) + 1;
const sqliteVersion = nextVersion(migrationDirs.sqlite);
const postgresVersion = nextVersion(migrationDirs.postgres);
write(join(migrationDirs.sqlite, migrationFileName(n, sqliteVersion)), sqliteMigration(n, sqliteVersion));
write(
  join(migrationDirs.postgres, migrationFileName(n, postgresVersion)),
  postgresMigration(n, postgresVersion),
);

// Each adapter's migration list names the new migration: its import and its line. The lists are
// static imports, which a bundler follows (Next.js bundles the package), not a folder read at run
// time (test/migrations/lists.test.ts holds them to the folders).
for (const [dir, version] of [
  [migrationDirs.sqlite, sqliteVersion],
  [migrationDirs.postgres, postgresVersion],
]) {
  const indexFile = join(dir, 'index.ts');
  const index = readFileSync(indexFile, 'utf8');
  const close = index.indexOf('\n];\n', index.indexOf('export const migrations'));
  const lastImport = index.lastIndexOf('\nimport ');
  if (close < 0 || lastImport < 0) refuse(`${relative(root, indexFile)} has no migration list to add to`);
  const importEnd = index.indexOf('\n', lastImport + 1) + 1;
  const file = migrationFileName(n, version).replace(/\.ts$/, '.js');
  const entry = `  { version: ${version}, name: '${n.table.replaceAll('_', ' ')}', sql: ${n.value}Table },`;
  writeFileSync(
    indexFile,
    index.slice(0, importEnd) +
      `import { ${n.value}Table } from './${file}';\n` +
      index.slice(importEnd, close) +
      `\n${entry}` +
      index.slice(close),
  );
  written.push(relative(root, indexFile));
}

// The family's line (and its import) at the end of the resource family list.
const list = readFileSync(listFile, 'utf8');
const end = list.lastIndexOf('] as const;');
if (end < 0) refuse('src/core/families/resources.ts has no `] as const;` to add the family before');
const imported = `import { ${n.collection}Family } from './${n.kebab}/family.js';\n`;
writeFileSync(listFile, `${imported}${list.slice(0, end)}  ${n.collection}Family,\n${list.slice(end)}`);
written.push(relative(root, listFile));

// In the repository's format (imports sorted, long lines wrapped), as `npm run lint` wants it.
const biome = spawnSync(join(root, 'node_modules/.bin/biome'), ['check', '--write', ...written], {
  cwd: root,
  encoding: 'utf8',
});
if (biome.status !== 0) process.stderr.write(biome.stdout + biome.stderr);

process.stdout.write(
  `The ${n.plural} family: /api/v1/${n.kebab} with its store, events and migrations.\n` +
    written.map((file) => `  ${file}\n`).join('') +
    `Next: npm run build, then npx vitest run test/families/${n.kebab}/; npm run gen:client and npm run gen:mcp-docs bring the generated client types and docs/mcp.md up to date.\n`,
);
