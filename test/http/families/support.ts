import { afterEach, beforeEach, describe } from 'vitest';
import type { AdapterUnderTest } from '../../support/adapters.js';
import { type Host, newKey, startServer, type TestServer } from '../harness.js';
import { expectJson, type Json } from './answers.js';

/** Shared helpers of the family suites: each suite gets a fresh server per test, without a rate limit. */

/** What a family suite runs against: one host over one storage adapter. */
export interface Target {
  host: Host;
  adapter: AdapterUnderTest;
}

/** `the node host on sqlite`, for suite titles. */
export const labelOf = (target: Target): string => `the ${target.host} host on ${target.adapter.name}`;

/**
 * Starts a fresh server through the target's host on a fresh store before each test and closes
 * both after; the returned getter reads the current one. The rate limit is off: these suites
 * send many requests per test.
 */
export function useServer(target: Target): () => TestServer {
  let server: TestServer | undefined;
  beforeEach(async () => {
    server = await startServer(target.host, { rateLimit: false, storage: await target.adapter.create() });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return () => {
    if (!server) throw new Error('no server: call inside a test');
    return server;
  };
}

/** A describe block titled `<title> through the <host> host on <adapter>`, with a fresh server per test. */
export function describeThrough(
  target: Target,
  title: string,
  body: (server: () => TestServer) => void,
): void {
  describe(`${title} through ${labelOf(target)}`, () => body(useServer(target)));
}

/** A small client over one server: the admin token unless told otherwise. */
export function client(s: TestServer) {
  const admin = s.tokens.admin;
  return {
    /** POST a create with a fresh Idempotency-Key (or the given one). */
    post: (path: string, body: unknown, options: { token?: string; key?: string } = {}) =>
      s.api('POST', `/api/v1${path}`, {
        token: options.token ?? admin,
        headers: { 'Idempotency-Key': options.key ?? newKey() },
        body,
      }),
    /** POST a create that must answer 201; returns the resource. */
    create: async (path: string, body: unknown, token = admin): Promise<Json> =>
      expectJson(
        await s.api('POST', `/api/v1${path}`, {
          token,
          headers: { 'Idempotency-Key': newKey() },
          body,
        }),
        201,
      ),
    get: (path: string, token = admin, headers: Record<string, string> = {}) =>
      s.api('GET', `/api/v1${path}`, { token, headers }),
    /** GET a list that must answer 200; returns the envelope. */
    list: async (path: string, token = admin): Promise<Json> =>
      expectJson(await s.api('GET', `/api/v1${path}`, { token }), 200),
    patch: (path: string, body: unknown, ifMatch: string | null, token = admin) =>
      s.api('PATCH', `/api/v1${path}`, {
        token,
        body,
        headers: ifMatch === null ? {} : { 'If-Match': ifMatch },
      }),
    remove: (path: string, ifMatch: string | null = null, token = admin) =>
      s.api('DELETE', `/api/v1${path}`, {
        token,
        headers: ifMatch === null ? {} : { 'If-Match': ifMatch },
      }),
  };
}
