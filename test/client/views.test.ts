import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { type ClientFixture, clientFixture } from './harness.js';

describe('client.views', () => {
  let f: ClientFixture;
  beforeAll(async () => {
    f = await clientFixture('in-process');
  });
  afterAll(async () => {
    await f.close();
  });

  it('saves a view, runs it as the list with its query, changes it with its ETag and deletes it', async () => {
    const client = createClient({ tracker: f.tracker, token: f.ws.adminToken });
    for (const title of ['Crash on start', 'Crash on save', 'Typo in footer']) {
      await client.issues.create({
        projectId: f.ws.projectId,
        title,
        labels: title.startsWith('Crash') ? ['bug'] : [],
      });
    }
    const view = await client.views.create({ name: 'Bugs', resource: 'issues', query: 'label:bug' });
    expect(view).toMatchObject({ name: 'Bugs', resource: 'issues', query: 'label:bug', version: 1 });
    expect(view.etag).toBe('"1"');

    const run = await client.views.items(view, { limit: 1 }).toArray();
    const listed = await client.issues.list({ query: 'label:bug', limit: 1 }).toArray();
    expect(run).toEqual(listed);
    expect(run).toHaveLength(2);
    expect((await client.views.items(view.id).page()).total).toBe(2);

    const renamed = await client.views.update(view, { query: 'label:bug "on save"' });
    expect(renamed.version).toBe(2);
    expect(
      (await client.views.items(renamed).toArray()).map((issue) => (issue as { title: string }).title),
    ).toEqual(['Crash on save']);
    await expect(client.views.update(view, { name: 'Stale' })).rejects.toMatchObject({ status: 409 });
    expect((await client.views.list({ resource: 'issues' }).toArray()).map((v) => v.id)).toEqual([view.id]);
    await client.views.delete(renamed);
    await expect(client.views.get(view.id)).rejects.toMatchObject({ status: 404 });
  });
});
