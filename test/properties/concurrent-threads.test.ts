import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { createTracker, projects, type Storage, tenancy } from '../../src/core/index.js';
import { tempDir } from '../support/adapters.js';
import { dropSchema, freshSchema, requireDatabaseUrl, testDatabaseUrl } from '../support/postgres.js';

/**
 * Comments and relations count themselves on the rows they hang from (commentCount; blockedBy,
 * parentId, subIssues) by a compare-and-set on that row's version, and relations check the
 * relation graph (cycles, a second parent) before writing to it. Concurrent writers to one row
 * or one graph must queue: every request succeeds or is refused for the graph's state, never 409
 * or 503 for a lost race, and the counts end exact. Two stores on one database, as two
 * processes, on PostgreSQL (READ COMMITTED with explicit locks); SQLite and the memory adapter
 * have one store each, shared by two trackers.
 */
interface Pair {
  name: string;
  open(): Promise<{ first: Storage; second: Storage; close(): Promise<void> }>;
}

const pairs: Pair[] = [
  {
    name: 'memory',
    open: async () => {
      const storage = memoryStorage();
      return { first: storage, second: storage, close: () => storage.close() };
    },
  },
  {
    name: 'sqlite',
    open: async () => {
      // One store (one process's writer queue): two stores in one process on one file would
      // meet at SQLite's file lock, which is the multi-process tests' subject, not this one's.
      const dir = tempDir();
      const storage = sqliteStorage({ filename: join(dir, 'tracker.db') });
      return {
        first: storage,
        second: storage,
        close: async () => {
          await storage.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  ...(testDatabaseUrl
    ? [
        {
          name: 'postgres',
          open: async () => {
            const schema = freshSchema();
            const make = () =>
              postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 4 });
            const first = make();
            await first.ready();
            const second = make();
            await second.ready();
            return {
              first,
              second,
              close: async () => {
                await Promise.all([first.close(), second.close()]);
                await dropSchema(schema);
              },
            };
          },
        },
      ]
    : []),
];

type Tracker = ReturnType<typeof createTracker>;
interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: string };
}

describe.each(pairs)('concurrent comments and relations on $name storage', (pair) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });

  async function setup() {
    const stores = await pair.open();
    open.push(stores);
    const one = createTracker({ storage: stores.first, rateLimit: false });
    const two = createTracker({ storage: stores.second, rateLimit: false });
    open.push({ close: () => one.close() }, { close: () => two.close() });
    const slug = `threads-${randomBytes(3).toString('hex')}`;
    const init = await stores.first.transaction((tx) =>
      tenancy.initWorkspace({ tx, ids: one.ids, now: Date.now() }, { slug, adminEmail: 'a@example.com' }),
    );
    const project = await one.run({ workspaceSlug: slug }, (ctx) =>
      projects.create(ctx, { name: 'Threads' }),
    );
    const trackers = [one, two];
    /** Alternates between the two trackers (two stores), as requests spread over two processes. */
    const call = async (i: number, method: string, path: string, body?: unknown): Promise<Answer> => {
      const tracker = trackers[i % 2] as Tracker;
      const answer = await tracker.handle({
        method,
        path: `/api/v1${path}`,
        headers: {
          authorization: `Bearer ${init.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: answer.body ? JSON.parse(String(answer.body)) : {} };
    };
    const issue = async (title: string) => {
      const created = await call(0, 'POST', '/issues', { projectId: project.id, title });
      expect(created.status).toBe(201);
      return created.body as { id: string; key: string };
    };
    return { call, issue };
  }

  const statusesOf = (answers: Answer[]) => answers.map((a) => `${a.status} ${a.body.error ?? ''}`.trim());

  it('create 20 concurrent comments on one issue, all 201, and count them exactly', async () => {
    const { call, issue } = await setup();
    const target = await issue('Discussed');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i, 'POST', '/comments', { issueId: target.id, body: `Comment ${i}` }),
      ),
    );
    expect(statusesOf(answers)).toEqual(answers.map(() => '201'));
    const read = await call(0, 'GET', `/issues/${target.id}`);
    expect(read.body.commentCount).toBe(20);
    const listed = await call(1, 'GET', `/comments?issueId=${target.id}&limit=100`);
    expect(listed.body.total).toBe(20);
  });

  it('create 20 concurrent blocks relations into one issue, all 201, and count them exactly', async () => {
    const { call, issue } = await setup();
    const target = await issue('Blocked');
    const blockers = [];
    for (let i = 0; i < 20; i++) blockers.push(await issue(`Blocker ${i}`));
    const answers = await Promise.all(
      blockers.map((blocker, i) =>
        call(i, 'POST', `/issues/${blocker.id}/relations`, { type: 'blocks', issueId: target.id }),
      ),
    );
    expect(statusesOf(answers)).toEqual(answers.map(() => '201'));
    const read = await call(0, 'GET', `/issues/${target.id}`);
    expect(read.body.blockedBy).toBe(20);
    const listed = await call(1, 'GET', `/issues/${target.id}/relations?limit=100`);
    expect(listed.body.total).toBe(20);
  });

  it('create 20 concurrent child_of relations into one parent, all 201, and count them exactly', async () => {
    const { call, issue } = await setup();
    const parent = await issue('Parent');
    const children = [];
    for (let i = 0; i < 20; i++) children.push(await issue(`Child ${i}`));
    const answers = await Promise.all(
      children.map((child, i) =>
        call(i, 'POST', `/issues/${child.id}/relations`, { type: 'child_of', issueId: parent.id }),
      ),
    );
    expect(statusesOf(answers)).toEqual(answers.map(() => '201'));
    expect((await call(0, 'GET', `/issues/${parent.id}`)).body.subIssues).toBe(20);
    for (const child of children) {
      expect((await call(1, 'GET', `/issues/${child.id}`)).body.parentId).toBe(parent.id);
    }
  });

  it('never store both of two concurrent relations that together close a cycle', async () => {
    const { call, issue } = await setup();
    for (let round = 0; round < 5; round++) {
      const a = await issue(`A${round}`);
      const b = await issue(`B${round}`);
      const c = await issue(`C${round}`);
      // Direct: A blocks B and B blocks A. Through a third: A blocks B, B blocks C, C blocks A.
      const direct = await Promise.all([
        call(0, 'POST', `/issues/${a.id}/relations`, { type: 'blocks', issueId: b.id }),
        call(1, 'POST', `/issues/${b.id}/relations`, { type: 'blocks', issueId: a.id }),
      ]);
      expect(statusesOf(direct).sort()).toEqual(['201', '422 relation_cycle']);
      const parents = await Promise.all([
        call(0, 'POST', `/issues/${b.id}/relations`, { type: 'parent_of', issueId: c.id }),
        call(1, 'POST', `/issues/${c.id}/relations`, { type: 'parent_of', issueId: b.id }),
      ]);
      expect(statusesOf(parents).sort()).toEqual(['201', '422 relation_cycle']);
    }
    for (let round = 0; round < 5; round++) {
      const [a, b, c] = [await issue(`X${round}`), await issue(`Y${round}`), await issue(`Z${round}`)];
      await call(0, 'POST', `/issues/${a.id}/relations`, { type: 'blocks', issueId: b.id });
      const closing = await Promise.all([
        call(0, 'POST', `/issues/${b.id}/relations`, { type: 'blocks', issueId: c.id }),
        call(1, 'POST', `/issues/${c.id}/relations`, { type: 'blocks', issueId: a.id }),
      ]);
      expect(statusesOf(closing).sort()).toEqual(['201', '422 relation_cycle']);
    }
  });

  it('give an issue one parent when two concurrent relations would each give it one', async () => {
    const { call, issue } = await setup();
    for (let round = 0; round < 5; round++) {
      const child = await issue(`Child ${round}`);
      const one = await issue(`Parent one ${round}`);
      const two = await issue(`Parent two ${round}`);
      const answers = await Promise.all([
        call(0, 'POST', `/issues/${child.id}/relations`, { type: 'child_of', issueId: one.id }),
        call(1, 'POST', `/issues/${two.id}/relations`, { type: 'parent_of', issueId: child.id }),
      ]);
      expect(statusesOf(answers).sort()).toEqual(['201', '422 second_parent']);
      const winner = answers[0]?.status === 201 ? one : two;
      const loser = winner === one ? two : one;
      expect((await call(0, 'GET', `/issues/${child.id}`)).body.parentId).toBe(winner.id);
      expect((await call(0, 'GET', `/issues/${winner.id}`)).body.subIssues).toBe(1);
      expect((await call(0, 'GET', `/issues/${loser.id}`)).body.subIssues).toBe(0);
    }
  });

  it('store one of two concurrent identical relations, the other refused as relation_exists', async () => {
    const { call, issue } = await setup();
    for (let round = 0; round < 5; round++) {
      const a = await issue(`A${round}`);
      const b = await issue(`B${round}`);
      const answers = await Promise.all([
        call(0, 'POST', `/issues/${a.id}/relations`, { type: 'relates_to', issueId: b.id }),
        call(1, 'POST', `/issues/${b.id}/relations`, { type: 'relates_to', issueId: a.id }),
      ]);
      expect(statusesOf(answers).sort()).toEqual(['201', '422 relation_exists']);
      const blocks = await Promise.all([
        call(0, 'POST', `/issues/${a.id}/relations`, { type: 'blocks', issueId: b.id }),
        call(1, 'POST', `/issues/${b.id}/relations`, { type: 'blocked_by', issueId: a.id }),
      ]);
      expect(statusesOf(blocks).sort()).toEqual(['201', '422 relation_exists']);
      expect((await call(0, 'GET', `/issues/${b.id}`)).body.blockedBy).toBe(1);
    }
  });
});
