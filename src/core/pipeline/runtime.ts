import type { Extensions } from '../extension.js';
import type { Storage } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import type { Services } from './context.js';
import type { PublicRoute } from './public-route.js';
import type { RateLimiter } from './rate-limit.js';
import type { RouteMatch } from './router.js';
import type { StorageTimeBudget } from './storage-time.js';
import type { StreamSlots } from './stream-slots.js';

/** What the pipeline runs on: built once by createTracker. */
export interface TrackerRuntime {
  storage: Storage;
  clock: Clock;
  ids: Ids;
  limiter: RateLimiter | null;
  /** Each account's share of the storage's time (storage-time.ts); null when unlimited. */
  storageTime: StorageTimeBudget | null;
  route(method: string, url: string): Promise<RouteMatch>;
  /** Told about every unexpected error (a 500), with the request id the client saw. */
  onError(error: unknown, requestId: string): void;
  services: Services;
  changes: ChangeFeed;
  /** The event streams each account holds open (stream-slots.ts). */
  streams: StreamSlots;
  /**
   * Endpoints that need no token, by `METHOD /path` (the API description, the docs pages, and
   * those of the extensions).
   */
  publicRoutes: Readonly<Record<string, PublicRoute>>;
  /** The pages extensions bring (the admin area, when mounted), outside the API. */
  extensions: Extensions;
}

export type { PublicRoute };

/**
 * Wakes an account's event streams when a write of that account commits, so they need not poll
 * fast, and leaves every other account's streams asleep. A cross-process source of changes (a
 * database's notifications) calls `notify` too.
 */
export interface ChangeFeed {
  /** Tells the account's subscribers that it changed. */
  notify(accountId: string): void;
  /** Calls `fn` at each change of the account until the returned function is called. */
  subscribe(accountId: string, fn: () => void): () => void;
}

/** A change feed within one process: subscribers kept per account, so a write wakes only its own. */
export function changeFeed(): ChangeFeed {
  const subscribers = new Map<string, Set<() => void>>();
  return {
    notify(accountId) {
      const listeners = subscribers.get(accountId);
      if (!listeners) return;
      for (const fn of [...listeners]) fn();
    },
    subscribe(accountId, fn) {
      let listeners = subscribers.get(accountId);
      if (!listeners) {
        listeners = new Set();
        subscribers.set(accountId, listeners);
      }
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
        if (listeners.size === 0 && subscribers.get(accountId) === listeners) subscribers.delete(accountId);
      };
    },
  };
}

/** Resolves at the account's next change, or after `timeoutMs`, whichever comes first. */
export function waitForChange(feed: ChangeFeed, accountId: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = feed.subscribe(accountId, done);
  });
}
