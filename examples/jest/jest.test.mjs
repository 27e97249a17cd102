// The support desk tested with Jest (native ES modules) against a real tracker in memory:
//   cd examples/jest && npm install && npm test
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createTestTracker } from 'outcome-tracker/testing';
import { supportDesk } from '../testing/support-desk.mjs';

describe('support desk', () => {
  let kit;
  let project;
  beforeEach(async () => {
    kit = await createTestTracker();
    const seeded = await kit.seed({ projects: 1, issues: 20 }); // APO-1 … APO-20
    project = seeded.projects[0];
  });
  afterEach(() => kit.close());

  test('files enterprise reports as high severity', async () => {
    const desk = supportDesk({ baseUrl: kit.baseUrl, token: kit.token, fetch: kit.fetch });
    const issue = await desk.report({ projectId: project.id, title: 'Export fails', plan: 'enterprise' });
    expect(issue).toMatchObject({ severity: 'high', labels: ['customer'], key: `${project.key}-21` });
  });

  test('pages on a critical issue, once its webhook endpoint is back up', async () => {
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
    expect(retry.status).toBe(204);
    expect(desk.pages).toEqual([issue.key]);
    const [delivery] = (await kit.client.webhooks.deliveries(hook.id).page()).data;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
    const forged = { ...retry, body: retry.body.replace('critical', 'low') };
    expect(await desk.receive(forged)).toBe(400);
  });

  test('cannot file reports with a read-only token', async () => {
    const viewer = await kit.asUser({ role: 'viewer', scope: 'read' });
    const desk = supportDesk({ baseUrl: kit.baseUrl, token: viewer.token, fetch: kit.fetch });
    await expect(desk.report({ projectId: project.id, title: 'Nope' })).rejects.toMatchObject({
      status: 403,
    });
  });
});
