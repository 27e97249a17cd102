import { expect } from 'vitest';
import type { ApiResponse } from '../harness.js';

/** Assertions on one answer of the API: a JSON success, a problem, a validation failure's fields. */

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
