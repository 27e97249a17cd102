// The migration a new family adds to each SQL adapter: its collection's table, as migration 23
// (SQLite) and 24 (PostgreSQL) made the saved views' one. The columns are the declaration's:
// those every collection has, one for each filter field, and the row's JSON (`data`). Once
// released a migration is frozen, so it lists them rather than deriving them from the code.
import { filters } from './shape.mjs';

/** `status` → `status`; `dueOn` → `due_on`: a field's column. */
const columnOf = (field) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** `NNN_<table>.ts`, numbered after the folder's last migration. */
export const migrationFileName = (n, version) => `${String(version).padStart(3, '0')}_${n.table}.ts`;

export function sqliteMigration(n, version) {
  const text = (column) => `  ${column} TEXT NOT NULL,`;
  return `/**
 * Migration ${version}: the ${n.plural} (\`/${n.kebab}\`).
 *
 * Lists walk the table newest first (\`${n.table}_recent\`), by each filter field, or by update
 * time (\`sort=updatedAt\`). The rows are counted in \`list_counts\` as every collection's are (the
 * adapter counts an insert, a trigger counts a delete).
 * Frozen once released: the table and columns are listed here, not derived from the code.
 */
export const ${n.value}Table = \`
CREATE TABLE ${n.table} (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
${filters.map((field) => text(columnOf(field))).join('\n')}
  data TEXT NOT NULL
) STRICT;
CREATE INDEX ${n.table}_recent ON ${n.table} (workspace_id, created_at, id);
${filters.map((field) => `CREATE INDEX ${n.table}_by_${columnOf(field)} ON ${n.table} (workspace_id, ${columnOf(field)}, created_at, id);`).join('\n')}
CREATE INDEX ${n.table}_sorted_updated ON ${n.table} (workspace_id, updated_at, id);
CREATE TRIGGER ${n.table}_count_delete AFTER DELETE ON ${n.table} BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ('${n.table}', old.workspace_id, '', ''));
END;
\`;
`;
}

export function postgresMigration(n, version) {
  return `/**
 * Migration ${version}: the ${n.plural} (\`/${n.kebab}\`), a tenant table, the account leading its keys as every
 * collection's (distribution.ts). Lists walk it newest first, by each filter field, or by update
 * time (\`sort=updatedAt\`). Text columns compare in byte order ("C"), as every ordered column here
 * does.
 * Frozen once released: the table and columns are listed here, not derived from the code.
 */

const text = 'text COLLATE "C"';

export const ${n.value}Table = \`
CREATE TABLE ${n.table} (
  pk bigint GENERATED ALWAYS AS IDENTITY,
  account_id \${text} NOT NULL,
  id \${text} NOT NULL,
  workspace_id \${text} NOT NULL,
  created_at \${text} NOT NULL,
  updated_at \${text} NOT NULL,
  version integer NOT NULL,
${filters.map((field) => `  ${columnOf(field)} \${text} NOT NULL,`).join('\n')}
  data text NOT NULL,
  CONSTRAINT ${n.table}_pkey PRIMARY KEY (account_id, pk),
  CONSTRAINT ${n.table}_id UNIQUE (account_id, id)
);
CREATE INDEX ${n.table}_recent ON ${n.table} (workspace_id, created_at, id);
${filters.map((field) => `CREATE INDEX ${n.table}_by_${columnOf(field)} ON ${n.table} (workspace_id, ${columnOf(field)}, created_at, id);`).join('\n')}
CREATE INDEX ${n.table}_sorted_updated ON ${n.table} (workspace_id, updated_at, id);
\`;
`;
}
