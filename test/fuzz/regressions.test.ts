import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxBodyBytes } from '../../src/core/pipeline/body.js';
import { hosts, startServer, type TestServer } from '../http/harness.js';
import { send } from './send.js';

/** Defects the OpenAPI fuzzing found, each kept as the smallest request that showed it. */
describe.each(hosts)('fuzz regressions through the %s host', (host) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(host, { rateLimit: { limit: 100_000 } });
  });
  afterAll(() => s.close());

  it.each([
    ['just under the limit', maxBodyBytes - 10],
    ['over the limit', maxBodyBytes + 10],
  ])('answers a GET carrying a body %s with the whole of a large answer', async (_, size) => {
    // The OpenAPI document is some 200 kB: more than the socket buffers hold while the body is unread.
    const res = await send(s.url, {
      method: 'GET',
      path: '/api/v1/openapi.json',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(size, 0x61),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).openapi).toMatch(/^3\.1/);
  });
});
