import type { Clock } from '../core/index.js';

/** Where a test tracker's clock starts unless told: a fixed instant, so timestamps repeat run after run. */
export const defaultStart = Date.parse('2026-01-01T00:00:00.000Z');

const unitMs: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * A duration as milliseconds: a number of ms, or text such as `'25h'`, `'90s'`, `'1d12h'` or
 * `'500ms'` (units ms, s, m, h, d, w). Throws a TypeError for anything else.
 */
export function durationMs(duration: number | string): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration)) throw new TypeError(`not a duration: ${duration}`);
    return duration;
  }
  const text = duration.replaceAll(' ', '');
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) {
    throw new TypeError(`not a duration: "${duration}" (expected e.g. 500ms, 90s, 30m, 25h, 7d, 1d12h)`);
  }
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * (unitMs[p[2] as string] as number), 0));
}

/** An instant as milliseconds since the epoch: a Date, an RFC 3339 text or a number of ms. */
export function instantMs(at: Date | string | number): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'string' ? Date.parse(at) : at;
  if (!Number.isFinite(ms)) throw new TypeError(`not a date: ${String(at)}`);
  return ms;
}

/** The clock a test owns: it moves only when told, and moving it runs what would have run meanwhile. */
export interface TestClock extends Clock {
  /** Milliseconds since the epoch, as the tracker sees them. */
  now(): number;
  /**
   * Moves the time forward by `duration` (ms, or text such as `'25h'`), running on the way, each at
   * its own time, what would have run: due webhook deliveries and their retries; then the overdue
   * sweep (`issue.overdue` / `outcome.overdue` for due days passed) and the purge of expired
   * idempotency keys and signals. Resolves once all of it is recorded.
   */
  advance(duration: number | string): Promise<void>;
  /**
   * Sets the time. Forward, it is `advance` to that instant; backward, the time is only set back
   * (nothing runs, and ids made afterwards no longer sort after the earlier ones).
   */
  set(to: Date | string | number): Promise<void>;
}

/** The time itself, which only the test tracker moves. */
export interface ManualTime {
  now(): number;
  set(ms: number): void;
}

export function manualTime(start: number): ManualTime {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
  };
}
