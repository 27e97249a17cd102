import { randomUUID } from 'node:crypto';
import { bodyFor, exampleBodiedPaths, mainTenant } from '../http/families/fixtures.js';
import type { TestServer } from '../http/harness.js';
import type { FuzzTargets } from './request-arbitraries.js';

/**
 * Creates a few of everything on the server through the API, so generated requests name things
 * that exist (and get past the 404 into validation, conditional requests and the writes).
 * Members are fresh ones, never the users the tokens act for, so a fuzzed role change or removal
 * cannot take the tokens' rights away half-way through a run.
 */
export async function seedTargets(s: TestServer): Promise<FuzzTargets> {
  const create = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await s.api('POST', `/api/v1${path}`, {
      token: s.tokens.admin,
      body,
      headers: { 'idempotency-key': randomUUID() },
    });
    if (res.status !== 201) throw new Error(`seeding POST ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const ids = (rows: Record<string, unknown>[]) => rows.map((row) => row.id as string);

  const outcomes = [];
  for (const title of ['Launch', 'Grow', 'Keep']) {
    outcomes.push(await create('/outcomes', { projectId: s.ws.projectId, title }));
  }
  const outcomeIds = ids(outcomes);
  const issues = [];
  for (const title of ['Crash', 'Slow', 'Typo']) {
    issues.push(await create('/issues', { projectId: s.ws.projectId, title, outcomeId: outcomeIds[0] }));
  }
  const comments = [];
  for (const issue of issues) {
    comments.push(await create('/comments', { issueId: issue.id, body: 'Seen it too' }));
  }
  const context = [];
  const decisions = [];
  const entries = [];
  for (const outcomeId of outcomeIds) {
    context.push(
      await create('/context', { outcomeId, title: 'Field report', kind: 'note', body: 'Seen in the field' }),
    );
    decisions.push(
      await create('/decisions', {
        projectId: s.ws.projectId,
        outcomeId,
        title: 'Ship it',
        rationale: 'Ready',
      }),
    );
    entries.push(await create('/time-entries', { outcomeId, minutes: 30, date: '2026-11-20' }));
  }
  // Queries every resource's list takes, so that a fuzzed PATCH of the resource alone stays valid.
  const views = [];
  for (const [resource, query] of [
    ['issues', 'sort:updated-desc'],
    ['outcomes', 'created:>=2026-11-01'],
    ['decisions', ''],
  ]) {
    views.push(await create('/views', { name: `Seen ${resource}`, resource, query }));
  }
  // Three of each collection whose create example is a valid body (a family made by `npm run
  // new-family`), so that its item routes are fuzzed with ids that exist.
  const fromExamples: Record<string, string[]> = {};
  for (const path of exampleBodiedPaths) {
    const made = [];
    for (let n = 1; n <= 3; n++) made.push(await create(path, await bodyFor(path)?.(s, mainTenant(s), n)));
    fromExamples[path.slice(1)] = ids(made);
  }
  const members = [];
  for (const email of ['fuzz-a@acme.test', 'fuzz-b@acme.test', 'fuzz-c@acme.test']) {
    members.push(await create('/members', { email, role: 'member' }));
  }
  const webhooks = [];
  for (const url of ['https://example.com/a', 'https://example.com/b']) {
    webhooks.push(await create('/webhooks', { url, eventTypes: ['*'] }));
  }
  const webhookIds = ids(webhooks);
  // A test event records a delivery (it fails, there is no sender), so deliveries have ids too.
  for (const id of webhookIds) {
    await s.api('POST', `/api/v1/webhooks/${id}/test`, { token: s.tokens.admin });
  }
  const deliveryIds: string[] = [];
  for (const id of webhookIds) {
    const page = await s.api('GET', `/api/v1/webhooks/${id}/deliveries`, { token: s.tokens.admin });
    for (const row of page.json?.data ?? []) deliveryIds.push(row.id);
  }

  const byFamily: Record<string, string[]> = {
    ...fromExamples,
    projects: [s.ws.projectId, s.other.projectId, s.ws.projectKey],
    outcomes: outcomeIds,
    context: ids(context),
    decisions: ids(decisions),
    issues: [...ids(issues), ...issues.map((i) => i.key as string), s.other.issueId, s.other.issueKey],
    'time-entries': ids(entries),
    comments: ids(comments),
    views: ids(views),
    members: ids(members),
    webhooks: webhookIds,
  };
  const known: Record<string, string[]> = {
    prj: [s.ws.projectId, s.other.projectId],
    out: outcomeIds,
    iss: ids(issues),
    usr: [...ids(members), s.tokens.member.userId],
    dec: ids(decisions),
    cmt: ids(comments),
  };
  return {
    tokens: {
      admin: s.tokens.admin,
      read: s.tokens.read.plain,
      member: s.tokens.member.plain,
      viewer: s.tokens.viewer.plain,
    },
    ids: known,
    pathValues: (template, name) => {
      if (name === 'deliveryId') return deliveryIds;
      const family = template.split('/')[3] ?? '';
      return byFamily[family] ?? [];
    },
  };
}
