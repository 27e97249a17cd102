/**
 * Migration 20: an issue keeps where it was imported from (`external`: its tracker and its id
 * there). Lists filter on both (`externalSource`, `externalId`), and a workspace holds one issue a
 * (source, id): a unique index of the issues that have one (few: the imported ones), which is also
 * the index a filter by external id reads.
 *
 * Existing rows get `"external":null` at the end of their JSON text, which keeps the order of
 * their other members.
 * Frozen once released.
 */
export const externalRefs = `
ALTER TABLE issues ADD COLUMN external_source TEXT;
ALTER TABLE issues ADD COLUMN external_id TEXT;
CREATE UNIQUE INDEX issues_external ON issues (workspace_id, external_id, external_source) WHERE external_id IS NOT NULL;
UPDATE issues SET data = substr(data, 1, length(data) - 1) || ',"external":null}';
`;
