/**
 * Migration 13: memberships by user, in the order the user joined. A sign-in without a target
 * lands in the first workspace the user administers: found through every workspace, one
 * membership lookup each, it cost a sign-in a lookup per workspace on the server.
 * Frozen once released.
 */
export const membershipsByUser = `
CREATE INDEX memberships_by_user ON memberships (user_id, created_at, workspace_id);
`;
