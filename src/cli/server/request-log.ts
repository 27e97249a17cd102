import type { RequestLogEntry } from '../../core/tracker.js';

/**
 * One log line per answered request. The entry holds the path without its query string, and
 * never a header or a body, so no token or payload reaches the log.
 */
export function requestLogLine(entry: RequestLogEntry, at: Date, json: boolean): string {
  const time = at.toISOString();
  if (json) {
    const { method, path, status, durationMs, requestId } = entry;
    return JSON.stringify({ time, method, path, status, durationMs, requestId });
  }
  return `${time} ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs}ms id=${entry.requestId}`;
}
