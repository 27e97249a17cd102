// Webhook delivery throughput: signed deliveries per second from one in-process tracker (SQLite
// file) to one loopback receiver running in a child process, over BENCH_WEBHOOK_EVENTS events
// (default 5,000); with the storage transactions and TCP connections it took, and how many
// transactions a started dispatcher with nothing to do runs per second. Run alone
// (`node bench/webhooks.js`) it prints JSON; `bench/run.js` puts the figures in its table.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStorage } from '../dist/adapters/sqlite/index.js';
import { createTracker, issues, projects, tenancy } from '../dist/core/index.js';
import { nodeWebhookSender } from '../dist/http/webhook-sender.js';

if (process.argv[2] === 'receiver') {
  // The receiver: answers every POST 204 once its body is read, counting requests and connections.
  let requests = 0;
  let connections = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(204).end();
    });
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', () => process.send({ requests, connections }));
} else {
  const figures = await webhookThroughput(Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5000));
  if (process.send) process.send(figures);
  else console.log(JSON.stringify(figures, null, 2));
}

/** Asks the receiver child for its counters. */
function receiverCounts(child) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send('count');
  });
}

async function webhookThroughput(events) {
  const receiver = fork(new URL(import.meta.url), ['receiver']);
  const { port } = await new Promise((resolve) => receiver.once('message', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'ot-bench-webhooks-'));
  const inner = sqliteStorage({ filename: join(dir, 'webhooks.db') });
  let transactions = 0;
  const storage = {
    ...inner,
    transaction(fn, options) {
      transactions++;
      return inner.transaction(fn, options);
    },
    close: () => inner.close(),
  };
  const tracker = createTracker({
    storage,
    rateLimit: false,
    webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
  });
  try {
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: tracker.ids, now: Date.now() },
        { slug: 'bench', adminEmail: 'b@example.com' },
      ),
    );
    const project = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
      projects.create(ctx, { name: 'Bench' }),
    );
    const created = await tracker.handle({
      method: 'POST',
      path: '/api/v1/webhooks',
      headers: {
        authorization: `Bearer ${init.token}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, eventTypes: ['issue.created'] }),
    });
    if (created.status !== 201) throw new Error(`subscribe answered ${created.status}`);
    // The events are queued first (500 a transaction), then delivered: only delivery is timed.
    for (let done = 0; done < events; done += 500) {
      await tracker.run({ workspaceSlug: 'bench' }, async (ctx) => {
        for (let i = done; i < Math.min(events, done + 500); i++) {
          await issues.create(ctx, { projectId: project.id, title: `Webhook bench ${i}` });
        }
      });
    }
    transactions = 0;
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    const handled = await tracker.webhooks.dispatchDue();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    if (handled !== events) throw new Error(`dispatched ${handled} of ${events}`);
    const sendTransactions = transactions;
    const { requests, connections } = await receiverCounts(receiver);
    if (requests !== events) throw new Error(`the receiver got ${requests} of ${events}`);

    // Idle: started, nothing due; once its first claim is done, count the transactions of 10 s
    // (two idle polls of 5 s, unless it polls more than it should).
    tracker.webhooks.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    transactions = 0;
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idleTransactionsPerSecond = transactions / 10;
    return {
      events,
      deliveriesPerSecond: events / seconds,
      cpuUsPerDelivery: (cpu.user + cpu.system) / events,
      transactionsPerDelivery: sendTransactions / events,
      connections,
      idleTransactionsPerSecond,
    };
  } finally {
    await tracker.close();
    receiver.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
