// The export of a seeded workspace through the CLI's own code path (`outcome-tracker export --out`),
// in a child process of its own so its peak RSS is the export's: time, records/s and peak RSS.
// Run by run.js (`npm run bench`) on the 10k and the large seeded files, or alone:
//   node bench/export.js <seeded.db> [--quick]   (--quick: 100k issues, seeded if missing)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Exports workspace `bench` of `file` in a child process; resolves with its figures. */
export function measureExport(file) {
  const child = fork(new URL(import.meta.url), ['--child', file], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once(
      'exit',
      (code) => code && reject(new Error(`export bench exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

async function child(file) {
  const { runCli } = await import('../dist/cli/run.js');
  const { processIo } = await import('../dist/cli/node-io.js');
  const dir = mkdtempSync(join(tmpdir(), 'outcome-tracker-export-'));
  const out = join(dir, 'bench.jsonl');
  const io = { ...processIo(), err: () => {} };
  const started = process.hrtime.bigint();
  const code = await runCli(['export', '--workspace', 'bench', '--out', out, '--db', file, '--json'], {
    ...io,
    out: (line) => {
      io.summary = JSON.parse(line);
    },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (code !== 0) throw new Error(`export exited ${code}`);
  const bytes = statSync(out).size;
  rmSync(dir, { recursive: true, force: true });
  const records = io.summary?.records ?? 0;
  process.send?.({ records, ms, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 });
}

if (process.argv[2] === '--child') {
  await child(process.argv[3]);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  let file = process.argv[2];
  if (!file || file === '--quick') {
    const { seedDatabase } = await import('./seed.js');
    const dir = process.env.BENCH_DIR ?? join(tmpdir(), 'outcome-tracker-bench');
    file = join(dir, 'seeded-export-100000.db');
    await seedDatabase(file, 100_000);
  }
  console.log(JSON.stringify(await measureExport(file)));
}
