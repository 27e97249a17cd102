import type { StorageTx } from '../core/port/index.js';
import { randomIds } from '../core/runtime.js';
import type { TenancyDeps } from '../core/tenancy/operations.js';

/** What the core's operator operations need: the transaction, fresh ids and the time of the command. */
export const tenancyDeps = (tx: StorageTx): TenancyDeps => ({ tx, ids: randomIds, now: Date.now() });
