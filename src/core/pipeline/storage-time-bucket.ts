/** Milliseconds left in an account's bucket as of `atMs` (negative when requests overdrew it). */
export interface Bucket {
  left: number;
  atMs: number;
}

/**
 * What `bucket` holds at `nowMs`: refilled by `msPerWindow` each `windowMs` since its time, never
 * past `msPerWindow`; nothing refills for a clock behind the bucket's.
 */
export function refilled(bucket: Bucket, nowMs: number, msPerWindow: number, windowMs: number): number {
  return Math.min(msPerWindow, bucket.left + Math.max(0, nowMs - bucket.atMs) * (msPerWindow / windowMs));
}
