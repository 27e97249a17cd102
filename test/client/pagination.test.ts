import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/client/index.js';
import { issues } from '../../src/core/index.js';
import { type ClientFixture, clientFixture, modes } from './harness.js';

const count = 300;

describe.each(modes)('pagination over %d issues (%s)', (mode) => {
  let f: ClientFixture;
  let client: Client;
  let ids: string[];
  beforeAll(async () => {
    f = await clientFixture(mode);
    client = f.client();
    ids = [];
    for (let i = 0; i < count; i++) {
      const issue = await f.tracker.run({ workspaceSlug: f.ws.slug }, (ctx) =>
        issues.create(ctx, {
          projectId: f.ws.projectId,
          title: `Issue ${i}`,
          severity: i % 3 === 0 ? 'high' : 'low',
        }),
      );
      ids.push(issue.id);
      f.clock.advance(i % 7 === 0 ? 0 : 1);
    }
  });
  afterAll(async () => {
    await f.close();
  });

  it('for await follows nextCursor and yields each item once, newest first', async () => {
    const seen: string[] = [];
    for await (const issue of client.issues.list({ projectId: f.ws.projectId, limit: 7 }))
      seen.push(issue.id);
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it('items created while paging neither repeat nor shift what was there', async () => {
    const seen: string[] = [];
    let made = 0;
    for await (const issue of client.issues.list({
      projectId: f.ws.projectId,
      severity: 'high',
      limit: 10,
    })) {
      seen.push(issue.id);
      if (seen.length % 10 === 0 && made < 5) {
        f.clock.advance(1000);
        await client.issues.create({ projectId: f.ws.projectId, title: `Late ${made++}`, severity: 'high' });
      }
    }
    const high = ids.filter((_, i) => i % 3 === 0);
    expect(seen).toHaveLength(high.length);
    expect(new Set(seen)).toEqual(new Set(high));
  });

  it('.page() gives one page with total and nextCursor, and the next page from that cursor', async () => {
    const listing = client.issues.list({ projectId: f.ws.projectId, severity: 'low', limit: 50 });
    const first = await listing.page();
    const lowCount = ids.filter((_, i) => i % 3 !== 0).length;
    expect(first.data).toHaveLength(50);
    expect(first.total).toBe(lowCount);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listing.page(first.nextCursor);
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
    expect(new Set([...first.data, ...second.data].map((i) => i.id)).size).toBe(100);

    let pages = 0;
    for await (const page of listing.pages()) {
      pages++;
      expect(page.total).toBe(lowCount);
    }
    expect(pages).toBe(Math.ceil(lowCount / 50));
  });
});
