import { afterEach, describe, expect, it } from 'vitest';
import { createTestTracker, type TestTracker } from '../../src/testing/index.js';
import { storages } from '../testing/storages.js';

let kit: TestTracker | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** The overdue signals of the workspace so far, oldest first, as (type, resource id). */
async function overdueSignals(t: TestTracker) {
  const all = [];
  for await (const signal of t.client.signals.list({ types: 'issue.overdue,outcome.overdue' }))
    all.push(signal);
  return all.map((signal) => ({ type: signal.type, id: signal.resource.id }));
}

// The kit's clock starts at 2026-01-01T00:00Z: a day "passes" at the midnight (UTC) after it.
describe.each(storages)('the overdue sweep, driven by the test clock ($name)', ({ option }) => {
  it('signals an open issue once when its due day passes, and again when the day is moved and passes again', async () => {
    kit = await createTestTracker({ storage: option });
    const hook = await kit.webhooks.capture({ eventTypes: ['issue.overdue'] });
    const project = await kit.client.projects.create({ name: 'Apollo' });
    const issue = await kit.client.issues.create({
      projectId: project.id,
      title: 'Due',
      dueOn: '2026-01-02',
    });

    await kit.clock.advance('1d'); // 2026-01-02: the due day itself has not passed
    expect(await overdueSignals(kit)).toEqual([]);

    await kit.clock.advance('1d'); // 2026-01-03: it has
    expect(await overdueSignals(kit)).toEqual([{ type: 'issue.overdue', id: issue.id }]);
    const delivery = await hook.waitFor('issue.overdue');
    expect(delivery.event.data.object).toMatchObject({ id: issue.id, dueOn: '2026-01-02', status: 'open' });

    await kit.clock.advance('3d');
    expect(await overdueSignals(kit)).toHaveLength(1);

    await kit.client.issues.update(issue, { dueOn: '2026-01-08' });
    await kit.clock.advance('1d'); // 2026-01-07
    expect(await overdueSignals(kit)).toHaveLength(1);
    await kit.clock.advance('2d'); // 2026-01-09
    expect(await overdueSignals(kit)).toEqual([
      { type: 'issue.overdue', id: issue.id },
      { type: 'issue.overdue', id: issue.id },
    ]);
  });

  it('leaves out issues resolved, closed or archived, and those with no due day', async () => {
    kit = await createTestTracker({ storage: option });
    const project = await kit.client.projects.create({ name: 'Apollo' });
    const due = { projectId: project.id, dueOn: '2026-01-01' };
    const resolved = await kit.client.issues.create({ ...due, title: 'Resolved' });
    await kit.client.issues.transition(resolved, 'resolved');
    const archived = await kit.client.issues.create({ ...due, title: 'Archived' });
    await kit.client.issues.archive(archived);
    await kit.client.issues.create({ projectId: project.id, title: 'Undated' });
    const blocked = await kit.client.issues.create({ ...due, title: 'Blocked' });
    await kit.client.issues.transition(blocked, 'blocked');

    await kit.clock.advance('2d');
    expect(await overdueSignals(kit)).toEqual([{ type: 'issue.overdue', id: blocked.id }]);
  });

  it('signals an outcome past its due date while planned or in progress, not once shipped', async () => {
    kit = await createTestTracker({ storage: option });
    const project = await kit.client.projects.create({ name: 'Apollo' });
    const late = await kit.client.outcomes.create({
      projectId: project.id,
      title: 'Late',
      dueDate: '2026-01-01',
    });
    const shipped = await kit.client.outcomes.create({
      projectId: project.id,
      title: 'Shipped',
      dueDate: '2026-01-01',
    });
    await kit.client.outcomes.update(shipped, { status: 'shipped' });

    await kit.clock.advance('2d');
    expect(await overdueSignals(kit)).toEqual([{ type: 'outcome.overdue', id: late.id }]);
    await kit.clock.advance('2d');
    expect(await overdueSignals(kit)).toHaveLength(1);
  });
});
