import type { ApiError } from '../core/errors.js';
import { authenticate, type Principal } from '../core/pipeline/auth.js';
import type { StorageTx } from '../core/port/index.js';
import type { Tracker } from '../core/tracker.js';

/** Who a token acts as now, read afresh (a revoked token, a removed user: an ApiError 401). */
export const principalOf = (tx: StorageTx, token: string, nowMs: number): Promise<Principal | ApiError> =>
  authenticate(tx, `Bearer ${token}`, nowMs);

/** The token's principal, in a read transaction of its own. */
export const currentPrincipal = (tracker: Tracker, token: string): Promise<Principal | ApiError> =>
  tracker.storage.transaction((tx) => principalOf(tx, token, tracker.clock.now()), { mode: 'read' });
