/**
 * Saved views, a workspace's named queries (`/views`): a tenant table, the account leading its
 * keys as migration 17 made every collection's (distribution.ts). A view is filtered by its
 * `resource` only; lists walk it newest first, by its resource, or by update time (`sort=`, as
 * migration 15 made for the other tables). Text columns compare in byte order ("C"), as every
 * ordered column here does.
 * Frozen once released: the table and columns are listed here, not derived from the code.
 */

const text = 'text COLLATE "C"';

export const savedViews = `
CREATE TABLE views (
  pk bigint GENERATED ALWAYS AS IDENTITY,
  account_id ${text} NOT NULL,
  id ${text} NOT NULL,
  workspace_id ${text} NOT NULL,
  created_at ${text} NOT NULL,
  updated_at ${text} NOT NULL,
  version integer NOT NULL,
  resource ${text} NOT NULL,
  data text NOT NULL,
  CONSTRAINT views_pkey PRIMARY KEY (account_id, pk),
  CONSTRAINT views_id UNIQUE (account_id, id)
);
CREATE INDEX views_recent ON views (workspace_id, created_at, id);
CREATE INDEX views_by_resource ON views (workspace_id, resource, created_at, id);
CREATE INDEX views_sorted_updated ON views (workspace_id, updated_at, id);
`;
