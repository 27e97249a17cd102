/**
 * Migration 1: the whole first schema. Frozen once released: later changes are new migrations.
 *
 * As in the SQLite adapter, collections keep the full record as JSON text in `data`, next to
 * real, indexed columns for what lists filter, bound and sum on. Every text column that is
 * compared or ordered uses the "C" collation: byte order, as SQLite and the memory adapter
 * compare strings, so keyset pages come out in the same order on every adapter. Searchable
 * collections keep `search_text`, the searched fields case-folded by the adapter (JavaScript's
 * toLowerCase, as the memory adapter folds), so a search is one substring test. Every table
 * has `pk`, an identity in insertion order: lists break ties by it and a copy reads in it.
 */

/** Ordered, byte-compared text. */
const text = 'text COLLATE "C"';

interface CollectionTable {
  table: string;
  /** Column name → SQL type, for the fields lists filter, bound or sum on. */
  columns: Record<string, string>;
  /** Columns that get a (workspace_id, column, created_at DESC, id DESC) index. */
  indexed: string[];
  searchable: boolean;
  /** Extra statements (unique rules). */
  extra?: string[];
}

function collectionTable({ table, columns, indexed, searchable, extra = [] }: CollectionTable): string {
  const columnSql = Object.entries(columns).map(([name, type]) => `  ${name} ${type},`);
  return [
    `CREATE TABLE ${table} (
  pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id ${text} NOT NULL CONSTRAINT ${table}_id UNIQUE,
  workspace_id ${text} NOT NULL,
  created_at ${text} NOT NULL,
  updated_at ${text} NOT NULL,
  version integer NOT NULL,
${columnSql.join('\n')}${searchable ? '\n  search_text text NOT NULL,' : ''}
  data text NOT NULL
);`,
    `CREATE INDEX ${table}_recent ON ${table} (workspace_id, created_at DESC, id DESC);`,
    ...indexed.map(
      (column) =>
        `CREATE INDEX ${table}_by_${column} ON ${table} (workspace_id, ${column}, created_at DESC, id DESC);`,
    ),
    ...extra,
  ].join('\n');
}

const tenancy = `
CREATE TABLE accounts (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  name text NOT NULL,
  created_at ${text} NOT NULL
);

CREATE TABLE workspaces (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  account_id ${text} NOT NULL,
  slug ${text} NOT NULL CONSTRAINT workspaces_slug UNIQUE,
  name text NOT NULL,
  created_at ${text} NOT NULL
);

-- email_key is the lower-cased email: emails are unique case-insensitively.
CREATE TABLE users (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  email text NOT NULL,
  email_key ${text} NOT NULL CONSTRAINT users_email_key UNIQUE,
  password_hash text,
  created_at ${text} NOT NULL
);

CREATE TABLE memberships (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  workspace_id ${text} NOT NULL,
  user_id ${text} NOT NULL,
  role ${text} NOT NULL,
  created_at ${text} NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

CREATE TABLE tokens (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  workspace_id ${text} NOT NULL,
  user_id ${text} NOT NULL,
  name text NOT NULL,
  scope ${text} NOT NULL,
  hash ${text} NOT NULL CONSTRAINT tokens_hash UNIQUE,
  last_four text NOT NULL,
  created_at ${text} NOT NULL,
  last_used_at ${text},
  revoked_at ${text}
);
CREATE INDEX tokens_recent ON tokens (workspace_id, created_at DESC, id DESC);

CREATE TABLE sessions (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id_hash ${text} PRIMARY KEY,
  user_id ${text} NOT NULL,
  csrf_token text NOT NULL,
  created_at ${text} NOT NULL,
  expires_at ${text} NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);
`;

const collections = [
  collectionTable({
    table: 'projects',
    columns: { key: `${text} NOT NULL` },
    indexed: [],
    searchable: true,
    extra: ['ALTER TABLE projects ADD CONSTRAINT projects_key UNIQUE (workspace_id, key);'],
  }),
  collectionTable({
    table: 'issues',
    columns: {
      project_id: `${text} NOT NULL`,
      outcome_id: text,
      status: `${text} NOT NULL`,
      severity: `${text} NOT NULL`,
      assignee_id: text,
      number: 'integer NOT NULL',
    },
    indexed: ['project_id', 'outcome_id', 'status', 'severity', 'assignee_id'],
    searchable: true,
    extra: ['ALTER TABLE issues ADD CONSTRAINT issues_number UNIQUE (workspace_id, project_id, number);'],
  }),
  collectionTable({
    table: 'outcomes',
    columns: { project_id: `${text} NOT NULL`, status: `${text} NOT NULL`, owner_id: text },
    indexed: ['project_id', 'status', 'owner_id'],
    searchable: true,
  }),
  collectionTable({
    table: 'context_items',
    columns: { outcome_id: `${text} NOT NULL`, kind: `${text} NOT NULL` },
    indexed: ['outcome_id', 'kind'],
    searchable: false,
  }),
  collectionTable({
    table: 'decisions',
    columns: {
      project_id: `${text} NOT NULL`,
      outcome_id: text,
      status: `${text} NOT NULL`,
      superseded_by: text,
    },
    indexed: ['project_id', 'outcome_id', 'status', 'superseded_by'],
    searchable: false,
  }),
  collectionTable({
    table: 'time_entries',
    columns: {
      outcome_id: `${text} NOT NULL`,
      issue_id: text,
      user_id: `${text} NOT NULL`,
      minutes: 'integer NOT NULL',
      date: `${text} NOT NULL`,
    },
    indexed: ['outcome_id', 'issue_id', 'user_id', 'date'],
    searchable: false,
  }),
];

const events = `
-- Sequences come from signal_sequence, taken under a per-account advisory lock held until
-- commit (see signals.ts): per account they increase in commit order.
CREATE SEQUENCE signal_sequence;
CREATE TABLE signals (
  sequence bigint PRIMARY KEY,
  id ${text} NOT NULL,
  account_id ${text} NOT NULL,
  type ${text} NOT NULL,
  resource_id ${text} NOT NULL,
  occurred_at ${text} NOT NULL,
  data text NOT NULL
);
CREATE INDEX signals_by_account ON signals (account_id, sequence);
CREATE INDEX signals_by_type ON signals (account_id, type, sequence);
CREATE INDEX signals_by_resource ON signals (account_id, resource_id, sequence);
CREATE INDEX signals_by_id ON signals (id);
CREATE INDEX signals_occurred ON signals (occurred_at);

-- The highest sequence a purge deleted: the latest sequence survives a purge of every event.
CREATE TABLE signal_purges (
  only_row boolean PRIMARY KEY DEFAULT TRUE CHECK (only_row),
  purged_through bigint NOT NULL
);
INSERT INTO signal_purges (purged_through) VALUES (0);

CREATE TABLE idempotency_keys (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  workspace_id ${text} NOT NULL,
  key ${text} NOT NULL,
  created_at ${text} NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (workspace_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE counters (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  name ${text} PRIMARY KEY,
  value bigint NOT NULL
);

CREATE TABLE webhooks (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  account_id ${text} NOT NULL,
  status ${text} NOT NULL,
  event_types text[] NOT NULL,
  created_at ${text} NOT NULL,
  version integer NOT NULL,
  data text NOT NULL
);
CREATE INDEX webhooks_recent ON webhooks (account_id, created_at DESC, id DESC);
CREATE INDEX webhooks_by_status ON webhooks (account_id, status, created_at DESC, id DESC);

CREATE TABLE deliveries (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  account_id ${text} NOT NULL,
  subscription_id ${text} NOT NULL,
  status ${text} NOT NULL,
  next_attempt_at ${text},
  created_at ${text} NOT NULL,
  data text NOT NULL
);
CREATE INDEX deliveries_by_subscription ON deliveries (subscription_id, created_at DESC, id DESC);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at, pk) WHERE status = 'pending';

-- Admission times per rate-limit key (see rate-limit-store.ts). UNLOGGED: a crash forgets
-- them, which only lets a client start a fresh window early.
CREATE UNLOGGED TABLE rate_limits (
  key ${text} PRIMARY KEY,
  hits bigint[] NOT NULL
);
`;

export const initialSchema = [tenancy, ...collections, events].join('\n');
