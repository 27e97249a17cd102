import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, inProcessFetch, VersionConflictError } from '../../src/client/index.js';
import { type ClientFixture, clientFixture, modes, recordingFetch } from './harness.js';

describe.each(modes)('modify: read, change, write with If-Match, again on a conflict (%s)', (mode) => {
  let f: ClientFixture;
  let other: Client;
  beforeAll(async () => {
    f = await clientFixture(mode);
    other = f.client();
  });
  afterAll(async () => {
    await f.close();
  });

  it('a 409 from a write that raced it is resolved by reading again and re-applying the change', async () => {
    const issue = await other.issues.create({ projectId: f.ws.projectId, title: 'Contended', labels: ['a'] });
    const recorder = recordingFetch(f.url === null ? inProcessFetch(f.tracker) : undefined);
    const client = f.client({ fetch: recorder.fetch });
    const seen: number[] = [];
    const result = await client.issues.modify(issue.id, async (current) => {
      seen.push(current.version);
      // Another writer gets in between this read and the write, once.
      if (seen.length === 1) await other.issues.modify(issue.id, (i) => ({ labels: [...i.labels, 'b'] }));
      return { labels: [...current.labels, 'c'] };
    });
    expect(seen).toEqual([1, 2]);
    expect(result).toMatchObject({ version: 3, labels: ['a', 'b', 'c'], etag: '"3"' });
    const patches = recorder.sent.filter((r) => r.method === 'PATCH').map((r) => r.ifMatch);
    expect(patches).toEqual(['"1"', '"2"']);
    expect(recorder.statuses.filter((s) => s === 409)).toHaveLength(1);
  });

  it('losing every race gives up after 3 attempts with a typed VersionConflictError', async () => {
    const outcome = await other.outcomes.create({ projectId: f.ws.projectId, title: 'Always moving' });
    const client = f.client();
    let attempts = 0;
    const failure = await client.outcomes
      .modify(outcome.id, async () => {
        attempts++;
        await other.outcomes.modify(outcome.id, (o) => ({ title: `${o.title}.` }));
        return { status: 'in_progress' };
      })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VersionConflictError);
    expect(failure).toMatchObject({ status: 409, code: 'version_conflict', attempts: 3, etag: '"4"' });
    expect(attempts).toBe(3);
    expect((await client.outcomes.get(outcome.id)).status).toBe('planned');
  });

  it('attempts can be raised, and errors other than a conflict are thrown at once', async () => {
    const decision = await other.decisions.create({ projectId: f.ws.projectId, title: 'D', rationale: 'R' });
    let attempts = 0;
    const settled = await f.client().decisions.modify(
      decision.id,
      async (current) => {
        attempts++;
        if (attempts < 4)
          await other.decisions.modify(decision.id, (d) => ({ rationale: `${d.rationale}!` }));
        return { title: `${current.title}+` };
      },
      { attempts: 5 },
    );
    expect({ attempts, title: settled.title, rationale: settled.rationale }).toEqual({
      attempts: 4,
      title: 'D+',
      rationale: 'R!!!',
    });
    await expect(f.client().issues.modify('APO-999', () => ({ title: 'x' }))).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
