/**
 * Memberships by user, in the order the user joined: a sign-in without a target finds the first
 * workspace the user administers through them, not through a lookup in every workspace on the
 * server (a round trip each), as on SQLite (its migration 13).
 * Frozen once released.
 */
export const membershipsByUser = `
CREATE INDEX memberships_by_user ON memberships (user_id, created_at, workspace_id);
`;
