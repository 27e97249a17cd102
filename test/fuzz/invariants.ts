import { createResponseChecker } from '../openapi/response-validator.js';
import type { FuzzRequest } from './request-arbitraries.js';
import type { FuzzResponse } from './send.js';

const checkDocumented = createResponseChecker();

/** Headers the API guide says every response carries, before authentication as after it. */
export const everyResponseHeaders = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
] as const;

/**
 * The probes are exempt from the rate limit (the document says so of /healthz and /readyz: a
 * liveness check must never be refused), so they carry no rate-limit headers; X-Request-Id they do.
 */
const probes = new Set(['/healthz', '/readyz']);

/**
 * What must hold of any answer to any request, however hostile: no 5xx, the headers every
 * response carries, every 4xx a problem document (`type`, `title`, and `status` equal to the
 * response's), and the response as the OpenAPI document describes it for that operation and
 * status (2xx bodies validated against their schemas). Answers the violations, none when it holds.
 */
export function violations(req: FuzzRequest, res: FuzzResponse): string[] {
  // Node's HTTP parser refuses a request line and headers over 16 kB itself, with a bare 431 and
  // a closed connection, before any host or core code runs: nothing of the API can add to it.
  if (res.status === 431 && res.text === '' && req.path.length + headerBytes(req) > 16 * 1024) return [];
  const found: string[] = [];
  if (res.status >= 500) found.push(`status ${res.status}: ${res.text.slice(0, 300)}`);
  const pathname = req.path.split('?')[0] ?? req.path;
  for (const name of everyResponseHeaders) {
    if (probes.has(pathname) && name !== 'x-request-id') continue;
    if (!res.headers.get(name)) found.push(`no ${name} header on a ${res.status}`);
  }
  if (res.status >= 400 && res.status < 500) {
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/problem+json'))
      found.push(`a ${res.status} as ${type || 'no content type'}`);
    if (req.method !== 'HEAD') {
      let problem: Record<string, unknown> | undefined;
      try {
        problem = JSON.parse(res.text);
      } catch {
        found.push(`a ${res.status} whose body is not JSON: ${res.text.slice(0, 100)}`);
      }
      if (problem) {
        if (typeof problem.type !== 'string') found.push('a problem without type');
        if (typeof problem.title !== 'string') found.push('a problem without title');
        if (problem.status !== res.status) found.push(`a problem whose status is ${String(problem.status)}`);
      }
    }
  }
  if (!res.stream) found.push(...checkDocumented(req.method, req.path, res));
  return found;
}

const headerBytes = (req: FuzzRequest) =>
  Object.entries(req.headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
