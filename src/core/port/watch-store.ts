import type { SignalEvent } from '../model.js';

/** What a user may watch. */
export const watchedTypes = ['issue', 'outcome'] as const;
export type WatchedType = (typeof watchedTypes)[number];

/** Why a user watches: they asked to, or what they did or were given made them a watcher. */
export const watchReasons = ['manual', 'creator', 'assignee', 'commenter', 'mentioned'] as const;
export type WatchReason = (typeof watchReasons)[number];

/** A user watching an issue or outcome of a workspace. */
export interface Watch {
  workspaceId: string;
  subjectType: WatchedType;
  subjectId: string;
  userId: string;
  reason: WatchReason;
  /** When the watch began: the user is told of events that occurred then or later, never of older ones. */
  since: string;
}

/**
 * A signal that tells watchers of an issue or outcome something (a comment on it, its transition,
 * its assignment, its due date passing): the signal's sequence filed under its subject. One row a
 * signal, however many watch the subject: the feeds are read from these and the signal log.
 */
export interface SubjectEvent {
  accountId: string;
  workspaceId: string;
  subjectId: string;
  sequence: number;
  /** The user whose action it was (its signal's actor), or null (the operator, the service). */
  actorUserId: string | null;
  occurredAt: string;
}

/** Whose feed, and which part of it. */
export interface FeedQuery {
  accountId: string;
  workspaceId: string;
  userId: string;
  /** Only events with a sequence above this. */
  afterSequence?: number;
  /** Only events with a sequence below this. */
  beforeSequence?: number;
}

/**
 * Watchers, the events filed under what they watch, and how far each user has read. Every method
 * names the account (the PostgreSQL tables are distributed by it) and the workspace: a feed never
 * holds another workspace's events.
 */
export interface WatchStore {
  /**
   * Adds the watch unless the user watches the subject already (the first watch, its reason and
   * its start, are kept). Returns whether it was added. Concurrency contract: of concurrent adds of
   * one (subject, user), exactly one adds.
   */
  add(accountId: string, watch: Watch): Promise<boolean>;
  /**
   * `add` for a watch the change being made implies (a creator, an assignee, a commenter): the
   * same effect, without saying whether it was new, and nothing in the transaction reads it after,
   * so an adapter with round trips to save may send it with the commit.
   */
  start(accountId: string, watch: Watch): Promise<void>;
  /** The user's watch of the subject, or null. */
  get(accountId: string, workspaceId: string, subjectId: string, userId: string): Promise<Watch | null>;
  /** Ends the user's watch of the subject; returns whether there was one. */
  remove(accountId: string, workspaceId: string, subjectId: string, userId: string): Promise<boolean>;
  /**
   * The subject's watchers in the order they began (since, then userId), after `after`, at most
   * `limit`, with the count of all of them.
   */
  list(query: {
    accountId: string;
    workspaceId: string;
    subjectId: string;
    after?: { since: string; userId: string };
    limit: number;
  }): Promise<{ rows: Watch[]; total: number }>;
  /** Ends every watch of the user in the workspace (a member removed), and forgets how far they read. */
  removeUser(accountId: string, workspaceId: string, userId: string): Promise<number>;
  /** Ends every watch of the subject (an outcome deleted). */
  removeSubject(accountId: string, workspaceId: string, subjectId: string): Promise<number>;
  /**
   * Files a signal under its subject (see SubjectEvent), in the signal's transaction; nothing in
   * the transaction reads it after, so an adapter may send it with the commit.
   */
  file(event: SubjectEvent): Promise<void>;
  /**
   * The user's feed: signals filed under a subject the user watched when they occurred, whose
   * actor is not the user, of the query's workspace, in the query's sequence bounds, with the
   * sequence ascending or descending, at most `limit`. A purged signal is not in it.
   * Concurrency contract: a signal is in the feed from its transaction's commit on.
   */
  feed(query: FeedQuery & { order: 'asc' | 'desc'; limit: number }): Promise<SignalEvent[]>;
  /** How many signals `feed` would list without a limit. */
  feedCount(query: FeedQuery): Promise<number>;
  /** The highest sequence the user marked read in the workspace (0 when none). */
  readUpTo(accountId: string, workspaceId: string, userId: string): Promise<number>;
  /**
   * Raises the user's read marker to `sequence` (never lowers it) and returns the marker. Concurrency
   * contract: concurrent marks leave the highest.
   */
  markRead(accountId: string, workspaceId: string, userId: string, sequence: number): Promise<number>;
  /** Forgets filed events that occurred before `before` (their signals are purged alike); returns how many. */
  purge(before: string): Promise<number>;
}
