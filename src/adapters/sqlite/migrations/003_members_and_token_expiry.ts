/**
 * Migration 3. The members API and token expiry: memberships become versioned resources (updated_at,
 * version) listed newest first, users remember their last sign-in, tokens may expire, and an
 * admin session may carry one message for its next page (a new token, sealed).
 */
export const membersAndTokenExpiry = `
ALTER TABLE memberships ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
ALTER TABLE memberships ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
UPDATE memberships SET updated_at = created_at;
CREATE INDEX memberships_recent ON memberships (workspace_id, created_at DESC, user_id DESC);
CREATE INDEX memberships_role ON memberships (workspace_id, role, created_at DESC, user_id DESC);

ALTER TABLE users ADD COLUMN last_sign_in_at TEXT;

ALTER TABLE tokens ADD COLUMN expires_at TEXT;
CREATE INDEX tokens_user ON tokens (workspace_id, user_id, created_at DESC, id DESC);

ALTER TABLE sessions ADD COLUMN flash TEXT;
`;
