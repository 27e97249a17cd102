import { afterEach, beforeEach, expect } from 'vitest';
import type { SignalEvent } from '../../../src/core/index.js';
import type { AdapterUnderTest } from '../../support/adapters.js';
import { type ApiResponse, type Host, newKey, startServer, type TestServer } from '../harness.js';

/** Shared helpers of the family suites: each suite gets a fresh server per test, without a rate limit. */

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
export type Json = any;

const mediaType = (res: ApiResponse) => res.headers.get('content-type')?.split(';')[0]?.trim();

/** A JSON success with exactly this status; returns its body (the body is shown when the status differs). */
export function expectJson(res: ApiResponse, status: number): Json {
  expect({ status: res.status, body: res.status === status ? undefined : res.json }).toEqual({
    status,
    body: undefined,
  });
  expect(mediaType(res)).toBe('application/json');
  return res.json;
}

/** A problem+json answer with this status and error code; returns its body. */
export function expectProblem(res: ApiResponse, status: number, error: string): Json {
  expect({ status: res.status, error: res.json?.error }).toEqual({ status, error });
  expect(mediaType(res)).toBe('application/problem+json');
  expect(res.json).toMatchObject({ status, error, detail: expect.stringMatching(/\S/) });
  return res.json;
}

/** The `path`s of a validation_failed answer's issues in one location (`body`, `query`…). */
export function issuePaths(res: ApiResponse, location = 'body'): string[] {
  const problem = expectProblem(res, 400, 'validation_failed');
  return (problem.issues as { in: string; path: string }[])
    .filter((i) => i.in === location)
    .map((i) => i.path);
}

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

/** Every signal of the main account so far, in sequence order. */
export const signalsOf = (s: TestServer): Promise<SignalEvent[]> =>
  s.storage.transaction((tx) => tx.signals.list({ accountId: s.ws.accountId, limit: 1000 }));

/** Runs `action` and returns the types of the signals it wrote to the main account. */
export async function signalTypesOf(s: TestServer, action: () => Promise<unknown>): Promise<string[]> {
  const before = (await signalsOf(s)).length;
  await action();
  return (await signalsOf(s)).slice(before).map((e) => e.type);
}

/**
 * Follows nextCursor from the first page of `path` (which may already carry a query) with
 * `limit`, checking that `total` stays the same on every page; returns every item's id in order.
 */
export async function pageToEnd(s: TestServer, path: string, limit: number): Promise<string[]> {
  const http = client(s);
  const join = path.includes('?') ? '&' : '?';
  const ids: string[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  for (let page = 0; page < 100; page++) {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const body = await http.list(`${path}${join}limit=${limit}${after}`);
    expect(body.data.length).toBeLessThanOrEqual(limit);
    total ??= body.total;
    expect(body.total).toBe(total);
    ids.push(...body.data.map((item: { id: string }) => item.id));
    cursor = body.nextCursor;
    if (cursor === null) return ids;
  }
  throw new Error(`${path} did not reach its last page`);
}

/** Ids of a list answer, in order. */
export const idsOf = (page: Json): string[] => page.data.map((item: { id: string }) => item.id);
