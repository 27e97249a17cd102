// In-process figures, run in a child process of their own: `handle()` creates per second on a
// SQLite file (one at a time and 50 at once, medians of three runs, with the latencies of the
// latter and the longest stop of the event loop meanwhile), and the memory adapter's insert cost
// and RSS.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { memoryStorage } from '../dist/adapters/memory/index.js';
import { sqliteStorage } from '../dist/adapters/sqlite/index.js';
import { createTracker, projects, tenancy } from '../dist/core/index.js';
import { medianRun } from './support.js';

async function setUp(storage) {
  const tracker = createTracker({ storage, rateLimit: false, storageTimeBudget: false });
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug: 'bench', adminEmail: 'b@example.com' },
    ),
  );
  const project = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
    projects.create(ctx, { name: 'Bench' }),
  );
  return { tracker, init, project };
}

/**
 * Creates `total` issues, `concurrency` at a time: per second, the latency quantiles (ms) and the
 * longest the event loop stood still (ms). Enough creates that the log passes its checkpoint
 * threshold several times (a few pages a create, 8,000 pages a checkpoint).
 */
async function creates(concurrency, total) {
  const dir = mkdtempSync(join(tmpdir(), 'ot-bench-'));
  const { tracker, init, project } = await setUp(sqliteStorage({ filename: join(dir, 'bench.db') }));
  const body = JSON.stringify({ projectId: project.id, title: 'In-process issue', severity: 'low' });
  const latencies = [];
  const create = async () => {
    const sent = process.hrtime.bigint();
    const response = await tracker.handle({
      method: 'POST',
      path: '/api/v1/issues',
      headers: {
        authorization: `Bearer ${init.token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body,
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}: ${response.body}`);
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
  };
  for (let i = 0; i < 200; i++) await create(); // warm-up
  latencies.length = 0;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await create();
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  await tracker.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const quantile = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    perSecond: total / seconds,
    // The process's CPU (every thread: the checkpoint thread's and the collector's too): steadier
    // than the rate on a shared machine, whose swings it tells apart from the code's.
    cpuUsPerCreate: (cpu.user + cpu.system) / total,
    p50: quantile(0.5),
    p99: quantile(0.99),
    max: latencies.at(-1),
    loopStallMs: loop.max / 1e6,
  };
}

/** Inserts issues straight into the memory adapter, 1,000 a transaction, until `target` or the time budget. */
async function memoryInserts(target, budgetSeconds) {
  const storage = memoryStorage();
  const { init, project } = await setUp(storage);
  const checkpoints = {};
  const started = process.hrtime.bigint();
  let n = 0;
  while (n < target) {
    const batchStart = process.hrtime.bigint();
    await storage.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++, n++) {
        const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
        await tx.collections.issues.insert({
          id: `iss_m${n}`,
          workspaceId: init.workspaceId,
          projectId: project.id,
          number: n + 1,
          key: `BEN-${n + 1}`,
          title: `Memory issue ${n}`,
          description: null,
          severity: 'low',
          status: 'open',
          outcomeId: null,
          assigneeId: null,
          labels: [],
          resolvedAt: null,
          createdAt: at,
          updatedAt: at,
          version: 1,
        });
      }
    });
    const batchUs = Number(process.hrtime.bigint() - batchStart) / 1e3 / 1000;
    if ([10_000, 100_000, 1_000_000].includes(n)) checkpoints[n] = batchUs;
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    if (elapsed > budgetSeconds && n < target) {
      checkpoints.stoppedAt = n;
      checkpoints.lastUs = batchUs;
      break;
    }
  }
  global.gc?.();
  return { insertUs: checkpoints, loaded: n, rssMb: process.memoryUsage().rss / 2 ** 20 };
}

// The creates' rates swing with the machine's other load: each figure is the median of three
// runs (each on a fresh file), and the concurrent run reported whole is the one with that median.
const runs = async (n, concurrency, total) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await creates(concurrency, total));
  return out;
};
const serial = medianRun(await runs(3, 1, 2000)).perSecond;
const concurrent = medianRun(await runs(3, 50, 20_000));
const memory = await memoryInserts(Number(process.env.BENCH_MEMORY_ROWS ?? 1_000_000), 90);
process.send?.({ serial, concurrent, memory });
