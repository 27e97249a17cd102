import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { adminArea } from '../../src/admin/index.js';
import { createTracker, type TrackerExtension } from '../../src/core/index.js';

const get = (path: string) => ({ method: 'GET', path, headers: {} });

describe('the admin area as an extension', () => {
  it('is absent unless mounted: its paths answer as unknown paths, in problem+json', async () => {
    const tracker = createTracker({ storage: memoryStorage(), onError: () => {} });
    for (const path of ['/', '/sign-in', '/acme/admin/api-tokens', '/invite/x', '/no-such-page']) {
      const answer = await tracker.handle(get(path));
      expect(answer.status, path).toBe(404);
      expect(answer.headers['Content-Type'], path).toBe('application/problem+json; charset=utf-8');
      expect(JSON.parse(String(answer.body)).error, path).toBe('not_found');
    }
    // The API's own pages stay.
    expect((await tracker.handle(get('/docs'))).status).toBe(200);
    expect((await tracker.handle(get('/api/v1/openapi.json'))).status).toBe(200);
    await tracker.close();
  });

  it('mounted, answers the landing page, the sign-in page and HTML error pages', async () => {
    const tracker = createTracker({ storage: memoryStorage(), extensions: [adminArea()] });
    for (const path of ['/', '/sign-in']) {
      const answer = await tracker.handle(get(path));
      expect(answer.status, path).toBe(200);
      expect(answer.headers['Content-Type'], path).toMatch(/^text\/html/);
    }
    const missing = await tracker.handle(get('/no-such-page'));
    expect(missing.status).toBe(404);
    expect(missing.headers['Content-Type']).toMatch(/^text\/html/);
    // The API keeps problem+json.
    const api = await tracker.handle(get('/api/v1/no-such'));
    expect(api.headers['Content-Type']).toBe('application/problem+json; charset=utf-8');
    await tracker.close();
  });

  it('refuses two extensions claiming one open route', () => {
    const landing: TrackerExtension = {
      name: 'landing',
      mount: () => ({ openRoutes: { 'GET /': async () => ({ status: 200, body: {} }) } }),
    };
    expect(() => createTracker({ storage: memoryStorage(), extensions: [adminArea(), landing] })).toThrow(
      'extension landing: GET / is answered already',
    );
  });

  it('asks extensions in order for their pages', async () => {
    const hello: TrackerExtension = {
      name: 'hello',
      mount: ({ basePath }) => ({
        match: (method, path) =>
          method === 'GET' && path === '/hello'
            ? { readsOnly: true, answer: async () => ({ status: 200, body: { basePath } }) }
            : null,
      }),
    };
    const tracker = createTracker({ storage: memoryStorage(), extensions: [hello, adminArea()] });
    const answer = await tracker.handle(get('/hello'));
    expect(JSON.parse(String(answer.body))).toEqual({ basePath: '/api/v1' });
    expect((await tracker.handle(get('/sign-in'))).status).toBe(200);
    await tracker.close();
  });
});
