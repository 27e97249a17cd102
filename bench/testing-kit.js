// The test kit (outcome-tracker/testing): how long createTestTracker() takes, and how long
// seed() takes to make 10,000 issues (with 4 projects and 20 outcomes) in memory on a fresh
// instance. Each figure is wall time and this process's CPU time (all threads: the garbage
// collector's too). Run alone (`node bench/testing-kit.js`) it prints JSON; `bench/run.js` runs it
// in three fresh processes and puts the median run in its table.
import { createTestTracker } from '../dist/testing/index.js';

/** Wall and CPU milliseconds of `fn`. */
async function timed(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function testingKitFigures(creates = 20) {
  // The first instance loads the modules: counted apart.
  const first = await timed(() => createTestTracker());
  await first.value.close();
  const warm = [];
  for (let i = 0; i < creates; i++) {
    const made = await timed(() => createTestTracker());
    warm.push(made);
    await made.value.close();
  }
  const kit = await createTestTracker();
  const seeded = await timed(() => kit.seed({ projects: 4, outcomes: 20, issues: 10_000 }));
  if (seeded.value.issues.length !== 10_000) throw new Error('seed made the wrong number of issues');
  await kit.close();
  return {
    firstCreateMs: first.wallMs,
    createMs: median(warm.map((w) => w.wallMs)),
    createCpuMs: median(warm.map((w) => w.cpuMs)),
    creates,
    seedMs: seeded.wallMs,
    seedCpuMs: seeded.cpuMs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await testingKitFigures();
  if (process.send) process.send(figures);
  else console.log(JSON.stringify(figures, null, 2));
}
