/**
 * Migration 1: the whole first schema. Frozen once released: later changes are new migrations.
 *
 * Collections keep the full record as JSON in `data`, next to real, indexed columns for what
 * lists filter, bound and sum on. Searchable collections get an FTS5 trigram table, kept in
 * sync by triggers, whose rowid is the collection row's `pk`.
 */

interface CollectionTable {
  table: string;
  /** Column name → SQL type, for the fields lists filter, bound or sum on. */
  columns: Record<string, string>;
  /** Columns that get a (workspace_id, column, created_at DESC, id DESC) index. */
  indexed: string[];
  /** JSON fields full-text search looks in. */
  search: string[];
  /** Extra statements (unique rules). */
  extra?: string[];
}

function collectionTable({ table, columns, indexed, search, extra = [] }: CollectionTable): string {
  const columnSql = Object.entries(columns).map(([name, type]) => `  ${name} ${type},`);
  const statements = [
    `CREATE TABLE ${table} (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
${columnSql.join('\n')}
  data TEXT NOT NULL
) STRICT;`,
    `CREATE INDEX ${table}_recent ON ${table} (workspace_id, created_at DESC, id DESC);`,
    ...indexed.map(
      (column) =>
        `CREATE INDEX ${table}_by_${column} ON ${table} (workspace_id, ${column}, created_at DESC, id DESC);`,
    ),
    ...extra,
  ];
  if (search.length > 0) {
    const fields = search.join(', ');
    const extracted = (row: 'new' | 'old') =>
      search.map((field) => `json_extract(${row}.data, '$.${field}')`).join(', ');
    const changed = search
      .map((field) => `json_extract(old.data, '$.${field}') IS NOT json_extract(new.data, '$.${field}')`)
      .join(' OR ');
    statements.push(
      `CREATE VIRTUAL TABLE ${table}_search USING fts5(${fields}, tokenize = 'trigram');`,
      `CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${table}_search (rowid, ${fields}) VALUES (new.pk, ${extracted('new')});
END;`,
      `CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
  DELETE FROM ${table}_search WHERE rowid = old.pk;
END;`,
      `CREATE TRIGGER ${table}_search_update AFTER UPDATE OF data ON ${table} WHEN ${changed} BEGIN
  DELETE FROM ${table}_search WHERE rowid = old.pk;
  INSERT INTO ${table}_search (rowid, ${fields}) VALUES (new.pk, ${extracted('new')});
END;`,
    );
  }
  return statements.join('\n');
}

const tenancy = `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

-- email_key is the lower-cased email: emails are unique case-insensitively.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  email_key TEXT NOT NULL UNIQUE,
  password_hash TEXT,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE memberships (
  workspace_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  role TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
) STRICT;

CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  scope TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  last_four TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
) STRICT;
CREATE INDEX tokens_recent ON tokens (workspace_id, created_at DESC, id DESC);

CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX sessions_expiry ON sessions (expires_at);
`;

const collections = [
  collectionTable({
    table: 'projects',
    columns: { key: 'TEXT NOT NULL' },
    indexed: [],
    search: ['name', 'description'],
    extra: ['CREATE UNIQUE INDEX projects_key ON projects (workspace_id, key);'],
  }),
  collectionTable({
    table: 'issues',
    columns: {
      project_id: 'TEXT NOT NULL',
      outcome_id: 'TEXT',
      status: 'TEXT NOT NULL',
      severity: 'TEXT NOT NULL',
      assignee_id: 'TEXT',
      number: 'INTEGER NOT NULL',
    },
    indexed: ['outcome_id', 'status', 'severity', 'assignee_id'],
    search: ['title', 'description'],
    // Also serves the project_id filter.
    extra: [
      'CREATE UNIQUE INDEX issues_number ON issues (workspace_id, project_id, number);',
      'CREATE INDEX issues_by_project_id ON issues (workspace_id, project_id, created_at DESC, id DESC);',
    ],
  }),
  collectionTable({
    table: 'outcomes',
    columns: { project_id: 'TEXT NOT NULL', status: 'TEXT NOT NULL', owner_id: 'TEXT' },
    indexed: ['project_id', 'status', 'owner_id'],
    search: ['title', 'description'],
  }),
  collectionTable({
    table: 'context_items',
    columns: { outcome_id: 'TEXT NOT NULL', kind: 'TEXT NOT NULL' },
    indexed: ['outcome_id', 'kind'],
    search: [],
  }),
  collectionTable({
    table: 'decisions',
    columns: {
      project_id: 'TEXT NOT NULL',
      outcome_id: 'TEXT',
      status: 'TEXT NOT NULL',
      superseded_by: 'TEXT',
    },
    indexed: ['project_id', 'outcome_id', 'status', 'superseded_by'],
    search: [],
  }),
  collectionTable({
    table: 'time_entries',
    columns: {
      outcome_id: 'TEXT NOT NULL',
      issue_id: 'TEXT',
      user_id: 'TEXT NOT NULL',
      minutes: 'INTEGER NOT NULL',
      date: 'TEXT NOT NULL',
    },
    indexed: ['outcome_id', 'issue_id', 'user_id', 'date'],
    search: [],
  }),
];

const events = `
-- AUTOINCREMENT: a sequence is never handed out twice once committed, even after a purge.
CREATE TABLE signals (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX signals_by_account ON signals (account_id, sequence);
CREATE INDEX signals_by_type ON signals (account_id, type, sequence);
CREATE INDEX signals_by_resource ON signals (account_id, resource_id, sequence);
CREATE INDEX signals_by_id ON signals (id);
CREATE INDEX signals_occurred ON signals (occurred_at);

CREATE TABLE idempotency_keys (
  workspace_id TEXT NOT NULL,
  key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (workspace_id, key)
) STRICT;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX webhooks_recent ON webhooks (account_id, created_at DESC, id DESC);
CREATE INDEX webhooks_by_status ON webhooks (account_id, status, created_at DESC, id DESC);

CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  status TEXT NOT NULL,
  next_attempt_at TEXT,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX deliveries_by_subscription ON deliveries (subscription_id, created_at DESC, id DESC);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
`;

export const initialSchema = [tenancy, ...collections, events].join('\n');
