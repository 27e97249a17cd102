import type { ApiError, StorageTx, Tracker } from '../core/extension-kit.js';
import { authenticate, type Principal } from '../core/extension-kit.js';

/** Who a token acts as now, read afresh (a revoked token, a removed user: an ApiError 401). */
export const principalOf = (tx: StorageTx, token: string, nowMs: number): Promise<Principal | ApiError> =>
  authenticate(tx, `Bearer ${token}`, nowMs);

/** The token's principal, in a read transaction of its own. */
export const currentPrincipal = (tracker: Tracker, token: string): Promise<Principal | ApiError> =>
  tracker.storage.transaction((tx) => principalOf(tx, token, tracker.clock.now()), { mode: 'read' });
