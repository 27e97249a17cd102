// The support desk tested with node:test against a real tracker in memory:
//   node --test examples/testing/node.test.mjs
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createTestTracker } from 'outcome-tracker/testing';
import { supportDesk } from './support-desk.mjs';

describe('support desk', () => {
  let kit;
  let project;
  beforeEach(async () => {
    kit = await createTestTracker();
    const seeded = await kit.seed({ projects: 1, issues: 20 }); // APO-1 … APO-20
    project = seeded.projects[0];
  });
  afterEach(() => kit.close());

  it('files enterprise reports as high severity', async () => {
    const desk = supportDesk({ baseUrl: kit.baseUrl, token: kit.token, fetch: kit.fetch });
    const issue = await desk.report({ projectId: project.id, title: 'Export fails', plan: 'enterprise' });
    assert.equal(issue.severity, 'high');
    assert.deepEqual(issue.labels, ['customer']);
    assert.equal(issue.key, `${project.key}-21`);
  });

  it('pages on a critical issue, once its webhook endpoint is back up', async () => {
    const hook = await kit.webhooks.capture({ eventTypes: ['issue.updated'] });
    const desk = supportDesk({ webhookSecret: hook.secret, now: kit.clock.now });
    hook.respondWith(503); // the desk is down
    const issue = await kit.client.issues.create({ projectId: project.id, title: 'Data loss' });
    await kit.client.issues.update(issue, { severity: 'critical' }); // If-Match: issue.etag
    await hook.waitFor('issue.updated');

    // The desk's own handler answers from now on; the tracker retries a minute later.
    hook.respondWith((delivery) => desk.receive(delivery));
    await kit.clock.advance('1m');
    const retry = await hook.waitFor((d) => d.attempt === 2);
    assert.equal(retry.status, 204);
    assert.deepEqual(desk.pages, [issue.key]);
    const [delivery] = (await kit.client.webhooks.deliveries(hook.id).page()).data;
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempts, 2);
    const forged = { ...retry, body: retry.body.replace('critical', 'low') };
    assert.equal(await desk.receive(forged), 400);
  });

  it('cannot file reports with a read-only token', async () => {
    const viewer = await kit.asUser({ role: 'viewer', scope: 'read' });
    const desk = supportDesk({ baseUrl: kit.baseUrl, token: viewer.token, fetch: kit.fetch });
    await assert.rejects(desk.report({ projectId: project.id, title: 'Nope' }), { status: 403 });
  });
});
