import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { projects } from '../../src/core/index.js';
import { createIssueRequest } from '../support/issue-request.js';
import { observeClients } from '../support/observed-pool.js';
import { describeOnPostgres, dropSchema, freshSchema, requireDatabaseUrl } from '../support/postgres.js';
import { workspaceTracker } from '../support/workspace-tracker.js';

/**
 * Round trips to PostgreSQL per request, counted on a pool whose clients count their queries,
 * in pipeline mode as the storage makes its own pool: a `query` call made while none of the
 * client's is in flight starts a round trip, and one made while some are joins it (pipelined:
 * sent without waiting for the answers before). A simple query of several statements travels
 * as one.
 */
function countingPool(max: number) {
  const pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max, pipeline: true } as pg.PoolConfig);
  const sent: string[] = [];
  const inFlight = new WeakMap<pg.PoolClient, number>();
  observeClients(pool, (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === 'string' ? first : String((first as { text?: string }).text);
      const pending = inFlight.get(client) ?? 0;
      if (pending === 0 || sent.length === 0) sent.push(text);
      else sent[sent.length - 1] += `\n+ ${text}`;
      inFlight.set(client, pending + 1);
      const settle = () => inFlight.set(client, (inFlight.get(client) ?? 1) - 1);
      const callback = args[args.length - 1];
      if (typeof callback === 'function') {
        // pool.query's form: answered through the callback.
        args[args.length - 1] = (...answer: unknown[]) => {
          settle();
          return callback(...answer);
        };
        return query(...args);
      }
      const result = query(...args) as Promise<unknown>;
      result.then(settle, settle);
      return result;
    };
  });
  return { pool, sent };
}

describeOnPostgres('round trips of a request to PostgreSQL', () => {
  let schema = '';
  afterEach(async () => {
    if (schema) await dropSchema(schema);
    schema = '';
  });

  it('are at most 3 for an issue’s create (5 for an outcome’s or a decision’s) and 1 for a GET by id (an issue, a project), the notification sent after', async () => {
    schema = freshSchema();
    const { pool, sent } = countingPool(4);
    const storage = postgresStorage({ pool, schema });
    await storage.ready();
    const { tracker, token } = await workspaceTracker(storage, 'trips');
    try {
      const project = await tracker.run({ workspaceSlug: 'trips' }, (ctx) =>
        projects.create(ctx, { name: 'Trips' }),
      );
      const create = () =>
        tracker.handle(createIssueRequest(token, { projectId: project.id, title: 'Counted' }));
      const get = (id: string) =>
        tracker.handle({
          method: 'GET',
          path: `/api/v1/issues/${id}`,
          headers: { authorization: `Bearer ${token}` },
        });
      // The first use of the token refreshes its lastUsedAt (once a minute): not counted.
      const first = await create();
      expect(first.status).toBe(201);
      const { id } = JSON.parse(String(first.body)) as { id: string };

      const measure = async (request: () => Promise<{ status: number }>, status: number) => {
        sent.length = 0;
        expect((await request()).status).toBe(status);
        return sent.filter((text) => !text.includes('pg_notify'));
      };
      // Creates whose first read is the project their body names (Route.readsRowOfBody).
      const createOf = (path: string, body: unknown) => () =>
        tracker.handle({
          method: 'POST',
          path: `/api/v1${path}`,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': crypto.randomUUID(),
          },
          body: JSON.stringify(body),
        });
      // Their grant's round trip carries the key and the project too; their insert's predicate
      // lock and their signal take a round trip each (an issue's go with its number's statement).
      for (const [path, body] of [
        ['/outcomes', { projectId: project.id, title: 'Counted' }],
        ['/decisions', { projectId: project.id, title: 'Counted', rationale: 'Why' }],
      ] as const) {
        // The first of a kind makes its table's lock row: not counted.
        expect((await createOf(path, body)()).status).toBe(201);
        const trips = await measure(createOf(path, body), 201);
        expect(trips.length, `${path}\n${trips.join('\n')}`).toBeLessThanOrEqual(5);
        expect(trips[0], `${path}: its first round trip`).toContain('FROM projects r');
      }
      for (let i = 0; i < 3; i++) {
        const trips = await measure(create, 201);
        expect(trips.length, trips.join('\n')).toBeLessThanOrEqual(3);
        const reads = await measure(() => get(id), 200);
        expect(reads.length, reads.join('\n')).toBe(1);
        const projectReads = await measure(
          () =>
            tracker.handle({
              method: 'GET',
              path: `/api/v1/projects/${project.id}`,
              headers: { authorization: `Bearer ${token}` },
            }),
          200,
        );
        expect(projectReads.length, projectReads.join('\n')).toBe(1);
      }
      // The notification is a statement of its own, after the commit, and never inside it.
      sent.length = 0;
      expect((await create()).status).toBe(201);
      for (let polls = 0; !sent.some((text) => text.includes('pg_notify')); polls++) {
        if (polls > 500) throw new Error('no notification sent after the commit');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const notify = sent.findIndex((text) => text.includes('pg_notify'));
      const commit = sent.findIndex((text) => text.endsWith('COMMIT'));
      expect(commit).toBeGreaterThanOrEqual(0);
      expect(notify).toBeGreaterThan(commit);
      expect(sent[notify]).not.toContain('COMMIT');
    } finally {
      await tracker.close();
      await pool.end();
    }
  });
});
