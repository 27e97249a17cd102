/**
 * An issue keeps where it was imported from (`external`: its tracker and its id there). Lists
 * filter on both (`externalSource`, `externalId`), and a workspace holds one issue a (source, id):
 * a unique index of the issues that have one (few: the imported ones), led by the account as every
 * unique rule of a tenant table is, which is also the index a filter by external id reads.
 *
 * Existing rows get `"external":null` at the end of their JSON text (a text edit, not jsonb,
 * which would reorder the members).
 * Frozen once released.
 */
export const externalRefs = `
ALTER TABLE issues ADD COLUMN external_source text COLLATE "C";
ALTER TABLE issues ADD COLUMN external_id text COLLATE "C";
CREATE UNIQUE INDEX issues_external ON issues (account_id, workspace_id, external_id, external_source) WHERE external_id IS NOT NULL;
UPDATE issues SET data = left(data, -1) || ',"external":null}';
`;
