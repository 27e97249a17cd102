import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allIssues,
  createIssue,
  TrackerError,
  trackerClient,
  transitionIssue,
} from '../../examples/typed-client/client.js';
import { newKey, startServer, type TestServer } from '../http/harness.js';

describe('the typed client example (openapi-typescript + openapi-fetch)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('node');
  });
  afterAll(async () => {
    await s.close();
  });

  it('creates issues, pages through all of them and transitions one against a real server', async () => {
    const client = trackerClient(s.url, s.tokens.admin);
    const created = [];
    for (const title of ['Login fails', 'Slow search', 'Typo on home page', 'Crash on save', 'Dark mode']) {
      created.push(await createIssue(client, { projectId: s.ws.projectId, title, severity: 'high' }));
      s.clock.advance(1000);
    }
    expect(created.map((i) => i.key)).toEqual(['APO-1', 'APO-2', 'APO-3', 'APO-4', 'APO-5']);

    const seen = [];
    for await (const issue of allIssues(client, { projectId: s.ws.projectId, limit: 2 })) seen.push(issue.id);
    expect(seen).toEqual(created.map((i) => i.id).reverse());

    const moved = await transitionIssue(client, 'APO-3', 'in_progress');
    expect({ id: moved.id, status: moved.status, version: moved.version }).toEqual({
      id: created[2]?.id,
      status: 'in_progress',
      version: 2,
    });
  });

  it('surfaces a refused transition as a typed problem with the allowed statuses', async () => {
    const client = trackerClient(s.url, s.tokens.admin);
    const issue = await createIssue(client, { projectId: s.ws.projectId, title: 'Refused move' });
    await transitionIssue(client, issue.id, 'resolved');
    const failure = await transitionIssue(client, issue.id, 'in_progress').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TrackerError);
    expect((failure as TrackerError).problem).toMatchObject({
      status: 422,
      error: 'invalid_transition',
      from: 'resolved',
      to: 'in_progress',
      allowed: ['closed', 'open'],
    });
  });

  it('makes a retried create with the same Idempotency-Key return the first issue', async () => {
    const client = trackerClient(s.url, s.tokens.admin);
    const key = newKey();
    const input = { projectId: s.ws.projectId, title: 'Retried create' };
    const first = await createIssue(client, input, key);
    const again = await createIssue(client, input, key);
    expect(again).toEqual(first);
  });
});
