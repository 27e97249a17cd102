import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, projects, randomIds, tenancy, webhooks } from '../../src/core/index.js';
import { operationContext } from '../../src/core/pipeline/context.js';
import type { Storage, StorageTx } from '../../src/core/port/index.js';
import { at, sampleDelivery, sampleWebhook } from '../conformance/fixtures.js';
import { describeOnPostgres, onCitus, requireDatabaseUrl } from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

/**
 * The lock audit of the PostgreSQL adapter (transaction.ts), rule by rule: two storages on one
 * schema (as two processes), each race arranged so that the second transaction reaches the
 * contested data while the first is between its read and its write. Each first transaction
 * pauses there until the second one either waits for a lock (the rule's lock at work) or has
 * ended (no lock: the race is lost, and the test fails).
 */
type Tracker = ReturnType<typeof createTracker>;

describeOnPostgres('the PostgreSQL lock audit', () => {
  const db = schemaPerTest();
  const { open } = db;

  /** A storage whose connections name themselves, so a test can see them wait for a lock. */
  function storageNamed(name: string): PostgresStorage {
    const url = new URL(requireDatabaseUrl());
    url.searchParams.set('application_name', name);
    return postgresStorage({ connectionString: url.toString(), schema: db.name, poolMax: 4 });
  }

  /**
   * The test's own connection, to look at sessions and rows: without the session options of a
   * Citus run (which refuse a statement spanning shards, as the orphan counts below do).
   */
  const monitor = async <T>(use: (client: pg.Client) => Promise<T>): Promise<T> => {
    const url = new URL(requireDatabaseUrl());
    url.searchParams.delete('options');
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  };

  const lockWaitSql =
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'";
  // On a Citus cluster the row locks are taken on the workers, by backends serving the named
  // session's distributed transaction (the same global pid), while the session itself waits for
  // their answer (ClientRead): a wait for a lock on any node.
  const citusLockWaitSql =
    "SELECT count(*)::int AS n FROM pg_catalog.citus_stat_activity w WHERE w.wait_event_type = 'Lock' " +
    'AND w.global_pid IN (SELECT c.global_pid FROM pg_catalog.citus_stat_activity c WHERE c.application_name = $1)';

  /** Resolves once a connection of `name` waits for a lock, or once `ended()` holds. */
  async function waitsOrEnded(name: string, ended: () => boolean): Promise<'waits' | 'ended'> {
    return monitor(async (client) => {
      for (let polls = 0; ; polls++) {
        if (ended()) return 'ended';
        const { rows } = await client.query(onCitus ? citusLockWaitSql : lockWaitSql, [name]);
        if (rows[0].n > 0) return 'waits';
        if (polls > 2000) throw new Error(`${name} neither waited for a lock nor ended`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
  }

  /** The storage with `pause` run after the store call `pick` chose, once per transaction. */
  function pausing(
    storage: Storage,
    wrap: (tx: StorageTx, pause: () => Promise<void>) => StorageTx,
    pause: () => Promise<void>,
  ): Storage {
    return {
      ...storage,
      transaction: (fn, options) =>
        storage.transaction((tx) => {
          let paused = false;
          const once = async () => {
            if (paused) return;
            paused = true;
            await pause();
          };
          return fn(wrap(tx, once));
        }, options),
    };
  }

  /**
   * A tracker over `storage` whose transactions pause once, after their first read of a row of
   * `collection`, until `pause` resolves; `read` hears whether that read sent a statement.
   */
  function pausingAfterGet(
    storage: Storage,
    collection: 'outcomes' | 'projects',
    pause: () => Promise<void>,
    read: (sentStatement: boolean) => void = () => {},
  ): Tracker {
    const tracker = createTracker({
      storage: pausing(
        storage,
        (tx, once) => ({
          ...tx,
          collections: {
            ...tx.collections,
            [collection]: {
              ...tx.collections[collection],
              get: async (...args: Parameters<StorageTx['collections']['outcomes']['get']>) => {
                const busy = tx.busyMs();
                const row = await tx.collections[collection].get(...args);
                read(tx.busyMs() !== busy);
                await once();
                return row;
              },
            },
          },
        }),
        pause,
      ),
      rateLimit: false,
    });
    open.push({ close: () => tracker.close() });
    return tracker;
  }

  async function setup() {
    const names = [`ot_a_${randomBytes(4).toString('hex')}`, `ot_b_${randomBytes(4).toString('hex')}`];
    const [a, b] = names.map(storageNamed) as [PostgresStorage, PostgresStorage];
    open.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    const tracker = createTracker({ storage: a, rateLimit: false });
    open.push({ close: () => tracker.close() });
    const slug = `audit-${randomBytes(3).toString('hex')}`;
    const init = await a.transaction((tx) =>
      tenancy.initWorkspace({ tx, ids: tracker.ids, now: Date.now() }, { slug, adminEmail: 'a@example.com' }),
    );
    const project = await tracker.run({ workspaceSlug: slug }, (ctx) =>
      projects.create(ctx, { name: 'Audit' }),
    );
    return { a, b, names: names as [string, string], tracker, init, project, slug };
  }

  const call = async (
    tracker: Tracker,
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const answer = await tracker.handle({
      method,
      path: `/api/v1${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: answer.body ? JSON.parse(String(answer.body)) : null };
  };

  for (const kind of ['issues', 'decisions', 'time-entries'] as const) {
    it(`never both delete an outcome and create ${kind} against it`, async () => {
      const { a, b, names, init, project } = await setup();
      const plain = createTracker({ storage: a, rateLimit: false });
      open.push({ close: () => plain.close() });
      const outcome = await call(plain, init.token, 'POST', '/outcomes', {
        projectId: project.id,
        title: 'Contested',
      });
      let deleted: { status: number } | null = null;
      // The creator reads the outcome, then pauses until the deleter waits for it (or is done).
      const creator = pausingAfterGet(a, 'outcomes', async () => {
        void deleter();
        await waitsOrEnded(names[1], () => deleted !== null);
      });
      const other = createTracker({ storage: b, rateLimit: false });
      open.push({ close: () => other.close() });
      let deleting: Promise<{ status: number }> | null = null;
      const deleter = () => {
        deleting ??= call(other, init.token, 'DELETE', `/outcomes/${outcome.body.id}`, undefined, {
          'if-match': '"1"',
        }).then((answer) => {
          deleted = answer;
          return answer;
        });
        return deleting;
      };
      const body = {
        issues: { projectId: project.id, title: 'Against it', outcomeId: outcome.body.id },
        decisions: {
          projectId: project.id,
          title: 'Against it',
          rationale: 'Why',
          outcomeId: outcome.body.id,
        },
        'time-entries': { outcomeId: outcome.body.id, minutes: 5, date: '2026-11-27' },
      }[kind];
      const created = await call(creator, init.token, 'POST', `/${kind}`, body);
      const removal = await (deleting as Promise<{ status: number }> | null);
      expect(removal).not.toBeNull();
      expect([created.status, removal?.status].sort()).not.toEqual([201, 204]);
      expect(created.status === 201 || removal?.status === 204).toBe(true);
      // What is stored agrees: no row refers to a deleted outcome.
      const orphans = await monitor(async (client) => {
        const table = { issues: 'issues', decisions: 'decisions', 'time-entries': 'time_entries' }[kind];
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM "${db.name}".${table} r WHERE r.outcome_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${db.name}".outcomes o WHERE o.account_id = r.account_id AND o.id = r.outcome_id)`,
        );
        return rows[0].n as number;
      });
      expect(orphans).toBe(0);
    });
  }

  it('never both delete a project and create an issue in it, its project read and locked with the grant', async () => {
    const { a, b, names, init, tracker } = await setup();
    const doomed = await call(tracker, init.token, 'POST', '/projects', { name: 'Doomed' });
    const projectId = doomed.body.id as string;
    // Projects are archived, not deleted, through the API: the deleter is the storage's rule
    // for removing a row others refer to (count its referrers, then delete), as an outcome's is.
    let deleted: boolean | null = null;
    let deleting: Promise<boolean> | null = null;
    const deleter = () => {
      deleting ??= b
        .transaction(async (tx) => {
          const referrers = await tx.collections.issues.count(init.workspaceId, { projectId });
          return referrers === 0 && (await tx.collections.projects.delete(init.workspaceId, projectId));
        })
        .then((answer) => {
          deleted = answer;
          return answer;
        });
      return deleting;
    };
    // The create is told its project ahead (Route.readsRowOfBody): the row comes with the
    // grant's round trip, so the creator pauses after taking it, before its number and insert.
    let readAhead = false;
    const creator = pausingAfterGet(
      a,
      'projects',
      async () => {
        void deleter();
        await waitsOrEnded(names[1], () => deleted !== null);
      },
      (sentStatement) => {
        readAhead = !sentStatement;
      },
    );
    const created = await call(creator, init.token, 'POST', '/issues', { projectId, title: 'In it' });
    const removed = await (deleting as Promise<boolean> | null);
    expect(readAhead).toBe(true);
    expect(removed).not.toBeNull();
    expect(created.status === 201 && removed === true).toBe(false);
    expect(created.status === 201 || removed === true).toBe(true);
    const orphans = await monitor(async (client) => {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM "${db.name}".issues i WHERE NOT EXISTS (SELECT 1 FROM "${db.name}".projects p WHERE p.account_id = i.account_id AND p.id = i.project_id)`,
      );
      return rows[0].n as number;
    });
    expect(orphans).toBe(0);
  });

  it('never leave a workspace without an admin when two sessions demote or remove its two admins at once', async () => {
    const { a, b, names, init, slug } = await setup();
    const plain = createTracker({ storage: a, rateLimit: false });
    open.push({ close: () => plain.close() });
    const added = await call(plain, init.token, 'POST', '/members', {
      email: 'second@example.com',
      role: 'admin',
    });
    expect(added.status).toBe(201);
    const second = await a.transaction(async (tx) => {
      const workspace = await tx.tenancy.getWorkspaceBySlug(slug);
      return tenancy.issueToken(
        { tx, ids: plain.ids, now: Date.now() },
        {
          workspaceId: workspace?.id as string,
          userId: added.body.id,
          name: 'second',
          scope: 'read_write',
        },
      );
    });
    let removed: { status: number } | null = null;
    let removing: Promise<{ status: number }> | null = null;
    const other = createTracker({ storage: b, rateLimit: false });
    open.push({ close: () => other.close() });
    // The second admin removes the first while the first, having counted two admins, pauses.
    const remover = () => {
      removing ??= call(other, second.plain, 'DELETE', `/members/${init.userId}`, undefined, {
        'if-match': '"1"',
      }).then((answer) => {
        removed = answer;
        return answer;
      });
      return removing;
    };
    const demoter = createTracker({
      storage: pausing(
        a,
        (tx, pause) => ({
          ...tx,
          tenancy: {
            ...tx.tenancy,
            listMembers: async (query) => {
              const page = await tx.tenancy.listMembers(query);
              if (query.role === 'admin') await pause();
              return page;
            },
          },
        }),
        async () => {
          void remover();
          await waitsOrEnded(names[1], () => removed !== null);
        },
      ),
      rateLimit: false,
    });
    open.push({ close: () => demoter.close() });
    const demoted = await call(
      demoter,
      init.token,
      'PATCH',
      `/members/${added.body.id}`,
      { role: 'member' },
      {
        'if-match': `"${added.body.version}"`,
      },
    );
    const removal = await (removing as Promise<{ status: number }> | null);
    expect([demoted.status, removal?.status]).not.toEqual([200, 204]);
    const admins = await b.transaction((tx) =>
      tx.tenancy.listMembers({ workspaceId: init.workspaceId, role: 'admin', limit: 10 }),
    );
    expect(admins.total).toBeGreaterThanOrEqual(1);
  });

  it('never let a retry of a delivery racing a dispatcher’s claim make it claimable twice (sent once)', async () => {
    // No tracker here: its dispatcher would claim the delivery too.
    const names = [`ot_a_${randomBytes(4).toString('hex')}`, `ot_b_${randomBytes(4).toString('hex')}`];
    const [a, b] = names.map(storageNamed) as [PostgresStorage, PostgresStorage];
    open.push(a, b);
    const init = await a.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: randomIds, now: Date.now() },
        { slug: 'retry', adminEmail: 'r@example.com' },
      ),
    );
    const hook = sampleWebhook(init.accountId);
    const delivery = sampleDelivery(init.accountId, hook.id, { status: 'failed', nextAttemptAt: null });
    await a.transaction(async (tx) => {
      await tx.webhooks.insert(hook);
      await tx.deliveries.insert(delivery);
    });
    const tenant = {
      accountId: init.accountId,
      workspaceId: init.workspaceId,
      actor: { userId: init.userId, tokenId: null },
    };
    const retry = (storage: Storage) =>
      storage.transaction((tx) =>
        webhooks.retryDelivery(
          operationContext(tx, new Date().toISOString(), randomIds, tenant, null),
          hook.id,
          delivery.id,
        ),
      );
    // Made claimable (due now) by a first retry, as an admin's redelivery does.
    await retry(a);
    const claim = (storage: Storage) =>
      storage.transaction((tx) =>
        tx.deliveries.claimDue({
          now: new Date(Date.now() + 60_000).toISOString(),
          leaseId: crypto.randomUUID(),
          leaseUntil: new Date(Date.now() + 3_600_000).toISOString(),
          limit: 10,
        }),
      );
    let claimed: string[] | null = null;
    let claiming: Promise<string[]> | null = null;
    // A second retry reads the pending delivery, then pauses while a dispatcher claims it.
    const racing = pausing(
      a,
      (tx, pause) => ({
        ...tx,
        deliveries: {
          ...tx.deliveries,
          get: async (...args) => {
            const row = await tx.deliveries.get(...args);
            await pause();
            return row;
          },
        },
      }),
      async () => {
        claiming ??= claim(b).then((rows) => {
          claimed = rows.map((d) => d.id);
          return claimed;
        });
        await waitsOrEnded(names[1] as string, () => claimed !== null);
      },
    );
    await retry(racing).catch(() => null);
    const first = await (claiming as Promise<string[]> | null);
    const again = (await claim(b)).map((d) => d.id);
    // Every claim while a lease is live is a send: one in all.
    expect([...(first ?? []), ...again].filter((id) => id === delivery.id)).toHaveLength(1);
  });

  it('never lose a webhook secret rotation or a delivery’s result recorded on the subscription when they race', async () => {
    const { a, b, names, init, slug } = await setup();
    const hook = sampleWebhook(init.accountId, { createdAt: at(0) });
    await a.transaction((tx) => tx.webhooks.insert(hook));
    const rotator = createTracker({ storage: b, rateLimit: false });
    open.push({ close: () => rotator.close() });
    let rotated: unknown = null;
    let rotating: Promise<unknown> | null = null;
    // A dispatcher records a failure streak (read, then write the same version), pausing
    // between the two while the secret is rotated from another process.
    const recording = a.transaction(async (tx) => {
      const current = await tx.webhooks.get(init.accountId, hook.id);
      if (!current) throw new Error('subscription vanished');
      rotating ??= rotator
        .run({ workspaceSlug: slug }, (ctx) => webhooks.rotateSecret(ctx, hook.id))
        .then(
          (view) => {
            rotated = view;
            return view;
          },
          (error: unknown) => {
            rotated = error;
            throw error;
          },
        );
      await waitsOrEnded(names[1], () => rotated !== null);
      await tx.webhooks.update({ ...current, failingSince: at(5) }, current.version);
    });
    await expect(recording).resolves.toBeUndefined();
    const view = (await (rotating as Promise<unknown> | null)) as { secret: string };
    const stored = await a.transaction((tx) => tx.webhooks.get(init.accountId, hook.id));
    expect(stored).toMatchObject({ secret: view.secret, previousSecret: hook.secret, failingSince: at(5) });
  });

  it('authenticate no request after the revoke of its token commits, on any storage', async () => {
    const { b, init, project, tracker } = await setup();
    // A list, and a read by id, whose row is read in the token's statement (readsFirst).
    const paths = ['/projects', `/projects/${project.id}`];
    let sent = 0;
    const path = () => paths[sent++ % paths.length] as string;
    for (const read of paths) expect((await call(tracker, init.token, 'GET', read)).status).toBe(200);
    const requests: Promise<{ status: number; startedAfterRevoke: boolean }>[] = [];
    let revoked = false;
    const revoking = b
      .transaction(async (tx) => {
        const token = (await tx.tokens.list(init.workspaceId))[0];
        await tx.tokens.revoke(token?.id as string, new Date().toISOString());
      })
      .then(() => {
        revoked = true;
      });
    while (!revoked) {
      const startedAfterRevoke = revoked;
      requests.push(
        call(tracker, init.token, 'GET', path()).then((r) => ({
          status: r.status,
          startedAfterRevoke,
        })),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    await revoking;
    for (let i = 0; i < 5; i++) {
      requests.push(
        call(tracker, init.token, 'GET', path()).then((r) => ({
          status: r.status,
          startedAfterRevoke: true,
        })),
      );
    }
    const answers = await Promise.all(requests);
    for (const answer of answers.filter((x) => x.startedAfterRevoke)) expect(answer.status).toBe(401);
    for (const answer of answers) expect([200, 401]).toContain(answer.status);
  });

  it('create once for concurrent creates with one Idempotency-Key over two storages, replaying it to the others', async () => {
    const { b, init, project, tracker } = await setup();
    const other = createTracker({ storage: b, rateLimit: false });
    open.push({ close: () => other.close() });
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(
          i % 2 ? other : tracker,
          init.token,
          'POST',
          '/issues',
          { projectId: project.id, title: 'Once' },
          {
            'idempotency-key': key,
          },
        ),
      ),
    );
    const statuses = answers.map((x) => x.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const s of statuses) expect([200, 201, 409]).toContain(s);
    const ids = new Set(answers.filter((x) => x.status !== 409).map((x) => x.body.id));
    expect(ids.size).toBe(1);
    const count = await b.transaction((tx) => tx.collections.issues.count(init.workspaceId, {}));
    expect(count).toBe(1);
  });

  it('let exactly one of concurrent If-Match updates of one version succeed over two storages', async () => {
    const { b, init, project, tracker } = await setup();
    const other = createTracker({ storage: b, rateLimit: false });
    open.push({ close: () => other.close() });
    const issue = await call(tracker, init.token, 'POST', '/issues', {
      projectId: project.id,
      title: 'Edited',
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(
          i % 2 ? other : tracker,
          init.token,
          'PATCH',
          `/issues/${issue.body.id}`,
          { title: `Edit ${i}` },
          {
            'if-match': '"1"',
          },
        ),
      ),
    );
    const statuses = answers.map((x) => x.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    const stored = await b.transaction((tx) => tx.collections.issues.get(init.workspaceId, issue.body.id));
    expect(stored?.version).toBe(2);
  });
});
