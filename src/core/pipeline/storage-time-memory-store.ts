import type { SharedBucket, StorageTimeStore } from '../port/storage-time-store.js';
import { refilled } from './storage-time-bucket.js';

/**
 * A StorageTimeStore in this process's memory: for several trackers in one process (as many
 * tenants' servers in one test) to share the accounts' shares, and the reference the database
 * stores follow. Buckets refilled to full of accounts no longer active are forgotten.
 */
export function memoryStorageTimeStore(): StorageTimeStore {
  const buckets = new Map<string, SharedBucket>();
  let nextSweep = 0;
  return {
    async settle(charges, nowMs, msPerWindow, windowMs, activeSinceMs) {
      for (const [accountId, charge] of charges) {
        const bucket = buckets.get(accountId);
        const left = (bucket ? refilled(bucket, nowMs, msPerWindow, windowMs) : msPerWindow) - charge;
        buckets.set(accountId, { left, atMs: Math.max(bucket?.atMs ?? nowMs, nowMs) });
      }
      if (nowMs >= nextSweep) {
        for (const [accountId, bucket] of buckets) {
          const full = refilled(bucket, nowMs, msPerWindow, windowMs) >= msPerWindow;
          if (full && bucket.atMs < activeSinceMs) buckets.delete(accountId);
        }
        nextSweep = nowMs + windowMs;
      }
      const found = new Map<string, SharedBucket>();
      for (const [accountId, bucket] of buckets) {
        if (bucket.atMs >= activeSinceMs || charges.has(accountId)) found.set(accountId, { ...bucket });
      }
      return found;
    },
  };
}
