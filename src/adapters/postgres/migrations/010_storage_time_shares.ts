/**
 * Each account's share of storage time, one bucket every process on the database settles its
 * charges with (see storage-time-store.ts). UNLOGGED, as the rate limit's table: a crash forgets
 * the buckets, which only lets each account start again from a full share.
 * Frozen once released.
 */
export const storageTimeShares = `
CREATE UNLOGGED TABLE storage_time_shares (
  account_id text COLLATE "C" PRIMARY KEY,
  left_ms double precision NOT NULL,
  at_ms bigint NOT NULL
);
`;
