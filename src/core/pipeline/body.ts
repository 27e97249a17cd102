import { ApiError } from '../errors.js';

/** The largest request body accepted (CONTRACT §3). Hosts may stop reading just past it. */
export const maxBodyBytes = 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

const isJsonMediaType = (contentType: string): boolean => {
  const media = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
};

/** The deepest nesting of arrays and objects a body may have; no request of the API needs 10. */
export const maxJsonDepth = 64;
/** The most values (array elements and object members) a body may hold. */
export const maxJsonValues = 100_000;

/**
 * Refuses a body nested deeper than `maxJsonDepth` or holding more than `maxJsonValues` values,
 * before anything walks it recursively (the idempotency fingerprint, validation): a few thousand
 * nested arrays would overflow the stack. One pass over the text, no recursion; malformed JSON is
 * left for JSON.parse to describe.
 */
function checkJsonShape(text: string): void {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      values++;
      if (depth > maxJsonDepth) throw shapeError(`it is nested deeper than ${maxJsonDepth} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c) values++;
    if (values > maxJsonValues) throw shapeError(`it holds more than ${maxJsonValues} values`);
  }
}

const shapeError = (why: string) =>
  new ApiError(400, 'validation_failed', `The request body is refused: ${why}.`, {
    issues: [{ in: 'body', path: '', message: why }],
  });

/** Size of a body in bytes, whichever form the host handed it in. */
const byteLength = (body: Uint8Array | string): number =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

/**
 * Whether the headers declare a body over the limit (Content-Length). The hosts refuse such a body
 * unread (a client that sends less than it declared would keep them waiting), the core by it.
 */
export function declaresOversizedBody(headers: Record<string, string | string[] | undefined>): boolean {
  const declared = headers['content-length'];
  return typeof declared === 'string' && Number(declared) > maxBodyBytes;
}

/** Rejects a body over the limit, by its declared or its actual length. */
export function checkBodySize(headers: Record<string, string>, body: Uint8Array | string | null): void {
  if (declaresOversizedBody(headers) || (body !== null && byteLength(body) > maxBodyBytes)) {
    throw new ApiError(413, 'payload_too_large', `Request bodies are limited to ${maxBodyBytes} bytes.`, {
      limit: maxBodyBytes,
    });
  }
}

/** The parsed JSON body, or undefined when there is none. */
export function parseJsonBody(headers: Record<string, string>, body: Uint8Array | string | null): unknown {
  if (body === null || byteLength(body) === 0) return undefined;
  const contentType = headers['content-type'];
  if (!contentType || !isJsonMediaType(contentType)) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Request bodies must be JSON (Content-Type: application/json).',
      {
        received: contentType ?? null,
      },
    );
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(415, 'unsupported_media_type', 'Request bodies must be JSON in UTF-8.', {
      received: contentType,
    });
  }
  // A compressed body would be read as its compressed bytes: refused, saying which coding works
  // (RFC 9110, section 15.5.16).
  const coding = headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Request bodies must not be compressed (Content-Encoding).',
      { received: headers['content-encoding'] },
      { 'Accept-Encoding': 'identity' },
    );
  }
  let text: string;
  try {
    text = typeof body === 'string' ? body : decoder.decode(body);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid UTF-8.');
  }
  checkJsonShape(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      400,
      'invalid_json',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}
