import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import type { IssueStatus, SignalEvent } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import type { ApiResponse, Host, ServerOptions, TestServer } from './harness.js';

/** The contract's transition table (§5), copied here so the suite checks the code against the text. */
export const transitionTable: Record<IssueStatus, IssueStatus[]> = {
  open: ['in_progress', 'blocked', 'resolved', 'closed'],
  in_progress: ['open', 'blocked', 'resolved'],
  blocked: ['open', 'in_progress', 'resolved'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};
export const statuses = Object.keys(transitionTable) as IssueStatus[];

/** How to bring a fresh (open) issue to each status with allowed transitions. */
export const pathTo: Record<IssueStatus, IssueStatus[]> = {
  open: [],
  in_progress: ['in_progress'],
  blocked: ['blocked'],
  resolved: ['resolved'],
  closed: ['closed'],
};

export const iso = (ms: number) => new Date(ms).toISOString();

/** A GET that carries a body, which fetch refuses to send: through node:http. */
export function getWithBody(
  url: string,
  token: string,
  contentType: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
export const mediaType = (res: ApiResponse) => res.headers.get('content-type')?.split(';')[0]?.trim();
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** X-Request-Id and the five rate-limit headers of CONTRACT §4, consistent with each other. */
export function expectCommonHeaders(res: ApiResponse, limit = 100): void {
  expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  const remaining = res.headers.get('x-ratelimit-remaining');
  const reset = res.headers.get('x-ratelimit-reset');
  expect(remaining).toMatch(/^\d+$/);
  expect(reset).toMatch(/^\d+$/);
  expect(Number(remaining)).toBeLessThanOrEqual(limit);
  expect(res.headers.get('ratelimit-policy')).toBe(`"default";q=${limit};w=60`);
  expect(res.headers.get('ratelimit')).toBe(`"default";r=${remaining};t=${reset}`);
}

/** A problem+json response with exactly this status and error code; returns its body. */
// biome-ignore lint/suspicious/noExplicitAny: the problem body carries per-error extras
export function expectProblem(res: ApiResponse, status: number, error: string, limit = 100): any {
  expect({ status: res.status, error: res.json?.error }).toEqual({ status, error });
  expect(mediaType(res)).toBe('application/problem+json');
  expect(res.json).toMatchObject({
    type: expect.stringMatching(/\S/),
    title: expect.stringMatching(/\S/),
    status,
    detail: expect.stringMatching(/\S/),
    error,
  });
  // Never a stack trace in an error body.
  expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expectCommonHeaders(res, limit);
  return res.json;
}

/** A JSON success with exactly this status; returns its body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
export function expectJson(res: ApiResponse, status: number, limit = 100): any {
  expect({ status: res.status, body: res.status === status ? undefined : res.json }).toEqual({
    status,
    body: undefined,
  });
  expect(mediaType(res)).toBe('application/json');
  expectCommonHeaders(res, limit);
  return res.json;
}

/** The validation issues' paths of one location. */
// biome-ignore lint/suspicious/noExplicitAny: problem extras
export const issuePaths = (problem: any, location: string): string[] =>
  (problem.issues as { in: string; path: string }[]).filter((i) => i.in === location).map((i) => i.path);

/**
 * What every part of the HTTP suite is given: the server of the current test (a fresh one each
 * test) and the helpers that act on it. Parts read `server()` in their own beforeEach, which runs
 * after the suite's, so they always see the current test's server.
 */
export interface HttpSuiteContext {
  host: Host;
  adapter: AdapterUnderTest | undefined;
  server(): TestServer;
  /** Another server with other options, closed after the test. */
  startExtra(options: ServerOptions): Promise<TestServer>;
  createIssue(
    body?: Record<string, unknown>,
    options?: { token?: string; key?: string; server?: TestServer },
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  ): Promise<any>;
  transition(id: string, to: IssueStatus, headers?: Record<string, string>): Promise<ApiResponse>;
  signals(server?: TestServer): Promise<SignalEvent[]>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  listIssues(query?: string, token?: string): Promise<any>;
}
