import type { ApiToken, Membership } from '../../core/model.js';
import { type TenancyStore, type TokenStore, VersionMismatch } from '../../core/port/index.js';
import { isAfter, newestFirst } from '../shared/keyset.js';
import { clone, type RecordUndo, setWithUndo } from './undo.js';

/** The memberships map, keyed `<workspaceId>/<userId>`. */
export interface MemberState {
  memberships: Map<string, Membership>;
  tokens: Map<string, ApiToken>;
}

const keyOf = (workspaceId: string, userId: string) => `${workspaceId}/${userId}`;

/** The members-API half of the tenancy store: versioned updates and keyset pages. */
export function memoryMembers(
  state: MemberState,
  record: RecordUndo,
): Pick<TenancyStore, 'updateMembership' | 'listMembers'> {
  return {
    async updateMembership(membership, expectedVersion) {
      const key = keyOf(membership.workspaceId, membership.userId);
      const stored = state.memberships.get(key);
      if (!stored || stored.version !== expectedVersion) throw new VersionMismatch(stored?.version ?? null);
      setWithUndo(state.memberships, key, clone(membership), record);
    },
    async listMembers(query) {
      const matching = [...state.memberships.values()]
        .filter((m) => m.workspaceId === query.workspaceId && (!query.role || m.role === query.role))
        .map((m) => ({ ...m, id: m.userId }))
        .sort(newestFirst);
      const after = query.after;
      const rows = (after ? matching.filter((m) => isAfter(m, after)) : matching)
        .slice(0, query.limit)
        .map(({ id: _id, ...m }) => clone(m));
      return { rows, total: matching.length };
    },
  };
}

/** The per-user half of the token store. */
export function memoryUserTokens(
  state: MemberState,
  record: RecordUndo,
): Pick<TokenStore, 'listForUser' | 'revokeForUser'> {
  return {
    async listForUser(workspaceId, userId) {
      return [...state.tokens.values()]
        .filter((t) => t.workspaceId === workspaceId && t.userId === userId)
        .sort(newestFirst)
        .map(clone);
    },
    async revokeForUser(workspaceId, userId, at) {
      let revoked = 0;
      for (const token of [...state.tokens.values()]) {
        if (token.workspaceId !== workspaceId || token.userId !== userId || token.revokedAt !== null)
          continue;
        setWithUndo(state.tokens, token.id, { ...token, revokedAt: at }, record);
        revoked++;
      }
      return revoked;
    },
  };
}
