import { beforeAll, expect, it } from 'vitest';
import { assertBuilt, runCli, type Served, startServeJson } from '../cli/process.js';
import { describeUnless } from '../support/describe-unless.js';
import {
  Answers,
  checkLedger,
  initAccount,
  isRetryable503,
  loadLoop,
  newLedger,
  placementOf,
  query,
  send,
} from './load.js';
import { citusSchemas, citusSkipReason, citusUrl } from './support.js';

/**
 * docs/scaling.md, "When an account grows": an account is given a shard of its own
 * (`isolate_tenant_to_new_shard(…, 'CASCADE')`) and that shard moved to the other worker
 * (`citus_move_shard_placement(…, 'block_writes')`), while two `serve` processes on the coordinator
 * take creates, updates and reads of that account. Nothing acknowledged may be lost, and every
 * answer is 2xx or 503 with Retry-After.
 */
describeUnless(citusUrl ? null : citusSkipReason, 'an account moved under load (Citus)', () => {
  const coordinator = citusUrl ?? '';
  beforeAll(assertBuilt);
  const fresh = citusSchemas();

  it('isolates the account to its own shard and moves it to the other worker: nothing acknowledged is lost, no 500', async () => {
    const { schema, url } = fresh();
    const distributed = await runCli(['distribute', '--db', url]);
    expect(distributed.code, distributed.stderr).toBe(0);
    const moved = await initAccount(url, 'moved');
    const neighbour = await initAccount(url, 'neighbour');

    const servers: Served[] = [];
    try {
      for (let i = 0; i < 2; i++) servers.push(await startServeJson(['--db', url, '--rate-limit', '0']));
      const urls = servers.map((s) => (s as Served & { startup: { url: string } }).startup.url);

      const projects: string[] = [];
      for (const account of [moved, neighbour]) {
        const project = await send(urls[0] as string, 'POST', '/projects', {
          token: account.token,
          body: { name: 'Moving' },
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        expect(project.status, project.text).toBe(201);
        projects.push(project.json.id);
      }

      // The load: three clients of the moved account, one of its neighbour (another account of
      // the same shard before the isolation), each alternating between the two processes.
      const answers = new Answers();
      const ledgers = [newLedger(), newLedger(), newLedger(), newLedger()];
      let stopping = false;
      let moveDone = false;
      const cyclesAfterMove = [0, 0, 0, 0];
      const cyclesBefore = [0, 0, 0, 0];
      let wakeStart: () => void = () => {};
      const started = new Promise<void>((resolve) => {
        wakeStart = resolve;
      });
      let wakeEnough: () => void = () => {};
      const enough = new Promise<void>((resolve) => {
        wakeEnough = resolve;
      });
      const loops = ledgers.map((ledger, i) => {
        const account = i < 3 ? moved : neighbour;
        // A loop that stops on an answer it may not retry stops the others: the test then reports it.
        return loadLoop({
          urls: i % 2 ? [...urls].reverse() : urls,
          token: account.token,
          projectId: projects[i < 3 ? 0 : 1] as string,
          answers,
          ledger,
          stop: () => stopping,
          cycled: () => {
            if (moveDone) {
              cyclesAfterMove[i] = (cyclesAfterMove[i] ?? 0) + 1;
              if (cyclesAfterMove.every((n) => n >= 3)) wakeEnough();
            } else {
              cyclesBefore[i] = (cyclesBefore[i] ?? 0) + 1;
              if (cyclesBefore.every((n) => n >= 2)) wakeStart();
            }
          },
        }).finally(() => {
          stopping = true;
          wakeStart();
          wakeEnough();
        });
      });
      // A loop that ends early (an unexpected answer) must not leave the test waiting.
      const ended = Promise.all(loops).finally(() => {
        wakeStart();
        wakeEnough();
      });
      ended.catch(() => {});

      await started;
      const step = (what: string) =>
        console.error(
          `[tenant-move] ${new Date().toISOString()} ${what}: ${answers.all.length} answers ${JSON.stringify(answers.statuses())}`,
        );
      step('isolating');
      const isolateFrom = performance.now();
      const before = await placementOf(coordinator, schema, moved.accountId);
      const isolated = await query<{ shard: string }>(
        coordinator,
        "SELECT isolate_tenant_to_new_shard($1::regclass, $2::text, 'CASCADE', shard_transfer_mode => 'block_writes') AS shard",
        [`"${schema}".accounts`, moved.accountId],
      );
      const shardId = Number(isolated[0]?.shard);
      step('isolated');
      const isolateTo = performance.now();
      const own = await placementOf(coordinator, schema, moved.accountId);
      expect(own.shardId).toBe(shardId);
      expect(own.shardId).not.toBe(before.shardId);
      const workers = await query<{ nodename: string; nodeport: number }>(
        coordinator,
        "SELECT nodename, nodeport FROM pg_dist_node WHERE noderole = 'primary' AND shouldhaveshards AND groupid <> 0 ORDER BY nodeport",
      );
      const target = workers.find((w) => w.nodeport !== own.port);
      expect(target, 'another worker').toBeDefined();
      const moveFrom = performance.now();
      await query(
        coordinator,
        "SELECT citus_move_shard_placement($1, $2, $3, $4, $5, shard_transfer_mode => 'block_writes')",
        [shardId, own.host, own.port, target?.nodename, target?.nodeport],
      );
      const moveTo = performance.now();
      step('moved');
      const after = await placementOf(coordinator, schema, moved.accountId);
      expect(after).toEqual({ shardId, host: target?.nodename, port: target?.nodeport });
      // Every colocated table's shard of the account moved with it (CASCADE): its issues, signals
      // and tokens are on the new node too.
      for (const table of ['issues', 'signals', 'tokens', 'idempotency_keys']) {
        const placed = await placementOf(coordinator, schema, moved.accountId, table);
        expect(placed.port, table).toBe(target?.nodeport);
      }
      moveDone = true;

      await enough;
      step('enough');
      stopping = true;
      await ended;

      const unexpected = answers.unexpected();
      const logged = servers.flatMap((s) =>
        s.logLines.filter((l) => /failed|"err"|error/i.test(l) && !/"status":[23]/.test(l)),
      );
      expect(unexpected, [...unexpected, ...logged].join('\n').slice(0, 20_000)).toEqual([]);
      expect(answers.count((a) => a.status >= 500 && !isRetryable503(a))).toBe(0);
      // The load was on while each step ran: requests were sent before it ended and answered after it began.
      expect(answers.overlapping(isolateFrom, isolateTo), 'requests during the isolation').toBeGreaterThan(0);
      expect(answers.overlapping(moveFrom, moveTo), 'requests during the move').toBeGreaterThan(0);
      // Every loop ran to the end (none stopped on an answer it could not retry).
      expect(
        cyclesAfterMove.every((n) => n >= 3),
        `cycles after the move: ${cyclesAfterMove}`,
      ).toBe(true);
      for (const [i, ledger] of ledgers.entries()) {
        expect(ledger.created.size).toBe(ledger.updates);
        expect(ledger.reads).toBe(ledger.updates);
        expect(ledger.created.size, `client ${i}`).toBeGreaterThan(0);
      }
      const merged = (from: number, to: number) => {
        const all = newLedger();
        for (const ledger of ledgers.slice(from, to)) {
          for (const [k, v] of ledger.created) all.created.set(k, v);
          for (const [k, v] of ledger.titles) all.titles.set(k, v);
        }
        return all;
      };
      await checkLedger(urls[1] as string, moved.token, projects[0] as string, merged(0, 3));
      await checkLedger(urls[0] as string, neighbour.token, projects[1] as string, merged(3, 4));
      console.log(
        `tenant move: ${answers.all.length} answers ${JSON.stringify(answers.statuses())}; ` +
          `${merged(0, 3).created.size} issues of the moved account, ${merged(3, 4).created.size} of its neighbour`,
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    // Nothing failed but what answered 503 (StorageUnavailable, logged with its cause).
    const errors = servers.flatMap((s) =>
      s.logLines.filter(
        (l) => /"level":"(error|fatal)"/.test(l) && !l.includes('"type":"StorageUnavailable"'),
      ),
    );
    expect(errors, errors.join('\n')).toEqual([]);
  }, 300_000);
});
