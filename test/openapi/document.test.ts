import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMount } from '../../src/core/edge/mount.js';
import { eventTypes } from '../../src/core/families/events.js';
import { openApiDocument } from '../../src/core/openapi/document.js';
import { parseIfMatch } from '../../src/core/pipeline/conditional.js';
import { probePaths } from '../../src/core/pipeline/probe-paths.js';
import { createRouter } from '../../src/core/pipeline/router.js';
import { publicRoutes as publicRoutesOf } from '../../src/core/public-routes.js';

const publicRoutes: Record<string, unknown> = publicRoutesOf(createMount());
for (const path of probePaths) publicRoutes[`GET ${path}`] = true;

import { routes } from '../../src/core/routes.js';
import { startServer, type TestServer } from '../http/harness.js';

const doc = openApiDocument();
const methods = ['get', 'post', 'patch', 'delete', 'put'] as const;

/** Every documented (path, method) pair. */
const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
  methods.filter((m) => item[m] !== undefined).map((m) => ({ path, method: m.toUpperCase() })),
);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('would be refused by that validator if a response lost its description', async () => {
    const broken = structuredClone(doc);
    const responses = broken.paths['/api/v1/issues']?.get?.responses as Record<
      string,
      { description?: string }
    >;
    expect(responses['200']?.description).toBeDefined();
    delete responses['200']?.description;
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  it('documents every route of the route table, with its method', () => {
    for (const route of routes) {
      const path = `/api/v1${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
      expect(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    expect(documented.length).toBe(routes.length + 3);
  });

  it('routes every documented path and method, to the route it documents or to a public endpoint', async () => {
    const route = createRouter(routes);
    for (const { path, method } of documented) {
      const concrete = path.replace(/\{[A-Za-z]+\}/g, 'x_1');
      if (publicRoutes[`${method} ${path}`]) continue;
      const match = await route(method, concrete);
      expect(match.kind, `${method} ${path}`).toBe('route');
      if (match.kind === 'route') {
        expect(`/api/v1${match.route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`).toBe(path);
      }
    }
    const publicDocumented = documented.filter(({ path, method }) => publicRoutes[`${method} ${path}`]);
    expect(publicDocumented.map((d) => d.path).sort()).toEqual([
      '/api/v1/openapi.json',
      '/healthz',
      '/readyz',
    ]);
  });

  it('gives every operation a unique operationId and documents a 429 and a 500 on each but the probes', () => {
    const ids = documented.map(({ path, method }) => doc.paths[path]?.[method.toLowerCase()]?.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method } of documented) {
      // The probes skip the rate limit; liveness cannot fail, readiness fails with a 503.
      if ((probePaths as readonly string[]).includes(path)) continue;
      const responses = doc.paths[path]?.[method.toLowerCase()]?.responses as Record<string, unknown>;
      expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(['429', '500']));
    }
  });

  it('describes creates with 201, a replayed 200, a required Idempotency-Key and the 4xx the pipeline answers', () => {
    const create = doc.paths['/api/v1/issues']?.post as {
      parameters: { $ref?: string }[];
      responses: Record<string, unknown>;
    };
    expect(Object.keys(create.responses).sort()).toEqual(
      ['200', '201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503'].sort(),
    );
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKeyRequired' });
    const patch = doc.paths['/api/v1/issues/{id}']?.patch as { responses: Record<string, unknown> };
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '428']));
    const get = doc.paths['/api/v1/issues/{id}']?.get as { responses: Record<string, unknown> };
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '304', '404']));
  });

  it('requires the bearer token everywhere but on the public endpoints', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' } });
    expect(doc.paths['/api/v1/openapi.json']?.get?.security).toEqual([]);
    expect(doc.paths['/api/v1/issues']?.get?.security).toBeUndefined();
  });

  it('shows the webhook secret only in the answers of create and rotate-secret', () => {
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(schemas.Webhook?.properties).not.toHaveProperty('secret');
    expect(schemas.WebhookCreated?.properties).toHaveProperty('secret');
    expect(schemas.WebhookRotated?.properties).toHaveProperty('secret');
    const created = doc.paths['/api/v1/webhooks']?.post?.responses as Record<string, unknown>;
    expect(JSON.stringify(created['201'])).toContain('#/components/schemas/WebhookCreated');
    const read = doc.paths['/api/v1/webhooks/{id}']?.get?.responses as Record<string, unknown>;
    expect(JSON.stringify(read['200'])).toContain('#/components/schemas/Webhook"');
  });

  it('closes every resource object, so an undocumented field is a schema violation', () => {
    const schemas = doc.components.schemas as Record<string, { additionalProperties?: unknown }>;
    for (const name of [
      'Issue',
      'Project',
      'Outcome',
      'ContextItem',
      'Decision',
      'TimeEntry',
      'Webhook',
      'Problem',
    ]) {
      expect(schemas[name]?.additionalProperties, name).toBe(false);
    }
  });

  it('has a webhooks entry per event type of the catalog, with the signed delivery body', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...eventTypes].sort());
    const entry = doc.webhooks['issue.status_changed'] as {
      post: { parameters: { name: string; required: boolean }[]; requestBody: unknown };
    };
    expect(entry.post.parameters.map((p) => [p.name, p.required])).toEqual([
      ['X-Service-Signature', true],
      ['X-Service-Event-Id', true],
    ]);
    const schemas = doc.components.schemas as Record<
      string,
      { required: string[]; properties: Record<string, unknown> }
    >;
    expect(schemas.IssueStatusChangedEvent?.required).toEqual(['id', 'type', 'occurredAt', 'data']);
    expect(schemas.IssueStatusChangedEvent?.properties.type).toEqual({
      type: 'string',
      const: 'issue.status_changed',
    });
  });

  it('states the If-Match rule the server checks: the pattern admits exactly what is not refused with 400', () => {
    const parameters = doc.components.parameters as Record<string, { schema: { pattern: string } }>;
    for (const name of ['IfMatchRequired', 'IfMatchOptional']) {
      const pattern = new RegExp(parameters[name]?.schema.pattern ?? '(?!)');
      const values = [
        '*',
        ' * ',
        '"3"',
        'W/"3"',
        '3',
        '"3", "4"',
        '"3"\t,\t"4"',
        '\t"3"',
        '"3",4',
        '"a-b"',
        '',
        ' ',
        ',',
        '"3",',
        ',"3"',
        '"3",,"4"',
        '"3" "4"',
        '"a b"',
        '"a\tb"',
        '\u000b"3"',
        '\u00a0"3"',
        '"\u00e9"',
        '*, "3"',
        '"3',
        'W/3',
        'w/"3"',
      ];
      for (const value of values) {
        let refused = false;
        try {
          parseIfMatch(value);
        } catch {
          refused = true;
        }
        expect({ value, admitted: pattern.test(value) }).toEqual({ value, admitted: !refused });
      }
      // Both sides of the line are exercised.
      expect(values.filter((value) => pattern.test(value)).length).toBeGreaterThan(5);
      expect(values.filter((value) => !pattern.test(value)).length).toBeGreaterThan(5);
    }
  });

  it('documents on every list that a cursor it did not answer is 400 invalid_cursor', () => {
    let lists = 0;
    for (const item of Object.values(doc.paths)) {
      const get = (item as Record<string, { parameters?: { name?: string; description?: string }[] }>).get;
      const cursor = get?.parameters?.find((parameter) => parameter.name === 'cursor');
      if (!cursor) continue;
      lists++;
      expect(cursor.description).toMatch(/400 invalid_cursor/);
    }
    expect(lists).toBeGreaterThan(8);
  });

  it('documents the problem body with the extras of validation_failed and invalid_transition', () => {
    const problem = doc.components.schemas.Problem as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'error']);
    expect(Object.keys(problem.properties)).toEqual(
      expect.arrayContaining(['issues', 'from', 'to', 'allowed']),
    );
  });
});

describe('the served document', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('node');
  });
  afterAll(async () => {
    await s.close();
  });

  it('is answered at GET /api/v1/openapi.json without a token, equal to the generated one', async () => {
    const res = await s.api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
