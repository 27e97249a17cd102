// What the storage-time share's bookkeeping costs a request: server CPU per request of GET by id
// and POST on the Node host over a SQLite file of 10k issues, with the share at its default
// against without it, in alternating rounds (medians of BENCH_ROUNDS, default 3).
// `npm run build` first; BENCH_DIR as for bench/run.js.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareServers, issueRequests, pairedRatio, withServers } from './http-cpu.js';
import { seedDatabase, workingCopy } from './seed.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const amount = Number(process.env.BENCH_AMOUNT ?? 20_000);
const dir = process.env.BENCH_DIR ?? join(tmpdir(), 'outcome-tracker-bench');
mkdirSync(dir, { recursive: true });
const seeded = join(dir, 'seeded-10k-storage-time.db');
const info = await seedDatabase(seeded, 10_000);
const { GET, POST } = issueRequests(info, amount);
GET.connections = 32;
POST.connections = 32;
const result = await withServers(
  [
    ['off', 'node', workingCopy(seeded, 'off'), info],
    ['shared', 'shared', workingCopy(seeded, 'shared'), info],
  ],
  (servers) => compareServers(servers, { GET, POST }, rounds),
);
for (const request of ['GET', 'POST']) {
  const off = result[`off ${request}`];
  const on = result[`shared ${request}`];
  console.log(
    `${request}: ${off.cpuUs.toFixed(1)} µs without the share, ${on.cpuUs.toFixed(1)} µs with it ` +
      `(paired ratio ${pairedRatio(on, off).toFixed(3)}; rounds ${off.rounds.map((x) => x.toFixed(1)).join('/')} against ${on.rounds.map((x) => x.toFixed(1)).join('/')})`,
  );
}
