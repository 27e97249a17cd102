import { z } from 'zod';
import { eventTypes } from '../families/events.js';
import type { Family } from '../families/family.js';
import { families } from '../families/index.js';
import { signalExamples } from '../families/signals/examples.js';
import type { Route } from '../pipeline/route.js';
import { apiBase } from '../pipeline/router.js';
import { routes as routeTable } from '../routes.js';
import { requestComponents, responseComponents } from './components.js';
import { eventComponentName, eventExamples } from './events.js';
import { requestHeaderParameters, responseHeaders } from './headers.js';
import { headersOf, openApiPath, operationOf, problemResponseComponents } from './operations.js';

type Json = Record<string, unknown>;

/** The OpenAPI 3.1 document of the API, as JSON-ready data. */
export interface OpenApiDocument {
  openapi: '3.1.1';
  info: Json;
  paths: Record<string, Record<string, Json>>;
  webhooks: Record<string, Json>;
  externalDocs: { description: string; url: string };
  components: Json & { schemas: Record<string, Json> };
  [member: string]: unknown;
}

/** Where the document is served (no token needed). */
export const openApiPathname = `${apiBase}/openapi.json`;
/** Where the API guide is served as a page, linked from the document and the reference page. */
export const guidePathname = '/docs/guide';

/** `time-entries` → `Time entries`. */
const tagOf = (route: Route) => {
  const family = route.path.split('/')[1] ?? '';
  const words = family.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** What each tag groups, shown as the heading of its section in the reference: a family's `about`. */
const tagDescriptions: Record<string, string> = {
  ...Object.fromEntries(
    (families as readonly Family[]).flatMap((family) =>
      family.about && family.routes[0] ? [[tagOf(family.routes[0]), family.about]] : [],
    ),
  ),
  Service: 'The API description and the health probes: no token needed.',
  'Webhook events': 'What a webhook subscription receives: one signed POST per event.',
};

/**
 * Converts named zod schemas to JSON Schema 2020-12 (the dialect of OpenAPI 3.1) in one pass, so
 * a named schema used inside another becomes a `$ref` to its component.
 */
function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string; description?: string }>();
  for (const [id, schema] of Object.entries(named)) {
    registry.add(schema, { id, ...(schema.description ? { description: schema.description } : {}) });
  }
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
      return [id, rest];
    }),
  );
}

/** The name a schema is registered under, or an error naming the route that uses an unnamed one. */
function nameOf(names: Map<z.ZodType, string>, schema: z.ZodType, route: Route, what: string): string {
  const name = names.get(schema);
  if (!name) {
    throw new Error(`${route.method} ${route.path}: its ${what} schema has no name in openapi/components.ts`);
  }
  return name;
}

const problemRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The served document's headers: its ETag is a digest of its content, not a resource version. */
const documentHeaders = {
  ...headersOf(),
  ETag: {
    description: 'A digest of the document: send it as If-None-Match to revalidate.',
    schema: { type: 'string' },
    required: true,
  },
};

/** Endpoints answered without a token: the API description and the health check. */
function publicPaths(): Record<string, Record<string, Json>> {
  const unauthenticated = { security: [], tags: ['Service'] };
  return {
    [openApiPathname]: {
      get: {
        ...unauthenticated,
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI document',
        description:
          'The OpenAPI 3.1 description of this API, with the paths where this server answers them. No token needed; revalidate with If-None-Match and its ETag.',
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            headers: documentHeaders,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['openapi', 'info', 'paths'] },
                example: {
                  openapi: '3.1.1',
                  info: { title: 'outcome-tracker API', version: '1.0.0' },
                  paths: {},
                },
              },
            },
          },
          '304': {
            description: 'Not modified: If-None-Match names the served document.',
            headers: documentHeaders,
          },
          '429': problemRef('TooManyRequests'),
          '500': problemRef('InternalError'),
        },
      },
    },
    '/healthz': {
      get: {
        ...unauthenticated,
        operationId: 'getHealth',
        summary: 'Liveness: the process answers',
        description:
          'Answers 200 without touching storage and is exempt from the rate limit, so a liveness probe never restarts a process for a slow database.',
        responses: {
          '200': {
            description: 'The process is alive.',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
            content: { 'application/json': { schema: probeSchema('ok'), example: { status: 'ok' } } },
          },
        },
      },
    },
    '/readyz': {
      get: {
        ...unauthenticated,
        operationId: 'getReadiness',
        summary: 'Readiness: storage answers queries',
        description:
          'Answers 200 once storage has answered a query, 503 when it fails or does not answer within 2 s. Exempt from the rate limit.',
        responses: {
          '200': {
            description: 'Storage answers; the process can serve requests.',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
            content: { 'application/json': { schema: probeSchema('ready'), example: { status: 'ready' } } },
          },
          '503': problemRef('ServiceUnavailable'),
        },
      },
    },
  };
}

const probeSchema = (status: string): Json => ({
  type: 'object',
  properties: { status: { const: status } },
  required: ['status'],
  additionalProperties: false,
});

/** The `webhooks` section: what a subscriber receives, one entry per event type (CONTRACT §6). */
function webhookEvents(examples: Record<string, unknown>): Record<string, Json> {
  return Object.fromEntries(
    eventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `${eventComponentName(type).charAt(0).toLowerCase()}${eventComponentName(type).slice(1)}`,
          summary: type,
          description:
            type === 'webhook.test'
              ? 'Sent only by POST /webhooks/{id}/test.'
              : `Delivered to subscriptions listing ${type} or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.`,
          tags: ['Webhook events'],
          security: [],
          parameters: [
            {
              name: 'X-Service-Signature',
              in: 'header',
              required: true,
              description:
                '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows.',
              schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
            },
            {
              name: 'X-Service-Event-Id',
              in: 'header',
              required: true,
              description: 'The event id: the same on every retry of this event.',
              schema: { type: 'string', format: 'uuid' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${eventComponentName(type)}` },
                example: examples[type],
              },
            },
          },
          responses: {
            '2XX': { description: 'Delivered: any 2xx answer within 10 seconds.' },
            default: {
              description:
                'Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription.',
            },
          },
        },
      },
    ]),
  );
}

/** Adds the server-sent events form of GET /signals to its 200. */
function addEventStream(paths: Record<string, Record<string, Json>>): void {
  const ok = (paths[`${apiBase}/signals`]?.get?.responses as Json | undefined)?.['200'] as
    | { content: Json; description: string }
    | undefined;
  if (!ok) return;
  ok.description =
    'One page of events in ascending sequence order; with `Accept: text/event-stream`, the events as server-sent events, live.';
  const [first] = (signalExamples.page as { data: { id: string; type: string }[] }).data;
  ok.content['text/event-stream'] = {
    schema: { type: 'string', description: '`id: <event id>`, `event: <type>`, `data: <SignalEvent JSON>`' },
    example: first ? `id: ${first.id}\nevent: ${first.type}\ndata: ${JSON.stringify(first)}\n\n` : '',
  };
}

/** Builds the OpenAPI 3.1 document from the route table and its zod schemas. */
export function buildOpenApiDocument(routes: readonly Route[] = routeTable): OpenApiDocument {
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of [
    ...Object.entries(responseComponents),
    ...Object.entries(requestComponents),
  ]) {
    names.set(schema, name);
  }
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = `${apiBase}${openApiPath(route.path)}`;
    const response =
      route.kind === 'delete' ? 'never' : nameOf(names, route.response ?? z.never(), route, 'response');
    const body = route.body ? nameOf(names, route.body, route, 'body') : null;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, { response, body }, tagOf(route));
  }
  addEventStream(paths);
  Object.assign(paths, publicPaths());
  const headers = referencedHeaders(paths);

  return {
    openapi: '3.1.1',
    info: {
      title: 'outcome-tracker API',
      version: '1.0.0',
      summary: 'Outcomes, issues, decisions, context, time entries, signals and webhooks.',
      description:
        'Every request carries `Authorization: Bearer cn_…`. Lists answer `{ data, nextCursor, total }`; creates need an `Idempotency-Key`; updates need `If-Match`. Errors are RFC 9457 problem details with an `error` code. The API guide explains each behaviour.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    externalDocs: { description: 'The API guide', url: guidePathname },
    servers: [{ url: '/', description: 'This server' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map(tagOf)), 'Service', 'Webhook events'].map((name) => ({
      name,
      description: tagDescriptions[name] ?? '',
    })),
    paths,
    webhooks: webhookEvents(eventExamples(routes)),
    components: {
      schemas: {
        ...componentSchemas(responseComponents, 'output'),
        ...componentSchemas(requestComponents, 'input'),
      },
      responses: problemResponseComponents(),
      parameters: requestHeaderParameters,
      headers,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'cn_ followed by letters, digits and underscores: opaque, of a length that may vary',
          description: 'An API token (`outcome-tracker tokens create`), scope `read` or `read_write`.',
        },
      },
    },
  };
}

/**
 * The response headers the document refers to. A header only ever sent as required (the 401's
 * WWW-Authenticate) is written out where it is used, so its component would stand unused.
 */
function referencedHeaders(paths: Record<string, Record<string, Json>>): Json {
  const text = JSON.stringify([paths, problemResponseComponents()]);
  return Object.fromEntries(
    Object.entries(responseHeaders).filter(([name]) => text.includes(`"#/components/headers/${name}"`)),
  );
}

let built: OpenApiDocument | undefined;

/** The document for this build of the API, made once. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument();
  return built;
}
