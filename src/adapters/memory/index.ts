import type {
  Account,
  AdminSession,
  ApiToken,
  IdempotencyRecord,
  Membership,
  SignalEvent,
  User,
  Workspace,
} from '../../core/model.js';
import {
  type CollectionName,
  credentialsOf,
  type DumpRows,
  type DumpStore,
  type DumpTable,
  type Storage,
  type StorageTx,
  UniqueViolation,
} from '../../core/port/index.js';
import { withFields } from '../../core/with-fields.js';
import { eachCollection } from '../shared/collection-table.js';
import { newestFirst } from '../shared/keyset.js';
import { serialQueue } from '../shared/serial-queue.js';
import { IndexedRows, memoryCollection, type UniqueRule } from './collection.js';
import { DeliveryRows } from './delivery-rows.js';
import { memoryMembers, memoryUserTokens } from './members.js';
import { memoryOverdue } from './overdue.js';
import { clone, deleteWithUndo, type RecordUndo, setWithUndo, type Undo } from './undo.js';
import { emptyWatchState, memoryWatches, type WatchState, watchDumpRows } from './watches.js';
import { memoryDeliveries, memoryWebhooks, type WebhookState } from './webhooks.js';

/** The whole state of a memory store: plain maps, cloned on the way in and out. */
interface State extends WebhookState {
  watches: WatchState;
  sessions: Map<string, AdminSession>;
  /** A session's one message for its next page, by session id hash. */
  flashes: Map<string, string>;
  accounts: Map<string, Account>;
  workspaces: Map<string, Workspace>;
  users: Map<string, User>;
  memberships: Map<string, Membership>;
  tokens: Map<string, ApiToken>;
  /** Token ids by hash: every request finds its token by hash (a token's hash never changes). */
  tokenIdsByHash: Map<string, string>;
  collections: { [Name in CollectionName]: IndexedRows<Name> };
  signals: SignalEvent[];
  idempotency: Map<string, IdempotencyRecord>;
  /** Counter name → its workspace and value. */
  counters: Map<string, { workspaceId: string; value: number }>;
  sequence: number;
  /** The due day each issue and outcome was last signalled overdue for, by `<collection>:<id>`. */
  overdueSignalled: Map<string, string>;
}

/** The keys a collection holds unique within a workspace, besides its id (the SQL adapters' unique indexes). */
const uniqueKeys: Partial<Record<CollectionName, readonly UniqueRule[]>> = {
  projects: [{ fields: ['key'], what: 'project.key', unindexed: ['key'] }],
  issues: [
    { fields: ['projectId', 'number'], what: 'issue.number', unindexed: ['number'] },
    // An imported issue's source and its id there (ExternalRef): one issue of each in a workspace.
    { fields: ['external.source', 'external.id'], what: 'issue.external', unindexed: [] },
  ],
};

/**
 * An in-memory storage adapter: for tests, examples and embedding without a database.
 * Transactions run one at a time; each write records how to undo itself, and a failed
 * transaction replays its undo log backwards.
 */
export function memoryStorage(): Storage {
  const state: State = {
    accounts: new Map(),
    workspaces: new Map(),
    users: new Map(),
    memberships: new Map(),
    tokens: new Map(),
    tokenIdsByHash: new Map(),
    collections: eachCollection(
      (name) => new IndexedRows(name, uniqueKeys[name] ?? []),
    ) as State['collections'],
    signals: [],
    idempotency: new Map(),
    counters: new Map(),
    sequence: 0,
    overdueSignalled: new Map(),
    webhooks: new Map(),
    deliveries: new DeliveryRows(),
    attempts: new Map(),
    attemptHours: new Map(),
    sessions: new Map(),
    flashes: new Map(),
    watches: emptyWatchState(),
  };
  const serialize = serialQueue();
  let closed = false;

  return {
    transaction(fn) {
      return serialize(async () => {
        if (closed) throw new Error('storage is closed');
        const undo: Undo[] = [];
        let active = true;
        // Transactions run one at a time here, and each runs to its end without waiting for
        // anything outside: the time since it began is the time it kept the others waiting.
        const startedMs = performance.now();
        const tx = memoryTx(state, startedMs, (u) => {
          if (!active) throw new Error('transaction already finished');
          undo.push(u);
        });
        try {
          const result = await fn(tx);
          active = false;
          return result;
        } catch (error) {
          active = false;
          for (const u of undo.reverse()) u();
          throw error;
        }
      });
    },
    async close() {
      closed = true;
    },
  };
}

function memoryTx(state: State, startedMs: number, record: RecordUndo): StorageTx {
  /** The token of this hash; with an account, only when its workspace is of that account. */
  const tokenByHash = (hash: string, accountId: string | null): ApiToken | null => {
    const id = state.tokenIdsByHash.get(hash);
    const token = id === undefined ? null : (state.tokens.get(id) ?? null);
    if (token === null || accountId === null) return token;
    return state.workspaces.get(token.workspaceId)?.accountId === accountId ? token : null;
  };
  /** The token of this id; with a workspace, only when it is of that workspace. */
  const tokenById = (id: string, workspaceId: string | undefined): ApiToken | null => {
    const token = state.tokens.get(id) ?? null;
    return token === null || workspaceId === undefined || token.workspaceId === workspaceId ? token : null;
  };
  return {
    busyMs: () => performance.now() - startedMs,
    labels: {
      async list({ workspaceId, after, limit }) {
        return state.collections.issues.labelIndex(workspaceId).list(after, limit);
      },
    },
    overdue: memoryOverdue(
      {
        collections: state.collections,
        overdueSignalled: state.overdueSignalled,
        accountOf: (workspaceId) => state.workspaces.get(workspaceId)?.accountId,
      },
      record,
    ),
    webhooks: memoryWebhooks(state, record),
    sessions: {
      async insert(session) {
        setWithUndo(state.sessions, session.idHash, clone(session), record);
      },
      async get(idHash) {
        return clone(state.sessions.get(idHash) ?? null);
      },
      async delete(idHash) {
        deleteWithUndo(state.flashes, idHash, record);
        return deleteWithUndo(state.sessions, idHash, record);
      },
      async purge(before) {
        let removed = 0;
        for (const [idHash, session] of [...state.sessions]) {
          if (session.expiresAt < before && deleteWithUndo(state.sessions, idHash, record)) removed++;
        }
        for (const idHash of [...state.flashes.keys()]) {
          if (!state.sessions.has(idHash)) deleteWithUndo(state.flashes, idHash, record);
        }
        return removed;
      },
      async setFlash(idHash, flash) {
        if (state.sessions.has(idHash)) setWithUndo(state.flashes, idHash, flash, record);
      },
      async takeFlash(idHash) {
        const flash = state.flashes.get(idHash) ?? null;
        deleteWithUndo(state.flashes, idHash, record);
        return flash;
      },
    },
    deliveries: memoryDeliveries(state, record),
    tenancy: {
      async insertAccount(account) {
        if (state.accounts.has(account.id)) throw new UniqueViolation('account.id');
        setWithUndo(state.accounts, account.id, clone(account), record);
      },
      async getAccount(id) {
        return clone(state.accounts.get(id) ?? null);
      },
      async insertWorkspace(workspace) {
        for (const w of state.workspaces.values())
          if (w.slug === workspace.slug) throw new UniqueViolation('workspace.slug');
        setWithUndo(state.workspaces, workspace.id, clone(workspace), record);
      },
      async getWorkspace(id) {
        return clone(state.workspaces.get(id) ?? null);
      },
      async getWorkspaceBySlug(slug) {
        for (const w of state.workspaces.values()) if (w.slug === slug) return clone(w);
        return null;
      },
      async listWorkspaces(accountId) {
        return [...state.workspaces.values()]
          .filter((w) => accountId === undefined || w.accountId === accountId)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
          .map(clone);
      },
      async insertUser(user) {
        const email = user.email.toLowerCase();
        for (const u of state.users.values())
          if (u.email.toLowerCase() === email) throw new UniqueViolation('user.email');
        setWithUndo(state.users, user.id, clone(user), record);
      },
      async getUser(id) {
        return clone(state.users.get(id) ?? null);
      },
      async getUserByEmail(email) {
        const wanted = email.toLowerCase();
        for (const u of state.users.values()) if (u.email.toLowerCase() === wanted) return clone(u);
        return null;
      },
      async updateUser(user) {
        if (!state.users.has(user.id)) return;
        setWithUndo(state.users, user.id, clone(user), record);
      },
      async putMembership(membership) {
        setWithUndo(
          state.memberships,
          `${membership.workspaceId}/${membership.userId}`,
          clone(membership),
          record,
        );
      },
      async getMembership(workspaceId, userId) {
        return clone(state.memberships.get(`${workspaceId}/${userId}`) ?? null);
      },
      async removeMembership(workspaceId, userId) {
        return deleteWithUndo(state.memberships, `${workspaceId}/${userId}`, record);
      },
      async listMemberships(workspaceId) {
        return [...state.memberships.values()].filter((m) => m.workspaceId === workspaceId).map(clone);
      },
      async listUserMemberships(userId) {
        // Every membership is walked: the memory adapter holds a process's worth (tests, embeds).
        return (
          [...state.memberships.values()]
            .filter((m) => m.userId === userId)
            // Oldest first: the reverse of newest first, whose ties go by id (here the workspace's).
            .sort((a, b) =>
              newestFirst(
                { createdAt: b.createdAt, id: b.workspaceId },
                { createdAt: a.createdAt, id: a.workspaceId },
              ),
            )
            .map(clone)
        );
      },
      ...memoryMembers(state, record),
    },
    tokens: {
      async insert(token) {
        if (state.tokens.has(token.id) || state.tokenIdsByHash.has(token.hash)) {
          throw new UniqueViolation('token');
        }
        setWithUndo(state.tokens, token.id, clone(token), record);
        setWithUndo(state.tokenIdsByHash, token.hash, token.id, record);
      },
      async getByHash(hash, accountId) {
        return clone(tokenByHash(hash, accountId));
      },
      async grantOf(hash, accountId) {
        const t = tokenByHash(hash, accountId);
        if (!t) return null;
        return {
          token: credentialsOf(t),
          role: state.memberships.get(`${t.workspaceId}/${t.userId}`)?.role ?? null,
          accountId: state.workspaces.get(t.workspaceId)?.accountId ?? null,
        };
      },
      async get(id, workspaceId) {
        return clone(tokenById(id, workspaceId));
      },
      async list(workspaceId) {
        return [...state.tokens.values()]
          .filter((t) => t.workspaceId === workspaceId)
          .sort(newestFirst)
          .map(clone);
      },
      async revoke(id, at, workspaceId) {
        const token = tokenById(id, workspaceId);
        if (!token) return null;
        if (token.revokedAt === null) setWithUndo(state.tokens, id, { ...token, revokedAt: at }, record);
        return clone(state.tokens.get(id) ?? null);
      },
      async touch(workspaceId, id, at) {
        const token = tokenById(id, workspaceId);
        if (token) setWithUndo(state.tokens, id, { ...token, lastUsedAt: at }, record);
      },
      ...memoryUserTokens(state, record),
    },
    collections: eachCollection((name) =>
      memoryCollection(state.collections[name] as IndexedRows<CollectionName>, record),
    ) as unknown as StorageTx['collections'],
    signals: {
      async append(event) {
        const previousSequence = state.sequence;
        record(() => {
          state.signals.pop();
          state.sequence = previousSequence;
        });
        const stored: SignalEvent = withFields(clone(event), { sequence: ++state.sequence });
        state.signals.push(stored);
        return clone(stored);
      },
      async list(query) {
        const types = query.types && query.types.length > 0 ? new Set(query.types) : null;
        const out: SignalEvent[] = [];
        for (const e of state.signals) {
          if (out.length >= query.limit) break;
          if (e.accountId !== query.accountId) continue;
          if (query.afterSequence !== undefined && e.sequence <= query.afterSequence) continue;
          if (types && !types.has(e.type)) continue;
          if (query.resourceId !== undefined && e.resource.id !== query.resourceId) continue;
          out.push(clone(e));
        }
        return out;
      },
      async count(query) {
        const types = query.types && query.types.length > 0 ? new Set(query.types) : null;
        return state.signals.filter(
          (e) =>
            e.accountId === query.accountId &&
            (!types || types.has(e.type)) &&
            (query.resourceId === undefined || e.resource.id === query.resourceId),
        ).length;
      },
      async latestSequence() {
        return state.sequence;
      },
      async restore(event) {
        if (state.signals.some((e) => e.sequence === event.sequence)) {
          throw new UniqueViolation('signal.sequence');
        }
        const all = state.signals;
        const previousSequence = state.sequence;
        record(() => {
          state.signals = all;
          state.sequence = previousSequence;
        });
        // Kept in sequence order, which list() relies on.
        state.signals = [...all, clone(event)].sort((a, b) => a.sequence - b.sequence);
        state.sequence = Math.max(state.sequence, event.sequence);
      },
      async continueAfter(sequence) {
        const previousSequence = state.sequence;
        record(() => {
          state.sequence = previousSequence;
        });
        state.sequence = Math.max(state.sequence, sequence);
      },
      async get(accountId, id) {
        return clone(state.signals.find((e) => e.id === id && e.accountId === accountId) ?? null);
      },
      async purge(before) {
        const kept = state.signals.filter((e) => e.occurredAt >= before);
        const removed = state.signals.length - kept.length;
        if (removed > 0) {
          const all = state.signals;
          record(() => {
            state.signals = all;
          });
          state.signals = kept;
        }
        return removed;
      },
    },
    idempotency: {
      async get(workspaceId, key) {
        return clone(state.idempotency.get(`${workspaceId}/${key}`) ?? null);
      },
      async put(rec, replaceIfBefore) {
        const id = `${rec.workspaceId}/${rec.key}`;
        const existing = state.idempotency.get(id);
        if (existing && existing.createdAt >= replaceIfBefore) throw new UniqueViolation('idempotency.key');
        setWithUndo(state.idempotency, id, clone(rec), record);
      },
      async purge(before) {
        let removed = 0;
        for (const [id, rec] of [...state.idempotency]) {
          if (rec.createdAt < before) removed += deleteWithUndo(state.idempotency, id, record) ? 1 : 0;
        }
        return removed;
      },
    },
    counters: {
      async next(workspaceId, name) {
        const value = (state.counters.get(name)?.value ?? 0) + 1;
        setWithUndo(state.counters, name, { workspaceId, value }, record);
        return value;
      },
      async set(workspaceId, name, value) {
        setWithUndo(state.counters, name, { workspaceId, value }, record);
      },
    },
    watches: memoryWatches(state.watches, record, (accountId, sequence) => {
      const found = signalAt(state.signals, sequence);
      return found?.accountId === accountId ? clone(found) : undefined;
    }),
    dump: memoryDump(state),
  };
}

/** The signal of this sequence in the log (kept in sequence order), by binary search. */
function signalAt(signals: readonly SignalEvent[], sequence: number): SignalEvent | undefined {
  let low = 0;
  let high = signals.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = signals[middle];
    if (!found) return undefined;
    if (found.sequence === sequence) return found;
    if (found.sequence < sequence) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** Each dumped table's rows, in insertion order (a Map's order; the signal log's). */
function tableRows<Table extends DumpTable>(state: State, table: Table): readonly DumpRows[Table][] {
  const all: { [T in DumpTable]: () => readonly DumpRows[T][] } = {
    accounts: () => [...state.accounts.values()],
    workspaces: () => [...state.workspaces.values()],
    users: () => [...state.users.values()],
    memberships: () => [...state.memberships.values()],
    tokens: () => [...state.tokens.values()],
    sessions: () => [...state.sessions.values()],
    ...(eachCollection((name) => () => [...state.collections[name].rows.values()]) as {
      [Name in CollectionName]: () => readonly DumpRows[Name][];
    }),
    counters: () =>
      [...state.counters].map(([name, { workspaceId, value }]) => ({ workspaceId, name, value })),
    signals: () => state.signals,
    ...watchDumpRows(state.watches),
    idempotency: () => [...state.idempotency.values()],
    webhooks: () => [...state.webhooks.values()],
    deliveries: () => [...state.deliveries.values()],
    deliveryAttempts: () => [...state.attempts.values()].flat(),
  };
  return all[table]();
}

/** Pages by position: transactions run one at a time, so positions hold within one. */
function memoryDump(state: State): DumpStore {
  return {
    async page(table, after, limit) {
      const rows = tableRows(state, table);
      const start = after === null ? 0 : Number(after);
      const end = start + limit;
      return { rows: rows.slice(start, end).map(clone), next: end < rows.length ? String(end) : null };
    },
  };
}
