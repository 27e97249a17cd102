import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type Client } from '../../src/client/index.js';
import { type ClientFixture, clientFixture, modes } from './harness.js';

describe.each(modes)('client.batch, %s', (mode) => {
  let f: ClientFixture;
  let client: Client;
  beforeAll(async () => {
    f = await clientFixture(mode);
    client = f.client();
  });
  afterAll(async () => {
    await f.close();
  });

  it('applies every operation and resolves with their results in order', async () => {
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'Batched' });
    const { results } = await client.batch([
      { method: 'POST', path: '/issues', body: { projectId: f.ws.projectId, title: 'Also batched' } },
      { method: 'PATCH', path: `/issues/${issue.key}`, ifMatch: issue.etag, body: { severity: 'high' } },
    ]);
    expect(results.map((r) => [r.status, r.etag])).toEqual([
      [201, '"1"'],
      [200, '"2"'],
    ]);
    expect((await client.issues.get(issue.id)).severity).toBe('high');
  });

  it('rejects with the failed operation problem, failedIndex and outcomes, and applies none', async () => {
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'Untouched' });
    const failed = await client
      .batch([
        { method: 'PATCH', path: `/issues/${issue.id}`, ifMatch: '"1"', body: { severity: 'low' } },
        { method: 'PATCH', path: `/issues/${issue.id}`, ifMatch: '"1"', body: { severity: 'high' } },
      ])
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    const problem = (failed as ApiError).problem;
    expect({ status: problem.status, error: problem.error, failedIndex: problem.failedIndex }).toEqual({
      status: 409,
      error: 'version_conflict',
      failedIndex: 1,
    });
    expect(problem.operations?.map((o) => o.outcome)).toEqual(['rolled_back', 'failed']);
    expect(await client.issues.get(issue.id)).toMatchObject({ severity: issue.severity, version: 1 });
  });
});
