import type { SignalEvent } from '../model.js';

export interface SignalQuery {
  accountId: string;
  /** Only events with a sequence greater than this. */
  afterSequence?: number;
  types?: readonly string[];
  resourceId?: string;
  limit: number;
}

/** Text of an event made by the caller already (a create's resource is serialized once). */
export interface EventText {
  /** What JSON.stringify makes of the event's `data`. */
  data: string;
}

export interface SignalStore {
  /**
   * Appends an event and returns it with its sequence. Concurrency contract: within the event's
   * account, sequences are strictly increasing in commit order, so a reader paging by
   * `afterSequence` never misses a committed event; a rolled-back append leaves no event.
   * Sequences may be per account (PostgreSQL: the account's row keeps its latest, so the account
   * must exist) or shared by all accounts.
   */
  append(event: Omit<SignalEvent, 'sequence'>, text?: EventText): Promise<SignalEvent>;
  /** Events of one account in ascending sequence order, at most `limit`. */
  list(query: SignalQuery): Promise<SignalEvent[]>;
  /** How many events match the query's account, types and resourceId, ignoring afterSequence and limit. */
  count(query: Omit<SignalQuery, 'afterSequence' | 'limit'>): Promise<number>;
  /** The event with this id in this account, or null. */
  get(accountId: string, id: string): Promise<SignalEvent | null>;
  /**
   * Where a reader of the account's events that wants only new ones starts: at least the
   * highest sequence of the account's committed events (purged ones included), and below the
   * sequence of any of its events that commits later (0 when there is none). Adapters that
   * serialize every writer may answer with the highest sequence of all accounts. Without an
   * account: the highest sequence of all accounts (a copy of a whole database).
   */
  latestSequence(accountId?: string): Promise<number>;
  /**
   * Stores an event under the sequence it already has (a copy of a whole database into an empty
   * one); later appends take higher sequences. Throws UniqueViolation('signal.sequence') when
   * the sequence is taken.
   */
  restore(event: SignalEvent): Promise<void>;
  /**
   * Makes later appends take sequences above `sequence` (never lowers the next one): a copy keeps
   * the source's latest sequence even when a purge removed the events that reached it, so a
   * reader resuming after that sequence misses nothing appended on the copy. Where sequences are
   * per account, those of the accounts stored are raised (a copy writes the accounts first).
   */
  continueAfter(sequence: number): Promise<void>;
  /** Deletes events that occurred before `before`; returns how many. */
  purge(before: string): Promise<number>;
}
