import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issueSeverities } from '../../src/core/model.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, readSignals, runsOn } from './support.js';

const concurrent = 20;

/** One PATCH body per concurrent writer: each changes the issue, so none is a no-op. */
const patchFor = (field: 'title' | 'labels', i: number) =>
  field === 'title' ? { title: `Rewritten by writer ${i}` } : { labels: [`writer-${i}`] };

describe.each(adaptersUnderTest)('optimistic concurrency on $name storage', (adapter) => {
  it('let exactly one of 20 concurrent PATCHes with the same If-Match win and answer the others 409 with the current ETag', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...issueSeverities), { maxLength: 4 }),
        fc.constantFrom('title' as const, 'labels' as const),
        async (earlierSeverities, field) => {
          await inWorld(adapter, async (world) => {
            const created = await world.call('POST', '/issues', {
              body: { projectId: world.ws.projectId, title: 'Contended issue', severity: 'low' },
              headers: { 'idempotency-key': randomUUID() },
            });
            const id: string = created.json.id;
            // Earlier edits move the version along, so the contended one is not always 1.
            let etag: string = created.headers.etag ?? '';
            for (const severity of earlierSeverities) {
              const res = await world.call('PATCH', `/issues/${id}`, {
                body: { severity },
                headers: { 'if-match': etag },
              });
              expect(res.status).toBe(200);
              etag = res.headers.etag ?? '';
            }
            const read = await world.call('GET', `/issues/${id}`);
            expect(read.headers.etag).toBe(etag);
            const versionBefore: number = read.json.version;
            const sequenceBefore = (await readSignals(world)).at(-1)?.sequence ?? 0;

            const answers = await Promise.all(
              Array.from({ length: concurrent }, (_, i) =>
                world.call('PATCH', `/issues/${id}`, {
                  body: patchFor(field, i),
                  headers: { 'if-match': etag },
                }),
              ),
            );

            const after = await world.call('GET', `/issues/${id}`);
            expect(after.json.version).toBe(versionBefore + 1);
            const winners = answers.filter((a) => a.status === 200);
            expect(winners).toHaveLength(1);
            expect(winners[0]?.json).toEqual(after.json);
            expect(winners[0]?.headers.etag).toBe(after.headers.etag);
            const losers = answers.filter((a) => a.status !== 200);
            expect(losers).toHaveLength(concurrent - 1);
            for (const loser of losers) {
              expect({ status: loser.status, error: loser.json.error }).toEqual({
                status: 409,
                error: 'version_conflict',
              });
              expect(loser.headers.etag).toBe(after.headers.etag);
            }
            const signals = await readSignals(world, sequenceBefore);
            expect(signals.map((e) => [e.type, e.resource.id])).toEqual([['issue.updated', id]]);
          });
        },
      ),
      { numRuns: runsOn(adapter, 15) },
    );
  });
});
