import { ApiError } from '../errors.js';
import type { TrackerRequest } from '../pipeline/request.js';

/**
 * A body a framework's body parser has already read (Express's `express.json()`, Fastify's content
 * parsers): the stream is spent, so the core gets the parsed value instead. It is turned back into
 * the bytes it was parsed from only where that is faithful: JSON (the core would parse the text to
 * the very same value) and a flat urlencoded form of strings. Anything else (a `qs`-nested form, a
 * multipart upload) cannot be restored, and the request is answered 500 saying so.
 */
export function restoreParsedBody(request: TrackerRequest): TrackerRequest | ApiError {
  const parsed = request.parsedBody;
  if (parsed === undefined || (request.body !== undefined && request.body !== null)) return request;
  if (typeof parsed === 'string' || parsed instanceof Uint8Array) return { ...request, body: parsed };
  // Parsers leave an empty object for an empty body: no body, as the core would have read it.
  if (isPlainObject(parsed) && Object.keys(parsed).length === 0) return { ...request, body: null };
  const type = headerValue(request.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  const isJson = type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
  if (isJson) return { ...request, body: JSON.stringify(parsed) };
  if (type === 'application/x-www-form-urlencoded' && isFlatForm(parsed)) {
    return { ...request, body: new URLSearchParams(Object.entries(parsed)).toString() };
  }
  return new ApiError(
    500,
    'internal_error',
    'The tracker needs the raw request body, but a body parser in front of it has already read it into a form that cannot be restored. Mount the tracker before the body parser, or keep the raw body as req.rawBody.',
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFlatForm = (value: unknown): value is Record<string, string> =>
  isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');

function headerValue(headers: TrackerRequest['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}
