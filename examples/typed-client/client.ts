/**
 * A typed outcome-tracker client: openapi-fetch over the `paths` and `components` types that
 * `outcome-tracker/client` exports (openapi-typescript's output for the served OpenAPI document,
 * kept fresh by a test). Paths, parameters, bodies and answers are all checked by the compiler
 * against the document. Against another version of the server, generate your own with
 * `npx openapi-typescript https://<host>/api/v1/openapi.json -o schema.d.ts`.
 */
import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from 'outcome-tracker/client';

export type Issue = components['schemas']['Issue'];
export type IssueCreate = components['schemas']['IssueCreate'];
export type IssueStatus = Issue['status'];
export type Problem = components['schemas']['Problem'];
export type TrackerClient = Client<paths>;

/** A problem+json answer, thrown so callers can branch on its `error` code. */
export class TrackerError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.error}: ${problem.detail}`);
    this.name = 'TrackerError';
  }
}

/** A client for the server at `baseUrl` (e.g. `http://127.0.0.1:3000`) acting with an API token. */
export function trackerClient(baseUrl: string, token: string): TrackerClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
}

/** Creates an issue; the Idempotency-Key makes a retry of this call safe. */
export async function createIssue(
  client: TrackerClient,
  input: IssueCreate,
  idempotencyKey: string = randomUUID(),
): Promise<Issue> {
  const { data, error } = await client.POST('/api/v1/issues', {
    params: { header: { 'Idempotency-Key': idempotencyKey } },
    body: input,
  });
  if (error) throw new TrackerError(error);
  return data;
}

/** Every issue matching the filters, following nextCursor page by page until it is null. */
export async function* allIssues(
  client: TrackerClient,
  query: NonNullable<paths['/api/v1/issues']['get']['parameters']['query']> = {},
): AsyncGenerator<Issue> {
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET('/api/v1/issues', {
      params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
    });
    if (error) throw new TrackerError(error);
    yield* data.data;
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
}

/** Moves an issue to another status; 422 invalid_transition names the statuses allowed. */
export async function transitionIssue(
  client: TrackerClient,
  idOrKey: string,
  to: IssueStatus,
): Promise<Issue> {
  const { data, error } = await client.POST('/api/v1/issues/{id}/transition', {
    params: { path: { id: idOrKey } },
    body: { to },
  });
  if (error) throw new TrackerError(error);
  return data;
}
