import type { ApiToken } from '../core/model.js';

/** A token as `tokens list` and `tokens revoke` show it: never its hash. */
export const tokenView = (token: ApiToken) => ({
  id: token.id,
  workspaceId: token.workspaceId,
  name: token.name,
  scope: token.scope,
  userId: token.userId,
  lastFour: token.lastFour,
  createdAt: token.createdAt,
  lastUsedAt: token.lastUsedAt,
  revokedAt: token.revokedAt,
  expiresAt: token.expiresAt,
});

export type TokenView = ReturnType<typeof tokenView>;

/** Lays rows out in columns separated by two spaces. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
