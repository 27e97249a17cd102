import { ApiError } from '../errors.js';
import type { Reply } from './reply.js';

/**
 * The methods a path answers, as the Allow header lists them: its routes' methods, with HEAD
 * wherever there is GET (HEAD is answered as GET without a body). OPTIONS is answered on every
 * path and, as is usual, not listed.
 */
export function allowedMethods(routeMethods: readonly string[]): string[] {
  const allow: string[] = [];
  for (const method of routeMethods) {
    if (!allow.includes(method)) allow.push(method);
    if (method === 'GET' && !allow.includes('HEAD')) allow.push('HEAD');
  }
  return allow;
}

/**
 * OPTIONS on a known API path: 204 with Allow, and no token needed (it reveals nothing the
 * OpenAPI document does not). A CORS preflight builds on this answer.
 */
export const optionsReply = (allow: readonly string[]): Reply => ({
  status: 204,
  headers: { Allow: allow.join(', ') },
});

/** Path parameters percent-decoded (`/issues/%41PO-2` is `/issues/APO-2`); a malformed escape is a 400. */
export function decodePathParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (!value.includes('%')) {
      decoded[name] = value;
      continue;
    }
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError(
        400,
        'validation_failed',
        `The path segment for ${name} is not valid percent-encoding.`,
        {
          issues: [{ in: 'path', path: name, message: 'malformed percent-encoding' }],
        },
      );
    }
  }
  return decoded;
}
