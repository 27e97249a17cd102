import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, createClient } from '@outcome-tracker/client';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type CapturedDelivery, createTestTracker, type TestTracker } from '../../src/testing/index.js';
import { postgresTitle, testDatabaseUrl } from '../support/postgres.js';

/** The project a `project.created` delivery is about. */
const projectName = (d: CapturedDelivery) => (d.type === 'project.created' ? d.event.data.object.name : null);

const open: TestTracker[] = [];
afterEach(async () => {
  for (const kit of open.splice(0)) await kit.close();
});
const make = async (...args: Parameters<typeof createTestTracker>) => {
  const kit = await createTestTracker(...args);
  open.push(kit);
  return kit;
};

describe('createTestTracker', () => {
  it('gives in one call a workspace, its admin’s token and ids, a client, and a fetch for code that takes a base URL', async () => {
    const kit = await make({ workspace: 'acme' });
    expect(kit.workspace).toMatchObject({ slug: 'acme', id: expect.stringMatching(/^ws_/) });
    expect(kit.admin).toMatchObject({ email: 'admin@acme.test', userId: expect.stringMatching(/^usr_/) });
    expect(kit.admin.tokenId).toMatch(/^tok_/);
    expect(kit.token).toMatch(/^cn_/);

    const project = await kit.client.projects.create({ name: 'Apollo' });
    // Code that builds its own client from a base URL and a fetch reaches the same tracker.
    const own = createClient({ baseUrl: kit.baseUrl, token: kit.token, fetch: kit.fetch });
    expect((await own.projects.get(project.id)).key).toBe('APO');
    const response = await kit.fetch(`${kit.baseUrl}/api/v1/projects/${project.id}`, {
      headers: { authorization: `Bearer ${kit.token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: project.id, name: 'Apollo' });
  });

  it('adds principals with a role and a scope, each held to them by the API', async () => {
    const kit = await make();
    const viewer = await kit.asUser({ role: 'viewer', scope: 'read' });
    const member = await kit.asUser({ role: 'member' });
    expect(viewer.email).not.toBe(member.email);
    const project = await member.client.projects.create({ name: 'Apollo' });
    expect((await viewer.client.projects.get(project.id)).id).toBe(project.id);
    const refused = await viewer.client.projects.create({ name: 'Nope' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
    // Subscriptions are for admins only.
    await expect(member.client.webhooks.list().page()).rejects.toMatchObject({ status: 403 });
  });

  it('keeps two instances made at once apart: data, tokens, ids’ sources and captured webhooks', async () => {
    const [a, b] = await Promise.all([make(), make()]);
    if (!a || !b) throw new Error('two instances expected');
    const [hookA, hookB] = await Promise.all([
      a.webhooks.capture({ eventTypes: ['project.created'] }),
      b.webhooks.capture({ eventTypes: ['project.created'] }),
    ]);
    await Promise.all([
      a.client.projects.create({ name: 'Apollo' }),
      b.client.projects.create({ name: 'Borealis' }),
      b.client.projects.create({ name: 'Cassini' }),
    ]);
    const names = async (kit: TestTracker) =>
      (await kit.client.projects.list().page()).data.map((p) => p.name).sort();
    expect(await names(a)).toEqual(['Apollo']);
    expect(await names(b)).toEqual(['Borealis', 'Cassini']);
    await hookA.waitFor('project.created');
    await hookB.waitFor((d) => projectName(d) === 'Cassini');
    expect(hookA.received.map(projectName)).toEqual(['Apollo']);
    expect(hookB.received.map(projectName).sort()).toEqual(['Borealis', 'Cassini']);

    // One instance's token means nothing to the other.
    const stranger = createClient({ token: a.token, fetch: b.fetch, baseUrl: b.baseUrl, maxRetries: 0 });
    await expect(stranger.projects.list().page()).rejects.toMatchObject({ status: 401 });
    // Each clock is its own.
    await a.clock.advance('1d');
    expect(a.clock.now() - b.clock.now()).toBe(86_400_000);
  });

  it('rolls back nothing of another instance when one closes', async () => {
    const a = await make();
    const b = await make();
    await b.client.projects.create({ name: 'Borealis' });
    await a.close();
    open.splice(open.indexOf(a), 1);
    expect((await b.client.projects.list().page()).total).toBe(1);
  });
});

describe('seed', () => {
  it('makes the same data with the same ids from the same seed number on fresh instances, and other data from another', async () => {
    const counts = { projects: 3, outcomes: 6, issues: 60, members: 2 };
    const [a, b, c] = await Promise.all([make(), make(), make({ seed: 2 })]);
    const [one, same, other] = await Promise.all([a?.seed(counts), b?.seed(counts), c?.seed(counts)]);
    expect(same).toEqual(one);
    expect(one?.projects.map((p) => p.key)).toEqual(['APO', 'BOR', 'CAS']);
    expect(other?.issues.map((i) => i.title)).not.toEqual(one?.issues.map((i) => i.title));
    expect(other?.issues.map((i) => i.id)).not.toEqual(one?.issues.map((i) => i.id));
  });

  it('returns what it made, as the API shows it, spread over projects, outcomes, members and statuses', async () => {
    const kit = await make();
    const made = await kit.seed({ projects: 2, outcomes: 4, issues: 200, members: 3, seed: 7 });
    expect(made.projects).toHaveLength(2);
    expect(made.outcomes).toHaveLength(4);
    expect(made.issues).toHaveLength(200);
    expect(made.members).toHaveLength(3);
    const listed = await kit.client.issues.list({ limit: 200 }).page();
    expect(listed.total).toBe(200);
    const byId = new Map(listed.data.map((i) => [i.id, i]));
    for (const issue of made.issues) expect(byId.get(issue.id)).toEqual(issue);
    expect(new Set(made.issues.map((i) => i.projectId)).size).toBe(2);
    expect(new Set(made.issues.map((i) => i.status)).size).toBe(5);
    expect(made.issues.some((i) => i.outcomeId !== null)).toBe(true);
    expect(made.issues.some((i) => i.assigneeId !== null)).toBe(true);
    for (const issue of made.issues.filter((i) => i.outcomeId !== null)) {
      expect(made.outcomes.find((o) => o.id === issue.outcomeId)?.projectId).toBe(issue.projectId);
    }
  });

  it('seeds 10,000 issues in memory, each listed by the API', async () => {
    const kit = await make();
    const made = await kit.seed({ projects: 4, outcomes: 20, issues: 10_000 });
    expect(made.issues).toHaveLength(10_000);
    expect((await kit.client.issues.list({ limit: 1 }).page()).total).toBe(10_000);
    expect(new Set(made.issues.map((i) => i.id)).size).toBe(10_000);
  });

  it('refuses counts that are not whole numbers', async () => {
    const kit = await make();
    await expect(kit.seed({ issues: -1 })).rejects.toThrow(RangeError);
    await expect(kit.seed({ projects: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe('storage options, removed by close()', () => {
  it('keeps SQLite data in a temp file, removed by close()', async () => {
    // A temp dir of this test's own, so other files' instances are not counted.
    const parent = mkdtempSync(join(tmpdir(), 'kit-sqlite-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = parent;
    let kit: TestTracker;
    try {
      kit = await createTestTracker({ storage: 'sqlite' });
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    try {
      const [made, ...others] = readdirSync(parent);
      expect(others).toEqual([]);
      expect(made).toMatch(/^outcome-tracker-testing-/);
      expect(readdirSync(join(parent, made as string))).toContain('tracker.db');
      await kit.seed({ issues: 10 });
      expect((await kit.client.issues.list().page()).total).toBe(10);
      await kit.close();
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('leaves nothing behind when the workspace cannot be made', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'kit-sqlite-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = parent;
    try {
      await expect(createTestTracker({ storage: 'sqlite', workspace: 'Not A Slug' })).rejects.toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it.skipIf(!testDatabaseUrl)(
    postgresTitle('keeps PostgreSQL data in a fresh schema, dropped by close()'),
    async () => {
      const db = new pg.Client({ connectionString: testDatabaseUrl });
      await db.connect();
      try {
        const schemas = async () =>
          (
            await db.query<{ name: string }>(
              "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'ot_testing_%'",
            )
          ).rows.map((r) => r.name);
        const before = new Set(await schemas());
        const [a, b] = await Promise.all([
          createTestTracker({ storage: { postgres: testDatabaseUrl as string } }),
          createTestTracker({ storage: { postgres: testDatabaseUrl as string } }),
        ]);
        const made = (await schemas()).filter((name) => !before.has(name));
        expect(made).toHaveLength(2);
        await a.seed({ issues: 5 });
        expect((await b.client.issues.list().page()).total).toBe(0);
        expect((await a.client.issues.list().page()).total).toBe(5);
        await Promise.all([a.close(), b.close()]);
        const after = await schemas();
        for (const name of made) expect(after).not.toContain(name);
      } finally {
        await db.end();
      }
    },
  );
});
