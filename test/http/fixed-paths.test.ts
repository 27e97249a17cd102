import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, statusesOf } from '../hardening/raw-socket.js';
import { hosts, startServer, type TestServer } from './harness.js';

/** The probes and the API description answer GET and HEAD; other methods are told which do. */
describe.each(hosts)('the fixed paths through the %s host', (host) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(host);
  });
  afterAll(() => s.close());

  it.each(['/healthz', '/readyz', '/api/v1/openapi.json'])(
    'answers %s to POST, PUT, PATCH and DELETE with 405, Allow: GET, HEAD, as problem+json',
    async (path) => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await fetch(`${s.url}${path}`, { method });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('x-request-id')).toBeTruthy();
        expect(((await res.json()) as { error: string }).error).toBe('method_not_allowed');
      }
      const options = await fetch(`${s.url}${path}`, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD');
      expect((await fetch(`${s.url}${path}`)).status).toBe(200);
    },
  );

  it('answers /members/invites as the fixed path it is: 405 with Allow: POST, not an update of a member "invites"', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await fetch(`${s.url}/api/v1/members/invites`, {
        method,
        headers: { authorization: `Bearer ${s.tokens.admin}` },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as { error: string }).error).toBe('method_not_allowed');
    }
  });

  it('answers a request line with a backslash in its target with a problem and an X-Request-Id', async () => {
    const { received } = await rawExchange(s.url, [
      'GET /api/v1\\projects HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ]);
    const [status] = statusesOf(received);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(received).toMatch(/content-type: application\/problem\+json/i);
    expect(received).toMatch(/x-request-id: \S+/i);
  });
});
