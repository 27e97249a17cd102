/**
 * Migration 3, as the SQLite adapter's: memberships become versioned resources listed newest
 * first, users remember their last sign-in, tokens may expire, and an admin session may carry
 * one sealed message for its next page.
 */

/** Ordered, byte-compared text, as in migration 1. */
const text = 'text COLLATE "C"';

export const membersAndTokenExpiry = `
ALTER TABLE memberships ADD COLUMN updated_at ${text} NOT NULL DEFAULT '';
ALTER TABLE memberships ADD COLUMN version integer NOT NULL DEFAULT 1;
UPDATE memberships SET updated_at = created_at;
CREATE INDEX memberships_recent ON memberships (workspace_id, created_at DESC, user_id DESC);
CREATE INDEX memberships_role ON memberships (workspace_id, role, created_at DESC, user_id DESC);

ALTER TABLE users ADD COLUMN last_sign_in_at ${text};

ALTER TABLE tokens ADD COLUMN expires_at ${text};
CREATE INDEX tokens_user ON tokens (workspace_id, user_id, created_at DESC, id DESC);

ALTER TABLE sessions ADD COLUMN flash text;
`;
