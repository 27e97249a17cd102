import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, runCli, type Served, startServeJson } from '../cli/process.js';
import { describeUnless } from '../support/describe-unless.js';
import {
  type Account,
  type Answer,
  honour,
  initAccount,
  isRetryable503,
  placementOf,
  query,
  send,
} from './load.js';
import { type PrivateCluster, privateClusterSkipReason, startPrivateCluster } from './private-cluster.js';

/**
 * A worker of a Citus cluster stops (as a crashed machine: `pg_ctl stop -m immediate`) under a
 * running `serve`. The requests of the account whose rows are on it answer 503 with Retry-After,
 * within the client's timeout (no hang); the account on the other worker keeps working; once the
 * worker is back, the first account works again on the same `serve` process. On a cluster of the
 * test's own (test/citus/private-cluster.ts): the shared one is other runs' too.
 */
const skipReason = privateClusterSkipReason();

/** How long a client waits for any answer: `serve`'s must come well within it. */
const clientTimeoutMs = 30_000;

describeUnless(skipReason, 'a Citus worker down (a private cluster)', () => {
  beforeAll(assertBuilt);
  let cluster: PrivateCluster;
  let serve: Served & { startup: { url: string } };
  let db: string;
  let schema: string;
  beforeAll(async () => {
    cluster = await startPrivateCluster();
    schema = 'ot_down';
    const url = new URL(cluster.url);
    url.searchParams.set('schema', schema);
    url.searchParams.set('options', '-c citus.shard_count=4');
    db = url.toString();
    const distributed = await runCli(['distribute', '--db', db]);
    expect(distributed.code, distributed.stderr).toBe(0);
  }, 240_000);
  afterAll(async () => {
    await serve?.stop();
    await cluster?.destroy();
  }, 120_000);

  it('answers 503 with Retry-After for the account on the stopped worker, 2xx for the other, and recovers without a restart', async () => {
    const down = await initAccount(db, 'down');
    const up = await initAccount(db, 'up');
    // Each account on a shard of its own, the two shards on different workers.
    const shardOf = async (account: Account) => {
      const rows = await query<{ shard: string }>(
        cluster.url,
        "SELECT isolate_tenant_to_new_shard($1::regclass, $2::text, 'CASCADE', shard_transfer_mode => 'block_writes') AS shard",
        [`"${schema}".accounts`, account.accountId],
      );
      return placementOf(cluster.url, schema, account.accountId).then((p) => {
        expect(p.shardId).toBe(Number(rows[0]?.shard));
        return p;
      });
    };
    const downAt = await shardOf(down);
    let upAt = await shardOf(up);
    if (upAt.port === downAt.port) {
      const other = cluster.workers.find((p) => p !== downAt.port) as number;
      await query(
        cluster.url,
        "SELECT citus_move_shard_placement($1, '127.0.0.1', $2, '127.0.0.1', $3, shard_transfer_mode => 'block_writes')",
        [upAt.shardId, upAt.port, other],
      );
      upAt = await placementOf(cluster.url, schema, up.accountId);
    }
    expect(upAt.port).not.toBe(downAt.port);
    expect(cluster.workers).toContain(downAt.port);
    expect(cluster.workers).toContain(upAt.port);

    serve = await startServeJson(['--db', db, '--rate-limit', '0']);
    const base = serve.startup.url;
    const loggedErrors = () => serve.logLines.filter((l) => /"level":"(error|fatal)"/.test(l));
    const call = (
      account: Account,
      method: string,
      path: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => send(base, method, path, { token: account.token, body, headers, timeoutMs: clientTimeoutMs });

    const seed = async (account: Account) => {
      const project = await call(
        account,
        'POST',
        '/projects',
        { name: 'Down' },
        { 'idempotency-key': randomUUID() },
      );
      expect(project.status, project.text).toBe(201);
      const issue = await call(
        account,
        'POST',
        '/issues',
        { projectId: project.json.id, title: 'Before' },
        { 'idempotency-key': randomUUID() },
      );
      expect(issue.status, issue.text).toBe(201);
      return { projectId: project.json.id as string, issueId: issue.json.id as string };
    };
    const downSeed = await seed(down);
    const upSeed = await seed(up);

    await cluster.stop(downAt.port);

    // The account on the stopped worker: every kind of request answers 503 with Retry-After
    // (send() aborts, failing the test, when no answer comes within the client's timeout).
    const createKey = randomUUID();
    const refused: Answer[] = [
      await call(down, 'GET', `/issues/${downSeed.issueId}`),
      await call(down, 'GET', `/issues?projectId=${downSeed.projectId}`),
      await call(
        down,
        'POST',
        '/issues',
        { projectId: downSeed.projectId, title: 'While down' },
        { 'idempotency-key': createKey },
      ),
      await call(
        down,
        'PATCH',
        `/issues/${downSeed.issueId}`,
        { title: 'Changed while down' },
        { 'if-match': '"1"' },
      ),
    ];
    for (const answer of refused) {
      expect(isRetryable503(answer), `${answer.method} ${answer.path}: ${answer.status} ${answer.text}`).toBe(
        true,
      );
      expect(answer.json?.error).toBe('service_unavailable');
    }

    // The account on the other worker keeps working, on the same process.
    const upCreate = await call(
      up,
      'POST',
      '/issues',
      { projectId: upSeed.projectId, title: 'While the other is down' },
      { 'idempotency-key': randomUUID() },
    );
    expect(upCreate.status, `${upCreate.text}\n${loggedErrors().slice(-2).join('\n')}`).toBe(201);
    expect(upCreate.json.number).toBe(2);
    const upPatch = await call(
      up,
      'PATCH',
      `/issues/${upSeed.issueId}`,
      { title: 'Changed' },
      { 'if-match': '"1"' },
    );
    expect(upPatch.status, upPatch.text).toBe(200);
    const upRead = await call(up, 'GET', `/issues/${upCreate.json.id}`);
    expect(upRead.status, upRead.text).toBe(200);

    // The worker back: the first account works again, with the same serve process. The create
    // refused while it was down is sent again with its key, after each Retry-After, until answered.
    await cluster.start(downAt.port);
    let created: Answer | undefined;
    for (let tries = 0; tries < 60; tries++) {
      const answer = await call(
        down,
        'POST',
        '/issues',
        { projectId: downSeed.projectId, title: 'While down' },
        { 'idempotency-key': createKey },
      );
      if (!isRetryable503(answer)) {
        created = answer;
        break;
      }
      await honour(answer);
    }
    expect(created?.status, created?.text).toBe(201);
    expect(created?.json.number).toBe(2);
    const patched = await call(
      down,
      'PATCH',
      `/issues/${downSeed.issueId}`,
      { title: 'Changed after' },
      { 'if-match': '"1"' },
    );
    expect(patched.status, patched.text).toBe(200);
    const listed = await call(down, 'GET', `/issues?projectId=${downSeed.projectId}`);
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((i: { number: number }) => i.number).sort()).toEqual([1, 2]);
    const signals = await call(down, 'GET', '/signals');
    expect(signals.status).toBe(200);
    expect(signals.json.data.map((s: { sequence: number }) => s.sequence)).toEqual([1, 2, 3, 4]);
    expect(serve.child.exitCode).toBeNull();
    // Logged: the 503s, each with its cause (the worker's address); nothing else failed.
    const failed = loggedErrors();
    expect(failed.length).toBeGreaterThanOrEqual(refused.length);
    const others = failed.filter((l) => !l.includes('"type":"StorageUnavailable"'));
    expect(others, others.join('\n')).toEqual([]);
    expect(failed.every((l) => l.includes(`127.0.0.1:${downAt.port} failed`))).toBe(true);
  }, 240_000);
});
