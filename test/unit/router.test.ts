import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/core/pipeline/route.js';
import { createRouter, type RouteMatch } from '../../src/core/pipeline/router.js';

const route = (method: Route['method'], path: string, summary = `${method} ${path}`): Route =>
  ({
    method,
    path,
    summary,
    operationId: summary,
    description: summary,
    examples: {},
    access: 'read',
    kind: 'read',
    handle: async () => ({ status: 200 }),
  }) as unknown as Route;

const routes = [
  route('GET', '/issues'),
  route('POST', '/issues'),
  route('GET', '/issues/:id'),
  route('PATCH', '/issues/:id'),
  route('POST', '/issues/:id/transition'),
  route('GET', '/issues/search'),
  route('GET', '/webhooks/:id/deliveries/:deliveryId'),
];
const match = createRouter(routes);
const summary = (m: RouteMatch) => (m.kind === 'route' ? m.route.summary : m.kind);

describe('router', () => {
  it('matches a static path by method', async () => {
    expect(summary(await match('GET', '/api/v1/issues'))).toBe('GET /issues');
    expect(summary(await match('POST', '/api/v1/issues'))).toBe('POST /issues');
  });

  it('captures parameters as sent, still percent-encoded', async () => {
    const m = await match('GET', '/api/v1/webhooks/wh%201/deliveries/d_2');
    expect(m).toMatchObject({ kind: 'route', params: { id: 'wh%201', deliveryId: 'd_2' } });
  });

  it('takes a path declared as written for that path alone, where a parameter would match it too', async () => {
    expect(summary(await match('GET', '/api/v1/issues/search'))).toBe('GET /issues/search');
    // Another method is told the static path's methods, not routed to the parameter's.
    expect(await match('PATCH', '/api/v1/issues/search')).toEqual({
      kind: 'method_not_allowed',
      allow: ['GET'],
    });
    expect(summary(await match('PATCH', '/api/v1/issues/searches'))).toBe('PATCH /issues/:id');
  });

  it('ignores trailing slashes but not empty segments', async () => {
    expect(summary(await match('GET', '/api/v1/issues/'))).toBe('GET /issues');
    expect(summary(await match('GET', '/api/v1/issues/APO-1//'))).toBe('GET /issues/:id');
    expect(summary(await match('GET', '/api/v1/issues//transition'))).toBe('not_found');
  });

  it('answers 405 with the methods of the path for another method', async () => {
    expect(await match('DELETE', '/api/v1/issues/APO-1')).toEqual({
      kind: 'method_not_allowed',
      allow: ['GET', 'PATCH'],
    });
  });

  it('answers not_found outside the API base and for unknown paths', async () => {
    for (const url of ['/issues', '/api/v1issues', '/api/v1/nothing', '/api/v1/issues/a/b/c']) {
      expect(summary(await match('GET', url))).toBe('not_found');
    }
  });

  it('parses the query: decoded, repeated names collected in order', async () => {
    const m = await match('GET', '/api/v1/issues?status=open&status=closed&q=a+b%26c&limit=5');
    expect(m).toMatchObject({ query: { status: ['open', 'closed'], q: 'a b&c', limit: '5' } });
  });

  it('matches paths a URL parser would rewrite as the parser reads them', async () => {
    expect(summary(await match('GET', '/api/v1/projects/../issues'))).toBe('GET /issues');
    const m = await match('GET', '/api/v1/issues/é');
    expect(m).toMatchObject({ kind: 'route', params: { id: '%C3%A9' } });
  });
});
