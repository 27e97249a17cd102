/**
 * An index of issues by the time of their last change, for `updatedSince`: a client that keeps a
 * copy in sync asks for the issues changed since its last sync again and again, and most such
 * lists match few issues or none. Without it PostgreSQL read every issue of the workspace to find
 * them. As on SQLite (its migration 11).
 * Frozen once released.
 */
export const issuesByUpdateTime = `
CREATE INDEX issues_updated ON issues (workspace_id, updated_at);
`;
