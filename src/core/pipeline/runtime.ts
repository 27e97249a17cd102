import type { AdminArea } from '../admin/area.js';
import type { Clock, Ids } from '../runtime.js';
import type { Storage, StorageTx } from '../storage.js';
import type { Services } from './context.js';
import type { RateLimiter } from './rate-limit.js';
import type { Reply } from './reply.js';
import type { RouteMatch } from './router.js';

/** What the pipeline runs on: built once by createTracker. */
export interface TrackerRuntime {
  storage: Storage;
  clock: Clock;
  ids: Ids;
  limiter: RateLimiter | null;
  route(method: string, url: string): Promise<RouteMatch>;
  /** Told about every unexpected error (a 500), with the request id the client saw. */
  onError(error: unknown, requestId: string): void;
  services: Services;
  changes: ChangeFeed;
  /** Endpoints that need no token, by `METHOD /path` (/healthz, the API description). */
  publicRoutes: Readonly<Record<string, PublicRoute>>;
  /** The admin web pages (sign-in, API tokens), answered as HTML. */
  admin: AdminArea;
}

export type PublicRoute = (tx: StorageTx) => Promise<Reply>;

/** Wakes event streams when a write transaction commits, so they need not poll fast. */
export interface ChangeFeed {
  notify(): void;
  wait(timeoutMs: number): Promise<void>;
}

export function changeFeed(): ChangeFeed {
  let waiters: (() => void)[] = [];
  return {
    notify() {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    wait(timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== wake);
          resolve();
        }, timeoutMs);
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push(wake);
      });
    },
  };
}
