import { type RateLimitDecision, rateLimitHeaders } from './rate-limit.js';
import type { Reply } from './reply.js';
import type { ParsedRequest, TrackerResponse } from './request.js';

const jsonType = 'application/json; charset=utf-8';
const problemType = 'application/problem+json; charset=utf-8';

/** A reply as the response the host sends: its type, request id and rate-limit headers. */
export function serialize(
  reply: Reply,
  req: ParsedRequest,
  requestId: string,
  rate: RateLimitDecision | null,
  stream: AsyncIterable<string> | null = null,
): TrackerResponse {
  if (stream) {
    const headers = {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': requestId,
      ...(rate ? rateLimitHeaders(rate) : {}),
    };
    // HEAD learns what a GET would start, and its answer ends there: a stream never ends by itself.
    return { status: 200, headers, body: null, ...(req.method === 'HEAD' ? {} : { stream }) };
  }
  if (reply.text) {
    const headers = {
      'Content-Type': reply.text.contentType,
      'X-Request-Id': requestId,
      ...(rate ? rateLimitHeaders(rate) : {}),
      ...reply.headers,
    };
    return { status: reply.status, headers, body: req.method === 'HEAD' ? null : reply.text.body };
  }
  const isProblem = reply.status >= 400;
  const hasBody =
    (reply.body !== undefined || reply.json !== undefined) && reply.status !== 204 && reply.status !== 304;
  // Built in place rather than spread together: this runs for every answer.
  const headers: Record<string, string> = {};
  if (hasBody) headers['Content-Type'] = isProblem ? problemType : jsonType;
  headers['X-Request-Id'] = requestId;
  if (rate) Object.assign(headers, rateLimitHeaders(rate));
  if (reply.headers) Object.assign(headers, reply.headers);
  const body = hasBody && req.method !== 'HEAD' ? (reply.json ?? JSON.stringify(reply.body)) : null;
  return { status: reply.status, headers, body };
}
