/** The headers of the API, as OpenAPI header and parameter objects (CONTRACT §3 and §4). */
import { ifMatchPattern } from '../pipeline/conditional.js';

const rateLimitNote = 'Sent on every response while rate limiting is on (the default).';

/** `components.headers`: response headers. Whether one is required depends on the response. */
export const responseHeaders = {
  'X-Request-Id': {
    description:
      "The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors.",
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'X-RateLimit-Limit': {
    description: `Requests allowed per window. ${rateLimitNote}`,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'X-RateLimit-Remaining': {
    description: `Requests that may be sent right now. ${rateLimitNote}`,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'X-RateLimit-Reset': {
    description: `Seconds until one more request is allowed. ${rateLimitNote}`,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  RateLimit: {
    description: `IETF draft: \`"default";r=<remaining>;t=<seconds>\`. ${rateLimitNote}`,
    schema: { type: 'string', pattern: '^"default";r=\\d+;t=\\d+$' },
  },
  'RateLimit-Policy': {
    description: `IETF draft: \`"default";q=<limit>;w=<window seconds>\`. ${rateLimitNote}`,
    schema: { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$' },
  },
  ETag: {
    description: 'The strong entity tag of the resource\'s version, `"<version>"`; send it back in If-Match.',
    schema: { type: 'string', pattern: '^"\\d+"$' },
  },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when the answer is the stored answer of an earlier request with this key.',
    schema: { type: 'string', const: 'true' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'WWW-Authenticate': {
    description: 'The bearer challenge.',
    schema: { type: 'string', pattern: '^Bearer' },
  },
  Allow: {
    description: 'The methods this path answers.',
    schema: { type: 'string' },
  },
} as const;

export type ResponseHeaderName = keyof typeof responseHeaders;

/** Headers on every response: the request id and the rate-limit headers. */
export const commonResponseHeaders: readonly ResponseHeaderName[] = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
];

const uuid = { type: 'string', format: 'uuid' };
const entityTags = { type: 'string', examples: ['"3"', '*'] };

/** What parseIfMatch accepts, by the pattern it checks; anything else is 400 validation_failed. */
const ifMatchTags = { ...entityTags, pattern: ifMatchPattern };

/** `components.parameters`: the request headers the pipeline reads. */
export const requestHeaderParameters = {
  IdempotencyKeyRequired: {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description:
      'A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422.',
    schema: uuid,
  },
  IdempotencyKeyOptional: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: 'Optional here; when given, a repeat of the same request replays the first answer.',
    schema: uuid,
  },
  IfMatchRequired: {
    name: 'If-Match',
    in: 'header',
    required: true,
    description:
      'The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag.',
    schema: ifMatchTags,
  },
  IfMatchOptional: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'When given, the change happens only at this version (409 version_conflict otherwise).',
    schema: ifMatchTags,
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag held by the client: 304 Not Modified while it is current.',
    schema: entityTags,
  },
} as const;

export type RequestHeaderParameter = keyof typeof requestHeaderParameters;
