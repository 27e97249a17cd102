import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, readSignals, runsOn, type World } from './support.js';

type Status = 'open' | 'in_progress' | 'blocked' | 'resolved' | 'closed';

/** CONTRACT §5's table, written out here so the code is checked against the text, not itself. */
const allowed: Record<Status, Status[]> = {
  open: ['in_progress', 'blocked', 'resolved', 'closed'],
  in_progress: ['open', 'blocked', 'resolved'],
  blocked: ['open', 'in_progress', 'resolved'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};
const statuses = Object.keys(allowed) as Status[];

/** A valid path from `open` to each status. */
const pathTo: Record<Status, Status[]> = {
  open: [],
  in_progress: ['in_progress'],
  blocked: ['in_progress', 'blocked'],
  resolved: ['blocked', 'resolved'],
  closed: ['resolved', 'closed'],
};

async function newIssue(world: World): Promise<string> {
  const res = await world.call('POST', '/issues', {
    body: { projectId: world.ws.projectId, title: 'Moving through the workflow' },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.status).toBe(201);
  expect(res.json.status).toBe('open');
  return res.json.id;
}

/**
 * Requests one transition and checks the answer against the table: 200 with the new status,
 * resolvedAt set exactly in `resolved`, and one issue.status_changed signal naming the previous
 * status; or 422 invalid_transition with from, to and the table's row, and no signal.
 */
async function transitionAndCheck(world: World, id: string, from: Status, to: Status): Promise<Status> {
  world.clock.advance(1000);
  const now = new Date(world.clock.now()).toISOString();
  const sequenceBefore = (await readSignals(world)).at(-1)?.sequence ?? 0;
  const res = await world.call('POST', `/issues/${id}/transition`, { body: { to } });
  const signals = await readSignals(world, sequenceBefore);
  const current = await world.call('GET', `/issues/${id}`);
  if (allowed[from].includes(to)) {
    expect(res.status).toBe(200);
    expect(res.json.status).toBe(to);
    expect(res.json.resolvedAt).toBe(to === 'resolved' ? now : null);
    expect(current.json).toEqual(res.json);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      type: 'issue.status_changed',
      resource: { type: 'issue', id },
      data: { object: res.json, previous: { status: from } },
    });
    return to;
  }
  expect(res.status).toBe(422);
  expect(res.json).toMatchObject({ error: 'invalid_transition', from, to });
  expect(res.json.allowed).toEqual(allowed[from]);
  expect(current.json.status).toBe(from);
  expect(current.json.resolvedAt === null).toBe(from !== 'resolved');
  expect(signals).toEqual([]);
  return from;
}

describe.each(adaptersUnderTest)('the issue workflow on $name storage', (adapter) => {
  it('answer every (status, target) pair exactly as the contract table says', async () => {
    await inWorld(adapter, async (world) => {
      for (const from of statuses) {
        for (const to of statuses) {
          const id = await newIssue(world);
          let at: Status = 'open';
          for (const step of pathTo[from]) at = await transitionAndCheck(world, id, at, step);
          expect(at).toBe(from);
          expect(await transitionAndCheck(world, id, from, to)).toBe(allowed[from].includes(to) ? to : from);
        }
      }
    });
    // About 75 requests in one world: on a shared, busy machine a real PostgreSQL needs longer.
  }, 120_000);

  it('follow the table along any sequence of requested transitions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 15 }),
        async (targets) => {
          await inWorld(adapter, async (world) => {
            const id = await newIssue(world);
            let at: Status = 'open';
            for (const to of targets) at = await transitionAndCheck(world, id, at, to);
          });
        },
      ),
      { numRuns: runsOn(adapter, 25) },
    );
  });
});
