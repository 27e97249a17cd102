import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, projects, tenancy } from '../../src/core/index.js';
import { issueToken } from '../../src/core/tenancy/operations.js';
import { createIssueRequest } from '../support/issue-request.js';
import { describeOnPostgres, requireDatabaseUrl } from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

/**
 * A create is told ahead what it claims and reads first (TransactionOptions.claimsKey and
 * readsFirst): the PostgreSQL adapter claims the Idempotency-Key and locks the project in the
 * grant's round trip, before the token is judged. Whatever the request then answers, the key
 * and the data are left as they would be without the hints.
 */
describeOnPostgres('hints of a write transaction on PostgreSQL', () => {
  const db = schemaPerTest();
  const { open } = db;

  async function setup(pipeline = true) {
    const pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: 4, pipeline } as pg.PoolConfig);
    const storage: PostgresStorage = postgresStorage({ pool, schema: db.name });
    open.push({ close: () => pool.end() }, storage);
    await storage.ready();
    const tracker = createTracker({ storage, rateLimit: false });
    open.unshift({ close: () => tracker.close() });
    const slug = `hints-${randomBytes(3).toString('hex')}`;
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace({ tx, ids: tracker.ids, now: Date.now() }, { slug, adminEmail: 'h@example.com' }),
    );
    const reader = await storage.transaction((tx) =>
      issueToken(
        { tx, ids: tracker.ids, now: Date.now() },
        { workspaceId: init.workspaceId, userId: init.userId, name: 'reader', scope: 'read' },
      ),
    );
    const project = await tracker.run({ workspaceSlug: slug }, (ctx) =>
      projects.create(ctx, { name: 'Hints' }),
    );
    const create = async (token: string, key: string, body: unknown) => {
      const answer = await tracker.handle(createIssueRequest(token, body, key));
      return { status: answer.status, body: JSON.parse(String(answer.body)) as Record<string, unknown> };
    };
    const count = async (table: string) => {
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${db.name}".${table}`);
      return rows[0].n as number;
    };
    return { create, count, init, reader, project, pool };
  }

  it('leaves no key claimed by a create the token may not make, the body fails, or the token is unknown', async () => {
    const { create, count, init, reader, project } = await setup();
    const key = crypto.randomUUID();
    expect((await create(reader.plain, key, { projectId: project.id, title: 'Read only' })).status).toBe(403);
    expect((await create(init.token, key, { projectId: project.id })).status).toBe(400);
    const unknown = `${init.token.slice(0, -4)}zzzz`;
    expect((await create(unknown, key, { projectId: project.id, title: 'Stranger' })).status).toBe(401);
    expect(await count('idempotency_keys')).toBe(0);
    expect(await count('issues')).toBe(0);
    // The key is fresh: the first create with it that may be made makes it.
    const made = await create(init.token, key, { projectId: project.id, title: 'Made' });
    expect(made.status).toBe(201);
    expect(made.body.number).toBe(1);
    expect(await count('idempotency_keys')).toBe(1);
    const again = await create(init.token, key, { projectId: project.id, title: 'Made' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(made.body.id);
  });

  it('answers a project it cannot find as without the hint, and numbers on without a gap', async () => {
    const { create, count, init, project } = await setup();
    const missing = await create(init.token, crypto.randomUUID(), {
      projectId: 'prj_nothere',
      title: 'Lost',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe('invalid_reference');
    expect(await count('idempotency_keys')).toBe(0);
    const made = await create(init.token, crypto.randomUUID(), { projectId: project.id, title: 'Found' });
    expect(made.status).toBe(201);
    expect(made.body.number).toBe(1);
  });

  it('works alike on a pool that does not pipeline (statements one after another)', async () => {
    const { create, count, init, reader, project } = await setup(false);
    const key = crypto.randomUUID();
    expect((await create(reader.plain, key, { projectId: project.id, title: 'Read only' })).status).toBe(403);
    const made = await create(init.token, key, { projectId: project.id, title: 'Made' });
    expect(made.status).toBe(201);
    expect((await create(init.token, key, { projectId: project.id, title: 'Made' })).status).toBe(200);
    expect(await count('idempotency_keys')).toBe(1);
  });
});
