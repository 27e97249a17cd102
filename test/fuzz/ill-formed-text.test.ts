import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/openapi/document.js';
import { rawExchange, statusesOf } from '../hardening/raw-socket.js';
import { hosts, type TestServer } from '../http/harness.js';
import { adapterSuites } from '../support/adapters.js';
import { violations } from './invariants.js';
import { listOperations, type Operation } from './operations.js';
import type { FuzzRequest } from './request-arbitraries.js';
import { send } from './send.js';
import { fuzzServer } from './server.js';
import { seedTargets } from './targets.js';

/**
 * Text no value of the API has, in every path parameter, query parameter, header and form field
 * of every operation: a NUL, a lone surrogate, overlong and truncated UTF-8. Each is refused with
 * the same 400 problem on every adapter (PostgreSQL's text cannot hold a NUL: it answered 500).
 */
const inUrl: Record<string, string> = {
  NUL: '%00',
  'NUL inside': 'a%00b',
  'overlong NUL': '%C0%80',
  'overlong slash': '%C0%AF',
  'encoded lone surrogate': '%ED%A0%80',
  'truncated sequence': '%E2%82',
};
/** Header values go on the wire as latin1: each character below is one byte. */
const inHeader: Record<string, string> = {
  'overlong NUL': '\u00c0\u0080',
  'encoded lone surrogate': '\u00ed\u00a0\u0080',
  'lone byte': 'x\u00ff',
};

const doc = openApiDocument();
const operations = listOperations(doc);

/** Every request of the run: for each operation, each of its parameters and one extra header, each flaw. */
function hostileRequests(op: Operation, token: string, pathValue: (name: string) => string): FuzzRequest[] {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const build = (path: Record<string, string>, query: string, headers: Record<string, string>) => {
    let url = op.template;
    for (const p of pathParams)
      url = url.replace(`{${p.name}}`, path[p.name] ?? encodeURIComponent(pathValue(p.name)));
    return {
      method: op.method,
      path: query ? `${url}?${query}` : url,
      headers: { ...(op.open ? {} : { authorization: `Bearer ${token}` }), ...headers },
      body: null,
    } satisfies FuzzRequest;
  };
  const requests: FuzzRequest[] = [];
  for (const value of Object.values(inUrl)) {
    for (const p of op.parameters) {
      if (p.in === 'path') requests.push(build({ [p.name]: value }, '', {}));
      if (p.in === 'query') requests.push(build({}, `${p.name}=${value}`, {}));
    }
    // A query parameter the operation does not have is refused for its text all the same.
    requests.push(build({}, `${value}=1`, {}));
  }
  for (const value of Object.values(inHeader)) {
    for (const p of op.parameters) if (p.in === 'header') requests.push(build({}, '', { [p.name]: value }));
    requests.push(build({}, '', { 'x-anything': value }));
  }
  return requests;
}

// The hosts differ in how they read a request (its URL, headers and body), so the memory adapter's
// suite runs through both; the stores differ in what text they can hold, so the SQLite and
// PostgreSQL suites run too, through one host: what reaches a store has crossed the same core.
const hostsFor = (adapter: string) => (adapter === 'memory' ? hosts : (['node'] as const));

for (const [adapter, describeSuite] of adapterSuites) {
  for (const host of hostsFor(adapter.name))
    describeSuite(`ill-formed text is refused at the edge (${host} host, ${adapter.name})`, () => {
      let s: TestServer;
      const unexpected: string[] = [];
      beforeAll(async () => {
        s = await fuzzServer(host, await adapter.create(), unexpected);
      }, 60_000);
      afterAll(async () => {
        await s?.close();
      });

      it('answers 400 validation_failed, a problem with the usual headers, to each flaw in every parameter and header of every operation', async () => {
        const targets = await seedTargets(s);
        const failures: string[] = [];
        let sent = 0;
        for (const op of operations) {
          const pathValue = (name: string) => targets.pathValues(op.template, name)[0] ?? 'x';
          for (const req of hostileRequests(op, targets.tokens.admin, pathValue)) {
            sent++;
            const res = await send(s.url, req);
            const found = violations(req, res);
            // The probes and the API description read no id, query value or header of a request
            // (but a validator to compare): they answer as ever, never 5xx (violations).
            if (op.open) {
              if (res.status !== 200) found.push(`status ${res.status}`);
            } else if (res.status !== 400) found.push(`status ${res.status}`);
            else if (req.method !== 'HEAD' && JSON.parse(res.text).error !== 'validation_failed') {
              found.push(`error ${JSON.parse(res.text).error}`);
            }
            if (found.length > 0)
              failures.push(`${req.method} ${req.path} ${JSON.stringify(req.headers)}: ${found.join('; ')}`);
          }
        }
        expect(failures.slice(0, 20)).toEqual([]);
        expect(sent).toBeGreaterThan(operations.length * 8);
        expect(unexpected).toEqual([]);
      }, 120_000);

      it('refuses a NUL in the sign-in form (no token, no session) with the same 400 problem', async () => {
        const forms = [
          ['email=a%00b%40example.com&password=x', 'email'],
          ['email=%C0%80&password=x', 'email'],
          ['email=x&password=%ED%A0%80', 'password'],
        ];
        for (const [body, field] of forms) {
          const res = await send(s.url, {
            method: 'POST',
            path: '/sign-in',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: Buffer.from(body as string),
          });
          expect(res.status).toBe(400);
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(res.headers.get('x-request-id')).toBeTruthy();
          expect(JSON.parse(res.text).issues[0]).toMatchObject({ in: 'body', path: field });
        }
        // Raw bytes that are not UTF-8 in a form body.
        const raw = await send(s.url, {
          method: 'POST',
          path: '/sign-in',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x3d, 0xc0, 0x80]),
        });
        expect(raw.status).toBe(400);
        expect(unexpected).toEqual([]);
      });

      it('answers a raw NUL in a header value (which no HTTP client sends) without a 5xx', async () => {
        const { received } = await rawExchange(s.url, [
          `GET /api/v1/issues HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.tokens.admin}\r\nX-Anything: a\u0000b\r\nConnection: close\r\n\r\n`,
        ]);
        const [status] = statusesOf(received);
        expect(status).toBe(400);
      });
    });
}
