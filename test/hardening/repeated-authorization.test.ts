import { afterEach, describe, expect, it } from 'vitest';
import { hosts, startServer, type TestServer } from '../http/harness.js';
import { rawExchange, statusesOf } from './raw-socket.js';

/**
 * Node keeps the first of repeated Authorization headers; a proxy in front may act on the last.
 * Both hosts refuse the request instead of answering it as either token.
 */
describe.each(hosts)('a repeated Authorization header through the %s host', (host) => {
  let server: TestServer;
  afterEach(() => server?.close());

  const get = (authorizations: string[]) =>
    'GET /api/v1/projects HTTP/1.1\r\nHost: tracker\r\n' +
    authorizations.map((value) => `Authorization: ${value}\r\n`).join('') +
    'Connection: close\r\n\r\n';

  it('is refused with 401, whichever comes first', async () => {
    server = await startServer(host);
    const valid = `Bearer ${server.tokens.admin}`;
    const other = `Bearer ${server.other.adminToken}`;
    for (const pair of [
      [valid, other],
      [other, valid],
      [valid, valid],
    ]) {
      const exchange = await rawExchange(server.url, [get(pair)]);
      expect(statusesOf(exchange.received), pair.join(' | ')).toEqual([401]);
      expect(exchange.received).toContain('"error":"unauthorized"');
    }
    // One header is answered as ever.
    expect(statusesOf((await rawExchange(server.url, [get([valid])])).received)).toEqual([200]);
  });
});
