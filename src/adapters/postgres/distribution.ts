/**
 * Which PostgreSQL table is which when the schema is distributed by account (Citus), in one place.
 *
 * Citus spreads a distributed table's rows over shards by one column and sends a statement to one
 * shard only when the statement names that column's value. Everything a request does happens inside
 * one account, so the account is the distribution column: every tenant table carries `account_id`,
 * includes it in each primary key and unique constraint, and every statement sent for a request
 * filters by it (or inserts it). Colocating the tenant tables with `accounts` puts all the rows of
 * one account on the same node, so joins and transactions within an account stay local.
 *
 * The three kinds, and the Citus command each maps to (docs/scaling.md lists them in order):
 *
 * - `tenant`: distributed by the account, colocated with `accounts`:
 *   `SELECT create_distributed_table('<table>', '<column>', colocate_with => 'accounts')`
 *   (`accounts` itself: `create_distributed_table('accounts', 'id')`, the group the others join).
 * - `reference`: small, rarely written tables every node needs whatever account a request is for
 *   (users and sessions are shared by accounts; the routes resolve a workspace, an old token or a due
 *   delivery to its account before the account is known): `SELECT create_reference_table('<table>')`.
 * - `own-key`: high-churn tables keyed by something that is not an account (a rate-limit key may be
 *   an address): distributed by that key, not with the accounts (the first starts its own group,
 *   `colocate_with => 'none'`; the other joins it):
 *   `SELECT create_distributed_table('<table>', '<column>', colocate_with => 'none')`. Every statement
 *   on them names the key (`key = $n`).
 *
 * `signal_purges` (one global row holding the highest purged sequence) is not listed: with per-account
 * sequences the latest sequence lives in the account's row (`accounts.last_sequence`), so the
 * migration to this schema (18) drops it. `tenant_locks` holds rows of an account that stand in for
 * the advisory locks a request used to take (they would hold on one node only).
 *
 * The distribution check (test/support/distribution-check.ts, run over the PostgreSQL suites by
 * statement-recorder.ts) reads this table to decide what each statement must filter by; a new
 * table must be listed here or the check refuses statements on it. docs/scaling.md's commands are
 * checked against it (test/postgres/distribution-docs.test.ts).
 */

import { collectionTables } from '../../core/families/collections.js';

export type TableKind =
  | { kind: 'tenant'; column: string }
  | { kind: 'reference' }
  | { kind: 'own-key'; column: string };

const tenant: TableKind = { kind: 'tenant', column: 'account_id' };
const reference: TableKind = { kind: 'reference' };
const ownKey: TableKind = { kind: 'own-key', column: 'key' };

const listed: Readonly<Record<string, TableKind>> = {
  // Tenant tables: one account's rows, all on the account's node.
  accounts: { kind: 'tenant', column: 'id' },
  workspaces: tenant,
  memberships: tenant,
  tokens: tenant,
  projects: tenant,
  issues: tenant,
  outcomes: tenant,
  context_items: tenant,
  decisions: tenant,
  time_entries: tenant,
  comments: tenant,
  issue_relations: tenant,
  issue_labels: tenant,
  outcome_issue_counts: tenant, // an outcome's live issues by status and severity (migration 29)
  issue_list_counts: tenant, // the totals of issue lists by project, status and severity (migration 30)
  views: tenant, // saved views (migration 24)
  idempotency_keys: tenant,
  counters: tenant,
  tenant_locks: tenant, // rows standing in for the predicate locks (migration 17)
  signals: tenant,
  webhooks: tenant,
  deliveries: tenant,
  delivery_attempts: tenant,
  storage_time_shares: tenant,
  watchers: tenant,
  watched_events: tenant, // notifying signals filed under their issue or outcome (migration 21)
  notification_reads: tenant,

  // Reference tables: copied to every node, read without routing.
  users: reference, // a user may belong to workspaces of several accounts
  sessions: reference, // a session is a user's, found by its hash before any account is known
  schema_migrations: reference, // the operator's record of the schema, written only by migrations
  workspace_routes: reference, // workspace id or slug → account; holds slug uniqueness across accounts
  token_routes: reference, // hash → account, only for tokens issued before tokens carried their route
  due_accounts: reference, // accounts with a claimable delivery: where the dispatcher looks first

  // Distributed by their own key: per-key counters written on every request, not an account's.
  rate_limits: ownKey,
  rate_limit_runs: ownKey,
};

/**
 * Every table's kind: those listed above, then the table of each family's collection not listed
 * there. A collection's rows are a workspace's, so its table is a tenant table; a family added
 * later is distributed without an edit here (its migration keys the table by account as above).
 */
export const tableKinds: Readonly<Record<string, TableKind>> = Object.freeze({
  ...listed,
  ...Object.fromEntries(
    Object.values(collectionTables)
      .filter((table) => !(table in listed))
      .map((table) => [table, tenant]),
  ),
});
