import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type Client } from '../../src/client/index.js';
import { type ClientFixture, clientFixture, modes } from './harness.js';

const hookUrl = 'https://hooks.example.com/outcome-tracker';

describe.each(modes)('every operation of the client, %s', (mode) => {
  let f: ClientFixture;
  let client: Client;
  beforeAll(async () => {
    f = await clientFixture(mode);
    client = f.client();
  });
  afterAll(async () => {
    await f.close();
  });

  it('projects: create, get, update, modify and list', async () => {
    const created = await client.projects.create({ name: 'Mercury', description: 'first' });
    expect(created).toMatchObject({ name: 'Mercury', key: 'MER', version: 1 });
    expect(created.etag).toBe('"1"');
    expect(JSON.parse(JSON.stringify(created))).not.toHaveProperty('etag');

    const read = await client.projects.get(created.id);
    expect(read).toEqual(created);
    expect(read.etag).toBe('"1"');

    const updated = await client.projects.update(
      created.id,
      { description: 'second' },
      { ifMatch: read.etag },
    );
    expect({ description: updated.description, etag: updated.etag }).toEqual({
      description: 'second',
      etag: '"2"',
    });
    const modified = await client.projects.modify(created.id, (p) => ({ description: `${p.description}!` }));
    expect({ description: modified.description, etag: modified.etag }).toEqual({
      description: 'second!',
      etag: '"3"',
    });

    const page = await client.projects.list({ q: 'mercury' }).page();
    expect(page).toMatchObject({ total: 1, nextCursor: null });
    expect(page.data.map((p) => p.id)).toEqual([created.id]);
    expect((await client.projects.list().toArray()).map((p) => p.key).sort()).toEqual(['APO', 'MER']);
  });

  it('outcomes: create, get, update (with the resource as target), modify, delete and list', async () => {
    const outcome = await client.outcomes.create({ projectId: f.ws.projectId, title: 'Launch' });
    expect(outcome).toMatchObject({ status: 'planned', version: 1 });
    const shipped = await client.outcomes.update(outcome, { status: 'shipped' });
    expect(shipped).toMatchObject({ status: 'shipped', version: 2 });
    expect(shipped.shippedAt).not.toBeNull();
    const renamed = await client.outcomes.modify(outcome.id, () => ({ title: 'Launch v2' }));
    expect(renamed).toMatchObject({ title: 'Launch v2', version: 3 });
    expect((await client.outcomes.get(outcome.id)).etag).toBe('"3"');
    expect((await client.outcomes.list({ status: 'shipped' }).page()).data.map((o) => o.id)).toEqual([
      outcome.id,
    ]);

    await client.outcomes.delete(outcome.id, { ifMatch: renamed.etag });
    const gone = await client.outcomes.get(outcome.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, code: 'not_found' });
    expect((gone as ApiError).requestId).toMatch(/.+/);
  });

  it('context: create, get, delete and list', async () => {
    const outcome = await client.outcomes.create({ projectId: f.ws.projectId, title: 'With context' });
    const note = await client.context.create({
      outcomeId: outcome.id,
      kind: 'note',
      title: 'Why',
      body: 'Because',
    });
    const link = await client.context.create({
      outcomeId: outcome.id,
      kind: 'link',
      title: 'Spec',
      url: 'https://example.com/spec',
    });
    expect(await client.context.get(note.id)).toMatchObject({ kind: 'note', body: 'Because', url: null });
    const links = await client.context.list({ outcomeId: outcome.id, kind: 'link' }).toArray();
    expect(links.map((c) => c.id)).toEqual([link.id]);
    await client.context.delete(link.id);
    expect((await client.context.list({ outcomeId: outcome.id }).page()).total).toBe(1);
  });

  it('decisions: create, get, update, modify and list', async () => {
    const decision = await client.decisions.create({
      projectId: f.ws.projectId,
      title: 'Use SQLite',
      rationale: 'One file',
      participants: ['ada'],
    });
    expect(decision).toMatchObject({ status: 'proposed', participants: ['ada'] });
    const accepted = await client.decisions.update(
      decision.id,
      { status: 'accepted' },
      { ifMatch: decision.etag },
    );
    expect(accepted.decidedAt).not.toBeNull();
    const more = await client.decisions.modify(decision.id, (d) => ({
      participants: [...d.participants, 'grace'],
    }));
    expect(more.participants).toEqual(['ada', 'grace']);
    expect((await client.decisions.get(decision.id)).version).toBe(3);
    expect((await client.decisions.list({ status: 'accepted' }).toArray()).map((d) => d.id)).toEqual([
      decision.id,
    ]);
  });

  it('issues: create, get by key, update, modify, transition (and a refused one) and list', async () => {
    const issue = await client.issues.create({
      projectId: f.ws.projectId,
      title: 'Login fails',
      severity: 'high',
    });
    expect(issue).toMatchObject({ key: 'APO-1', status: 'open', etag: '"1"' });
    const byKey = await client.issues.get('APO-1');
    expect(byKey.id).toBe(issue.id);
    const critical = await client.issues.update(byKey, { severity: 'critical' });
    expect(critical).toMatchObject({ severity: 'critical', etag: '"2"' });
    const labelled = await client.issues.modify('APO-1', (i) => ({ labels: [...i.labels, 'auth'] }));
    expect(labelled.labels).toEqual(['auth']);
    const unchanged = await client.issues.modify('APO-1', () => undefined);
    expect(unchanged.version).toBe(3);

    const moving = await client.issues.transition(issue.id, 'in_progress', { comment: 'On it' });
    expect(moving).toMatchObject({ status: 'in_progress', etag: '"4"' });
    const refused = await client.issues.transition('APO-1', 'closed').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 422,
      code: 'invalid_transition',
      allowed: ['open', 'blocked', 'resolved'],
      problem: { from: 'in_progress', to: 'closed' },
    });
    const stale = await client.issues
      .transition(issue.id, 'resolved', { ifMatch: '"1"' })
      .catch((e: unknown) => e);
    expect(stale).toMatchObject({ status: 409, code: 'version_conflict', etag: '"4"' });

    const open = await client.issues.list({ projectId: f.ws.projectId, status: 'in_progress' }).page();
    expect(open.data.map((i) => i.key)).toEqual(['APO-1']);
  });

  it('time entries: create, get, update, modify, delete and list with totalMinutes', async () => {
    const outcome = await client.outcomes.create({ projectId: f.ws.projectId, title: 'Timed' });
    const first = await client.timeEntries.create({ outcomeId: outcome.id, minutes: 30, date: '2026-11-20' });
    const second = await client.timeEntries.create({
      outcomeId: outcome.id,
      minutes: 45,
      date: '2026-11-21',
    });
    expect((await client.timeEntries.get(first.id)).userId).toBe(f.ws.adminUserId);
    const longer = await client.timeEntries.update(first.id, { minutes: 60 }, { ifMatch: first.etag });
    expect(longer.minutes).toBe(60);
    const noted = await client.timeEntries.modify(second.id, () => ({ note: 'review' }));
    expect(noted.note).toBe('review');
    const page = await client.timeEntries.list({ outcomeId: outcome.id }).page();
    expect({ total: page.total, totalMinutes: page.totalMinutes }).toEqual({ total: 2, totalMinutes: 105 });
    await client.timeEntries.delete(noted);
    expect((await client.timeEntries.list({ outcomeId: outcome.id }).page()).totalMinutes).toBe(60);
  });

  it('archive: issues and outcomes leave lists until brought back', async () => {
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'Stale' });
    const archived = await client.issues.archive(issue);
    expect(archived.archivedAt).not.toBeNull();
    const listed = await client.issues.list({ archived: 'only' }).page();
    expect(listed.data.map((i) => i.id)).toEqual([issue.id]);
    const back = await client.issues.unarchive(archived);
    expect(back.archivedAt).toBeNull();
    const outcome = await client.outcomes.create({ projectId: f.ws.projectId, title: 'Old goal' });
    await client.outcomes.archive(outcome.id, { ifMatch: outcome.etag });
    expect((await client.outcomes.list({ archived: 'only' }).page()).data.map((o) => o.id)).toEqual([
      outcome.id,
    ]);
  });

  it('issue relations: create from one end, list from both, refuse a cycle, delete', async () => {
    const parent = await client.issues.create({ projectId: f.ws.projectId, title: 'Epic' });
    const child = await client.issues.create({ projectId: f.ws.projectId, title: 'Story' });
    const made = await client.issues.relations.create(child, { type: 'child_of', issueId: parent.id });
    expect(made).toMatchObject({ type: 'child_of', issueId: parent.id });
    const fromParent = await client.issues.relations.list(parent).page();
    expect(fromParent.data.map((r) => [r.id, r.type, r.issueId])).toEqual([[made.id, 'parent_of', child.id]]);
    expect((await client.issues.get(child.id)).parentId).toBe(parent.id);
    expect((await client.issues.list({ parentId: parent.id }).page()).total).toBe(1);
    const refused = await client.issues.relations
      .create(parent, { type: 'child_of', issueId: child.id })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, code: 'relation_cycle' });
    await client.issues.relations.delete(parent, made.id);
    expect((await client.issues.get(child.id)).parentId).toBeNull();
  });

  it('labels: issues filtered by every label or any, and the labels listed with their counts', async () => {
    const both = await client.issues.create({
      projectId: f.ws.projectId,
      title: 'A',
      labels: ['cl-a', 'cl-b'],
    });
    const one = await client.issues.create({ projectId: f.ws.projectId, title: 'B', labels: ['cl-a'] });
    expect((await client.issues.list({ labels: 'cl-a,cl-b' }).toArray()).map((i) => i.id)).toEqual([both.id]);
    expect(
      (await client.issues.list({ labelsAny: 'cl-b,cl-a', limit: 1 }).toArray()).map((i) => i.id),
    ).toEqual([one.id, both.id]);
    const labels = (await client.labels.list({ limit: 1 }).toArray()).filter((l) => l.name.startsWith('cl-'));
    expect(labels).toEqual([
      { name: 'cl-a', issueCount: 2 },
      { name: 'cl-b', issueCount: 1 },
    ]);
  });

  it('comments: create, get, update, modify, delete and list oldest first or newest first', async () => {
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'Discussed' });
    const first = await client.comments.create({ issueId: issue.id, body: 'First' });
    const second = await client.comments.create({ issueId: issue.id, body: 'Second' });
    expect((await client.comments.get(first.id)).authorId).toBe(f.ws.adminUserId);
    expect((await client.issues.get(issue.id)).commentCount).toBe(2);
    const edited = await client.comments.update(first.id, { body: 'First, edited' }, { ifMatch: first.etag });
    expect(edited.editedAt).not.toBeNull();
    const again = await client.comments.modify(second.id, (current) => ({ body: `${current.body}!` }));
    expect(again.body).toBe('Second!');
    const oldest = await client.comments.list({ issueId: issue.id }).page();
    expect(oldest.data.map((c) => c.body)).toEqual(['First, edited', 'Second!']);
    const newest = await client.comments.list({ issueId: issue.id, sort: '-createdAt' }).page();
    expect(newest.data.map((c) => c.body)).toEqual(['Second!', 'First, edited']);
    await client.comments.delete(again);
    expect((await client.issues.get(issue.id)).commentCount).toBe(1);
  });

  it('webhooks: create, get, update, modify, rotate, test, deliveries, retry, list and delete', async () => {
    const hook = await client.webhooks.create({ url: hookUrl, eventTypes: ['issue.created'] });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(await client.webhooks.get(hook.id)).not.toHaveProperty('secret');
    const described = await client.webhooks.update(hook.id, { description: 'ops' }, { ifMatch: hook.etag });
    expect(described.description).toBe('ops');
    const widened = await client.webhooks.modify(hook.id, (w) => ({
      eventTypes: [...w.eventTypes, 'issue.updated'],
    }));
    expect(widened.eventTypes).toEqual(['issue.created', 'issue.updated']);
    const rotated = await client.webhooks.rotateSecret(hook.id);
    expect(rotated.secret).not.toBe(hook.secret);

    // No sender is configured in these tests, so the test send reports that nothing went out.
    const tested = await client.webhooks.test(hook.id);
    expect(tested).toMatchObject({ delivered: false, responseStatus: null });

    await client.issues.create({ projectId: f.ws.projectId, title: 'Queued for the hook' });
    const deliveries = await client.webhooks.deliveries(hook.id).toArray();
    const queued = deliveries.find((d) => d.eventType === 'issue.created');
    expect(queued).toMatchObject({ status: 'pending' });
    const retried = await client.webhooks.retryDelivery(hook.id, queued?.id ?? '');
    expect(retried).toMatchObject({ id: queued?.id, status: 'pending', attempts: 0 });

    expect((await client.webhooks.list({ status: 'active' }).toArray()).map((w) => w.id)).toContain(hook.id);
    await client.webhooks.delete(hook.id);
    await expect(client.webhooks.get(hook.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('signals: lists the changes made, in sequence order, filtered by type', async () => {
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'Signalled' });
    const events = await client.signals.list({ types: ['issue.created'], resourceId: issue.id }).toArray();
    expect(events.map((e) => [e.type, e.resource.id])).toEqual([['issue.created', issue.id]]);
    const all = await client.signals.list({ limit: 5 }).toArray();
    const sequences = all.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
  });

  it('errors are typed from problem+json: validation issues, and a bad token', async () => {
    const invalid = await client.issues
      .create({ projectId: f.ws.projectId, title: '' })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((invalid as ApiError).issues?.[0]).toMatchObject({ in: 'body', path: 'title' });
    const stranger = f.client({ token: 'cn_notatoken' });
    await expect(stranger.projects.list().page()).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });
});
