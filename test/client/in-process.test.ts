import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, inProcessFetch } from '../../src/client/index.js';
import { type ClientFixture, clientFixture } from './harness.js';

describe('in-process use through tracker.handle()', () => {
  let f: ClientFixture;
  beforeAll(async () => {
    f = await clientFixture('in-process');
  });
  afterAll(async () => {
    await f.close();
  });

  it('translates requests and answers both ways: bodies, headers, empty answers and event streams', async () => {
    // Only handle(): the translation the client falls back to when a tracker has no fetch.
    const tracker = { handle: f.tracker.handle.bind(f.tracker) };
    const client = createClient({ tracker, token: f.ws.adminToken });
    const outcome = await client.outcomes.create({ projectId: f.ws.projectId, title: 'Über ☃' });
    expect((await client.outcomes.get(outcome.id)).title).toBe('Über ☃');
    expect(outcome.etag).toBe('"1"');
    await client.outcomes.delete(outcome);
    await expect(client.outcomes.get(outcome.id)).rejects.toMatchObject({ status: 404 });

    const stream = client.signals.stream({ after: 0, types: ['outcome.deleted'] });
    const { value } = await stream.next();
    await stream.return();
    expect(value?.resource).toEqual({ type: 'outcome', id: outcome.id });

    const fetch = inProcessFetch(tracker);
    const notModified = await fetch(
      new Request(`http://tracker.local/api/v1/projects/${f.ws.projectId}`, {
        headers: { authorization: `Bearer ${f.ws.adminToken}`, 'if-none-match': '"1"' },
      }),
    );
    expect({
      status: notModified.status,
      etag: notModified.headers.get('etag'),
      body: await notModified.text(),
    }).toEqual({
      status: 304,
      etag: '"1"',
      body: '',
    });
  });

  it('refuses a request whose signal is already aborted, as fetch does', async () => {
    const fetch = inProcessFetch({ handle: f.tracker.handle.bind(f.tracker) });
    const controller = new AbortController();
    controller.abort();
    const request = new Request('http://tracker.local/healthz', { signal: controller.signal });
    await expect(fetch(request)).rejects.toThrow();
  });
});
