import { z } from 'zod';
import { ApiError, type ErrorCode } from '../errors.js';
import type { Route } from '../pipeline/route.js';
import {
  commonResponseHeaders,
  type RequestHeaderParameter,
  type ResponseHeaderName,
  responseHeaders,
} from './headers.js';

type Json = Record<string, unknown>;

/** `/issues/:id` → `/issues/{id}`. */
export const openApiPath = (routePath: string): string => routePath.replace(/:([A-Za-z]+)/g, '{$1}');

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const parameterRef = (name: RequestHeaderParameter) => ({ $ref: `#/components/parameters/${name}` });

/** The headers of a response: the common ones, plus those named, required when marked so. */
export function headersOf(extra: readonly (readonly [ResponseHeaderName, boolean])[] = []): Json {
  const out: Json = {};
  const required = new Map(extra);
  for (const name of [...commonResponseHeaders, ...required.keys()]) {
    out[name] =
      name === 'X-Request-Id' || required.get(name)
        ? { ...responseHeaders[name], required: true }
        : { $ref: `#/components/headers/${name}` };
  }
  return out;
}

/** The ETag of a report that has no version (an outcome's summary): a digest of the answer. */
const digestEtag = {
  description:
    'A strong entity tag that is a digest of the answer: it changes exactly when the answer does. Send it in If-None-Match.',
  required: true,
  schema: { type: 'string', pattern: '^"[0-9a-f]{32}"$' },
};

/** A JSON success response with the named body schema, and an example of that body. */
const jsonResponse = (
  description: string,
  schemaName: string,
  example: unknown,
  headers: readonly (readonly [ResponseHeaderName, boolean])[] = [],
) => ({
  description,
  headers: headersOf(headers),
  content: {
    'application/json': { schema: schemaRef(schemaName), ...(example === undefined ? {} : { example }) },
  },
});

/** A problem response: its status, what it means, and the body of one typical case. */
interface ProblemResponse {
  status: string;
  description: string;
  headers?: Json;
  example: { error: ErrorCode; detail: string; extras?: Record<string, unknown> };
}

/** The problem responses every family shares, by status, for `components.responses`. */
export const problemResponses: Record<string, ProblemResponse> = {
  BadRequest: {
    status: '400',
    example: {
      error: 'validation_failed',
      detail: 'body.title: Too small: expected string to have >=1 characters',
      extras: {
        issues: [{ in: 'body', path: 'title', message: 'Too small: expected string to have >=1 characters' }],
      },
    },
    description:
      'validation_failed (a bad body, query parameter or header, with `issues`), invalid_json, invalid_cursor, idempotency_key_missing or idempotency_key_invalid.',
  },
  Unauthorized: {
    status: '401',
    example: { error: 'unauthorized', detail: 'The token is unknown or has been revoked.' },
    description: 'unauthorized: the token is missing, malformed, unknown, revoked or expired.',
    headers: headersOf([['WWW-Authenticate', true]]),
  },
  Forbidden: {
    status: '403',
    example: {
      error: 'insufficient_scope',
      detail: 'This token may only read.',
      extras: { requiredScope: 'read_write' },
    },
    description: "insufficient_scope (a read token writing) or forbidden (the user's role is too weak).",
  },
  NotFound: {
    status: '404',
    example: { error: 'not_found', detail: 'No issue with that id exists in this workspace.' },
    description: "not_found: no such resource in this workspace (another tenant's ids are not found either).",
  },
  Conflict: {
    status: '409',
    example: {
      error: 'version_conflict',
      detail: 'If-Match names version 2; the current version is 3.',
      extras: { currentVersion: 3 },
    },
    description:
      'version_conflict (stale If-Match; carries the current ETag), idempotency_key_in_use (retry after Retry-After), resource_in_use, delivery_in_flight, subscription_limit_reached (an account has at most 1,000 webhook subscriptions; carries `limit`), already_member (with `memberId`), has_password (an invite for a user who can sign in already) or last_admin (the last admin of a workspace cannot be demoted or removed).',
    headers: headersOf([
      ['ETag', false],
      ['Retry-After', false],
    ]),
  },
  PayloadTooLarge: {
    status: '413',
    description: 'payload_too_large: bodies are limited to 1 MiB.',
    example: { error: 'payload_too_large', detail: 'The body is over 1 MiB.', extras: { limit: 1_048_576 } },
  },
  UnsupportedMediaType: {
    status: '415',
    example: { error: 'unsupported_media_type', detail: 'Send the body as application/json.' },
    description: 'unsupported_media_type: a body must be sent as application/json.',
  },
  Unprocessable: {
    status: '422',
    example: {
      error: 'invalid_transition',
      detail: 'An issue cannot go from closed to in_progress.',
      extras: { from: 'closed', to: 'in_progress', allowed: ['open'] },
    },
    description:
      'idempotency_key_reused (the key was used with another request), invalid_reference (with `field`) or invalid_transition (with `from`, `to`, `allowed`).',
  },
  PreconditionRequired: {
    status: '428',
    example: {
      error: 'precondition_required',
      detail: 'Send If-Match with the ETag of the version you change.',
    },
    description: 'precondition_required: an update needs If-Match.',
  },
  TooManyRequests: {
    status: '429',
    example: {
      error: 'rate_limited',
      detail: 'Over 100 requests per minute; retry in 12 s.',
      extras: { retryAfter: 12 },
    },
    description:
      "rate_limited: over the rate limit, or the account's requests used their share of the server's storage time; retry after Retry-After seconds. too_many_streams (with `limit`, on GET /signals as an event stream): the account holds as many event streams open on this server as it may.",
    headers: headersOf([['Retry-After', true]]),
  },
  InternalError: {
    status: '500',
    example: { error: 'internal_error', detail: 'Something went wrong on our side; quote the X-Request-Id.' },
    description: 'internal_error: our fault. The body never holds a stack trace; quote X-Request-Id.',
  },
  ServiceUnavailable: {
    status: '503',
    example: { error: 'service_unavailable', detail: 'Storage did not answer; retry in 1 s.' },
    description:
      'service_unavailable: storage does not answer; transient_conflict: the request kept colliding with concurrent ones (several server processes on one PostgreSQL database) and nothing of it was saved. Retry after Retry-After seconds.',
    headers: headersOf([['Retry-After', true]]),
  },
};

/** `components.responses`, built from `problemResponses`. */
export function problemResponseComponents(): Json {
  return Object.fromEntries(
    Object.entries(problemResponses).map(([name, r]) => [
      name,
      {
        description: r.description,
        headers: r.headers ?? headersOf(),
        content: {
          'application/problem+json': {
            schema: schemaRef('Problem'),
            example: new ApiError(
              Number(r.status),
              r.example.error,
              r.example.detail,
              r.example.extras,
            ).toProblem(),
          },
        },
      },
    ]),
  );
}

const problemsByStatus = Object.fromEntries(
  Object.entries(problemResponses).map(([name, r]) => [r.status, name]),
);

/**
 * Whether a route answers one versioned resource (with its ETag) rather than a list, a report, or
 * a record without a version (a webhook delivery), which carries no ETag and is never a 304.
 */
const isItemRead = (route: Route) =>
  route.kind === 'read' && /\/:[A-Za-z]+$/.test(route.path) && isVersioned(route);

/** Whether a route's answer is a resource with a version, and so carries its ETag. */
const isVersioned = (route: Route) =>
  route.response instanceof z.ZodObject && 'version' in route.response.shape;

/**
 * The statuses the pipeline can answer for a route, derived from its kind and access as
 * handle.ts runs them: every route validates its query and refuses bodies that are not JSON,
 * is authenticated and rate limited, and may fail, or collide with concurrent requests too often.
 */
export function errorStatuses(route: Route): string[] {
  const statuses = new Set(['400', '401', '413', '415', '429', '500', '503']);
  if (route.access !== 'read') statuses.add('403');
  if (route.path.includes('/:')) statuses.add('404');
  if (route.kind === 'create') statuses.add('409').add('422');
  if (route.kind === 'update') statuses.add('409').add('422').add('428');
  if (route.kind === 'delete') statuses.add('409');
  if (route.kind === 'action') statuses.add('409').add('422');
  // A batch answers with the status of the operation that failed, whichever it was.
  if (route.runsOperations)
    for (const status of ['403', '404', '405', '409', '422', '428']) statuses.add(status);
  return [...statuses].sort();
}

/** The success responses of a route, by status. */
function successResponses(route: Route, body: string): Json {
  const { response: example, replay } = route.examples;
  switch (route.kind) {
    case 'create': {
      // A create that makes no versioned resource (an invite: a member and a link) has no ETag.
      const etag = isVersioned(route) ? ([['ETag', true]] as const) : [];
      return {
        '201': jsonResponse('Created.', body, example, [...etag]),
        '200': jsonResponse(
          'The stored answer of an earlier request with the same Idempotency-Key and the same body.',
          body,
          replay ?? example,
          [...etag, ['Idempotent-Replayed', true]],
        ),
      };
    }
    case 'update':
      return { '200': jsonResponse('The resource after the change.', body, example, [['ETag', true]]) };
    case 'delete':
      return { '204': { description: 'Deleted.', headers: headersOf() } };
    case 'action':
      if (route.accepted) {
        return {
          '202': jsonResponse('Accepted: queued.', body, example, [['Idempotent-Replayed', false]]),
        };
      }
      return {
        '200': jsonResponse('Done.', body, example, [
          ['ETag', false],
          ['Idempotent-Replayed', false],
        ]),
      };
    case 'read':
      if (route.conditional) {
        const ok = jsonResponse('The report, with a digest of it as its ETag.', body, example);
        return {
          '200': { ...ok, headers: { ...ok.headers, ETag: digestEtag } },
          '304': {
            description: 'Not modified: If-None-Match names the ETag of the current answer.',
            headers: { ...headersOf(), ETag: digestEtag },
          },
        };
      }
      if (isItemRead(route)) {
        return {
          '200': jsonResponse('The resource.', body, example, [['ETag', true]]),
          '304': {
            description: 'Not modified: If-None-Match names the current version.',
            headers: headersOf([['ETag', true]]),
          },
        };
      }
      return { '200': jsonResponse('One page.', body, example) };
  }
}

/** The request-header parameters of a route, by kind. */
function headerParameters(route: Route): Json[] {
  switch (route.kind) {
    case 'create':
      return [parameterRef('IdempotencyKeyRequired')];
    case 'update':
      return [parameterRef('IfMatchRequired')];
    case 'delete':
      return [parameterRef('IfMatchOptional')];
    case 'action':
      // A batch's key covers the creates it holds, which alone would each need one.
      return route.runsOperations
        ? [parameterRef('IdempotencyKeyRequired')]
        : [parameterRef('IdempotencyKeyOptional'), parameterRef('IfMatchOptional')];
    case 'read':
      return isItemRead(route) ? [parameterRef('IfNoneMatch')] : [];
  }
}

/** The path and query parameters, the query ones converted from the route's zod schema. */
function pathAndQueryParameters(route: Route): Json[] {
  const path = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description:
      name === 'id' && route.path.startsWith('/issues/')
        ? "The issue's id or its key (APO-12)"
        : `The ${name === 'id' ? 'resource' : name.replace(/Id$/, '')} id`,
    schema: { type: 'string' },
  }));
  const query = z.toJSONSchema(route.query ?? z.strictObject({}), {
    io: 'input',
    target: 'draft-2020-12',
  }) as { properties?: Record<string, Json>; required?: string[] };
  const required = new Set(query.required ?? []);
  const fromQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
  return [...path, ...fromQuery];
}

/** The OpenAPI operation object of one route. */
export function operationOf(
  route: Route,
  names: { response: string; body: string | null },
  tag: string,
): Json {
  const responses: Json = successResponses(route, names.response);
  for (const status of errorStatuses(route)) {
    responses[status] = responseRef(problemsByStatus[status] ?? 'InternalError');
  }
  const { request: example } = route.examples;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.access.startsWith('admin')
      ? `${route.description} Workspace admins only.`
      : route.description,
    tags: [tag],
    parameters: [...pathAndQueryParameters(route), ...headerParameters(route)],
    ...(names.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: schemaRef(names.body),
                ...(example === undefined ? {} : { example }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}
