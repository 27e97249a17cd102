import type { Clock, Ids } from '../runtime.js';
import type { Storage } from '../storage.js';
import type { RateLimiter } from './rate-limit.js';
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
}
