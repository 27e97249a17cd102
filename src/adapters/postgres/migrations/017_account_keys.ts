/**
 * Migration 17: the schema distributes by account (see distribution.ts and docs/scaling.md).
 *
 * Every tenant table this migration owns gets `account_id` (workspaces had it), backfilled from
 * its workspace's account, and each primary key and unique constraint of a tenant table includes
 * it, under the constraint names the adapter maps to UniqueViolation. A row whose workspace does
 * not exist (only the storage port's own tests write such rows) gets the account '', where the
 * adapter files every workspace that has no route.
 *
 * Two reference tables resolve what a request knows before it knows the account:
 * - `workspace_routes`: workspace id → account, and the slug, unique over all accounts (the
 *   constraint keeps the name `workspaces_slug`, which moves here from `workspaces`);
 * - `token_routes`: the hash of every token issued before tokens carried their account → its
 *   account. Tokens issued from now on carry the account in their visible part and get no row.
 *
 * `tenant_locks` holds rows of an account that stand in for the predicate locks, which were
 * advisory locks (they hold on one node only): a write transaction holds the row of (table,
 * workspace) FOR SHARE to insert there and FOR UPDATE to count there (collections.ts). Rows are
 * made on first use.
 *
 * `counters` get the workspace they count for (the only counters are `issues:<project id>`) and
 * are keyed (account_id, name). The issue_labels trigger writes the issue's account.
 *
 * Signals, webhooks, deliveries, delivery attempts, storage time shares and the account's last
 * sequence are migration 18's.
 * Frozen once released: every statement is written out here, not derived from the code.
 */
export const accountKeys = `
ALTER TABLE accounts DROP CONSTRAINT accounts_pk_key;
ALTER TABLE accounts ADD CONSTRAINT accounts_pk_key UNIQUE (id, pk);

CREATE TABLE workspace_routes (
  workspace_id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL,
  slug text COLLATE "C" NOT NULL
);
INSERT INTO workspace_routes (workspace_id, account_id, slug) SELECT id, account_id, slug FROM workspaces;
ALTER TABLE workspaces DROP CONSTRAINT workspaces_slug;
ALTER TABLE workspace_routes ADD CONSTRAINT workspaces_slug UNIQUE (slug);
ALTER TABLE workspaces DROP CONSTRAINT workspaces_pkey;
ALTER TABLE workspaces ADD CONSTRAINT workspaces_pkey PRIMARY KEY (account_id, id);
ALTER TABLE workspaces DROP CONSTRAINT workspaces_pk_key;
ALTER TABLE workspaces ADD CONSTRAINT workspaces_pk_key UNIQUE (account_id, pk);

ALTER TABLE memberships ADD COLUMN account_id text COLLATE "C";
UPDATE memberships t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE memberships ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE memberships DROP CONSTRAINT memberships_pkey;
ALTER TABLE memberships ADD CONSTRAINT memberships_pkey PRIMARY KEY (account_id, workspace_id, user_id);
ALTER TABLE memberships DROP CONSTRAINT memberships_pk_key;
ALTER TABLE memberships ADD CONSTRAINT memberships_pk_key UNIQUE (account_id, pk);

ALTER TABLE tokens ADD COLUMN account_id text COLLATE "C";
UPDATE tokens t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE tokens ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE tokens DROP CONSTRAINT tokens_pkey;
ALTER TABLE tokens ADD CONSTRAINT tokens_pkey PRIMARY KEY (account_id, id);
ALTER TABLE tokens DROP CONSTRAINT tokens_pk_key;
ALTER TABLE tokens ADD CONSTRAINT tokens_pk_key UNIQUE (account_id, pk);
ALTER TABLE tokens DROP CONSTRAINT tokens_hash;
ALTER TABLE tokens ADD CONSTRAINT tokens_hash UNIQUE (account_id, hash);
CREATE TABLE token_routes (
  hash text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL
);
INSERT INTO token_routes (hash, account_id) SELECT hash, account_id FROM tokens;

ALTER TABLE projects ADD COLUMN account_id text COLLATE "C";
UPDATE projects t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE projects ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE projects DROP CONSTRAINT projects_pkey;
ALTER TABLE projects ADD CONSTRAINT projects_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE projects DROP CONSTRAINT projects_id;
ALTER TABLE projects ADD CONSTRAINT projects_id UNIQUE (account_id, id);
ALTER TABLE projects DROP CONSTRAINT projects_key;
ALTER TABLE projects ADD CONSTRAINT projects_key UNIQUE (account_id, workspace_id, key);

ALTER TABLE issues ADD COLUMN account_id text COLLATE "C";
UPDATE issues t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE issues ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE issues DROP CONSTRAINT issues_pkey;
ALTER TABLE issues ADD CONSTRAINT issues_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE issues DROP CONSTRAINT issues_id;
ALTER TABLE issues ADD CONSTRAINT issues_id UNIQUE (account_id, id);
ALTER TABLE issues DROP CONSTRAINT issues_number;
ALTER TABLE issues ADD CONSTRAINT issues_number UNIQUE (account_id, workspace_id, project_id, number);

ALTER TABLE outcomes ADD COLUMN account_id text COLLATE "C";
UPDATE outcomes t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE outcomes ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE outcomes DROP CONSTRAINT outcomes_pkey;
ALTER TABLE outcomes ADD CONSTRAINT outcomes_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE outcomes DROP CONSTRAINT outcomes_id;
ALTER TABLE outcomes ADD CONSTRAINT outcomes_id UNIQUE (account_id, id);

ALTER TABLE context_items ADD COLUMN account_id text COLLATE "C";
UPDATE context_items t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE context_items ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE context_items DROP CONSTRAINT context_items_pkey;
ALTER TABLE context_items ADD CONSTRAINT context_items_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE context_items DROP CONSTRAINT context_items_id;
ALTER TABLE context_items ADD CONSTRAINT context_items_id UNIQUE (account_id, id);

ALTER TABLE decisions ADD COLUMN account_id text COLLATE "C";
UPDATE decisions t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE decisions ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE decisions DROP CONSTRAINT decisions_pkey;
ALTER TABLE decisions ADD CONSTRAINT decisions_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE decisions DROP CONSTRAINT decisions_id;
ALTER TABLE decisions ADD CONSTRAINT decisions_id UNIQUE (account_id, id);

ALTER TABLE time_entries ADD COLUMN account_id text COLLATE "C";
UPDATE time_entries t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE time_entries ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE time_entries DROP CONSTRAINT time_entries_pkey;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE time_entries DROP CONSTRAINT time_entries_id;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_id UNIQUE (account_id, id);

ALTER TABLE comments ADD COLUMN account_id text COLLATE "C";
UPDATE comments t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE comments ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE comments DROP CONSTRAINT comments_pkey;
ALTER TABLE comments ADD CONSTRAINT comments_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE comments DROP CONSTRAINT comments_id;
ALTER TABLE comments ADD CONSTRAINT comments_id UNIQUE (account_id, id);

ALTER TABLE issue_relations ADD COLUMN account_id text COLLATE "C";
UPDATE issue_relations t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE issue_relations ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE issue_relations DROP CONSTRAINT issue_relations_pkey;
ALTER TABLE issue_relations ADD CONSTRAINT issue_relations_pkey PRIMARY KEY (account_id, pk);
ALTER TABLE issue_relations DROP CONSTRAINT issue_relations_id;
ALTER TABLE issue_relations ADD CONSTRAINT issue_relations_id UNIQUE (account_id, id);

ALTER TABLE issue_labels ADD COLUMN account_id text COLLATE "C";
UPDATE issue_labels t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE issue_labels ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE issue_labels DROP CONSTRAINT issue_labels_pkey;
ALTER TABLE issue_labels ADD CONSTRAINT issue_labels_pkey PRIMARY KEY (account_id, workspace_id, label, issue_pk);
CREATE OR REPLACE FUNCTION issue_labels_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM issue_labels WHERE account_id = OLD.account_id AND workspace_id = OLD.workspace_id
      AND issue_pk = OLD.pk AND label IN (SELECT issue_labels_of(OLD.data));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO issue_labels (account_id, workspace_id, label, issue_pk)
      SELECT NEW.account_id, NEW.workspace_id, label, NEW.pk FROM issue_labels_of(NEW.data) AS labels(label)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

ALTER TABLE idempotency_keys ADD COLUMN account_id text COLLATE "C";
UPDATE idempotency_keys t SET account_id = coalesce((SELECT w.account_id FROM workspaces w WHERE w.id = t.workspace_id), '');
ALTER TABLE idempotency_keys ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (account_id, workspace_id, key);
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pk_key;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pk_key UNIQUE (account_id, pk);

CREATE TABLE tenant_locks (
  account_id text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  PRIMARY KEY (account_id, name)
);

ALTER TABLE counters ADD COLUMN workspace_id text COLLATE "C";
ALTER TABLE counters ADD COLUMN account_id text COLLATE "C";
UPDATE counters t SET workspace_id = p.workspace_id, account_id = p.account_id
  FROM projects p WHERE t.name = 'issues:' || p.id;
UPDATE counters SET workspace_id = '' WHERE workspace_id IS NULL;
UPDATE counters SET account_id = '' WHERE account_id IS NULL;
ALTER TABLE counters ALTER COLUMN workspace_id SET NOT NULL;
ALTER TABLE counters ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE counters DROP CONSTRAINT counters_pkey;
ALTER TABLE counters ADD CONSTRAINT counters_pkey PRIMARY KEY (account_id, name);
ALTER TABLE counters DROP CONSTRAINT counters_pk_key;
ALTER TABLE counters ADD CONSTRAINT counters_pk_key UNIQUE (account_id, pk);
`;
