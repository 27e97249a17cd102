import type { SignalEvent } from '../../core/model.js';
import type { DumpRows, FeedQuery, SubjectEvent, Watch, WatchStore } from '../../core/port/index.js';
import { clone, deleteWithUndo, type RecordUndo, setWithUndo } from './undo.js';

/** What the memory store keeps of watches: indexed by subject and by user, as the SQL tables are. */
export interface WatchState {
  /** `account/workspace/subject` → user → watch. */
  watchers: Map<string, Map<string, Watch>>;
  /** `account/workspace/user` → the subjects the user watches. */
  watching: Map<string, Set<string>>;
  /** `account/workspace/subject` → the events filed under it, in sequence order. */
  filed: Map<string, SubjectEvent[]>;
  /** `account/workspace/user` → the read marker. */
  reads: Map<string, number>;
}

export const emptyWatchState = (): WatchState => ({
  watchers: new Map(),
  watching: new Map(),
  filed: new Map(),
  reads: new Map(),
});

const key = (...parts: string[]) => parts.join('/');
const byStart = (a: Watch, b: Watch) =>
  a.since < b.since ? -1 : a.since > b.since ? 1 : a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;

/**
 * The watch store over plain maps. `signalAt` finds a signal of the account by its sequence (the
 * log is kept in sequence order), so a feed is the filed events of what the user watches, joined
 * with the log, as the SQL adapters join their tables.
 */
export function memoryWatches(
  state: WatchState,
  record: RecordUndo,
  signalAt: (accountId: string, sequence: number) => SignalEvent | undefined,
): WatchStore {
  const watchersOf = (accountId: string, workspaceId: string, subjectId: string) =>
    state.watchers.get(key(accountId, workspaceId, subjectId));

  const removeOne = (accountId: string, watch: Watch) => {
    const subjectKey = key(accountId, watch.workspaceId, watch.subjectId);
    const users = state.watchers.get(subjectKey);
    if (!users) return false;
    const before = new Map(users);
    if (!users.delete(watch.userId)) return false;
    record(() => state.watchers.set(subjectKey, before));
    if (users.size === 0) deleteWithUndo(state.watchers, subjectKey, record);
    const userKey = key(accountId, watch.workspaceId, watch.userId);
    const subjects = state.watching.get(userKey);
    if (subjects) {
      const kept = new Set(subjects);
      kept.delete(watch.subjectId);
      setWithUndo(state.watching, userKey, kept, record);
    }
    return true;
  };

  const feedEvents = (query: FeedQuery): SignalEvent[] => {
    const { accountId, workspaceId, userId } = query;
    const out: SignalEvent[] = [];
    for (const subjectId of state.watching.get(key(accountId, workspaceId, userId)) ?? []) {
      const watch = watchersOf(accountId, workspaceId, subjectId)?.get(userId);
      if (!watch) continue;
      for (const filed of state.filed.get(key(accountId, workspaceId, subjectId)) ?? []) {
        if (filed.occurredAt < watch.since || filed.actorUserId === userId) continue;
        if (query.afterSequence !== undefined && filed.sequence <= query.afterSequence) continue;
        if (query.beforeSequence !== undefined && filed.sequence >= query.beforeSequence) continue;
        const signal = signalAt(accountId, filed.sequence);
        if (signal) out.push(signal);
      }
    }
    return out.sort((a, b) => a.sequence - b.sequence);
  };

  const store: WatchStore = {
    async add(accountId, watch) {
      const subjectKey = key(accountId, watch.workspaceId, watch.subjectId);
      const users = state.watchers.get(subjectKey);
      if (users?.has(watch.userId)) return false;
      const next = new Map(users ?? []);
      next.set(watch.userId, clone(watch));
      setWithUndo(state.watchers, subjectKey, next, record);
      const userKey = key(accountId, watch.workspaceId, watch.userId);
      setWithUndo(
        state.watching,
        userKey,
        new Set([...(state.watching.get(userKey) ?? []), watch.subjectId]),
        record,
      );
      return true;
    },
    async start(accountId, watch) {
      await store.add(accountId, watch);
    },
    async get(accountId, workspaceId, subjectId, userId) {
      return clone(watchersOf(accountId, workspaceId, subjectId)?.get(userId) ?? null);
    },
    async remove(accountId, workspaceId, subjectId, userId) {
      const watch = watchersOf(accountId, workspaceId, subjectId)?.get(userId);
      return watch ? removeOne(accountId, watch) : false;
    },
    async list({ accountId, workspaceId, subjectId, after, limit }) {
      const all = [...(watchersOf(accountId, workspaceId, subjectId)?.values() ?? [])].sort(byStart);
      const rest = after
        ? all.filter((w) => byStart(w, { ...w, since: after.since, userId: after.userId }) > 0)
        : all;
      return { rows: rest.slice(0, limit).map(clone), total: all.length };
    },
    async removeUser(accountId, workspaceId, userId) {
      let removed = 0;
      for (const subjectId of [...(state.watching.get(key(accountId, workspaceId, userId)) ?? [])]) {
        const watch = watchersOf(accountId, workspaceId, subjectId)?.get(userId);
        if (watch && removeOne(accountId, watch)) removed++;
      }
      deleteWithUndo(state.watching, key(accountId, workspaceId, userId), record);
      deleteWithUndo(state.reads, key(accountId, workspaceId, userId), record);
      return removed;
    },
    async removeSubject(accountId, workspaceId, subjectId) {
      let removed = 0;
      for (const watch of [...(watchersOf(accountId, workspaceId, subjectId)?.values() ?? [])]) {
        if (removeOne(accountId, watch)) removed++;
      }
      return removed;
    },
    async file(event) {
      const subjectKey = key(event.accountId, event.workspaceId, event.subjectId);
      // Appends run in sequence order (transactions run one at a time): the list stays sorted.
      setWithUndo(state.filed, subjectKey, [...(state.filed.get(subjectKey) ?? []), clone(event)], record);
    },
    async feed(query) {
      const events = feedEvents(query);
      const ordered = query.order === 'asc' ? events : events.reverse();
      return ordered.slice(0, query.limit).map(clone);
    },
    async feedCount(query) {
      return feedEvents(query).length;
    },
    async readUpTo(accountId, workspaceId, userId) {
      return state.reads.get(key(accountId, workspaceId, userId)) ?? 0;
    },
    async markRead(accountId, workspaceId, userId, sequence) {
      const readKey = key(accountId, workspaceId, userId);
      const marker = Math.max(state.reads.get(readKey) ?? 0, sequence);
      setWithUndo(state.reads, readKey, marker, record);
      return marker;
    },
    async purge(before) {
      let removed = 0;
      for (const [subjectKey, events] of [...state.filed]) {
        const kept = events.filter((e) => e.occurredAt >= before);
        if (kept.length === events.length) continue;
        removed += events.length - kept.length;
        if (kept.length === 0) deleteWithUndo(state.filed, subjectKey, record);
        else setWithUndo(state.filed, subjectKey, kept, record);
      }
      return removed;
    },
  };
  return store;
}

/** The watch state as the dump's three tables (their rows in the maps' order). */
export const watchDumpRows = (state: WatchState) => ({
  watchers: (): DumpRows['watchers'][] =>
    [...state.watchers].flatMap(([subjectKey, users]) => {
      const accountId = subjectKey.slice(0, subjectKey.indexOf('/'));
      return [...users.values()].map((watch) => ({ accountId, ...watch }));
    }),
  watchedEvents: (): DumpRows['watchedEvents'][] => [...state.filed.values()].flat(),
  notificationReads: (): DumpRows['notificationReads'][] =>
    [...state.reads].map(([userKey, readUpTo]) => {
      const [accountId = '', workspaceId = '', userId = ''] = userKey.split('/');
      return { accountId, workspaceId, userId, readUpTo };
    }),
});
