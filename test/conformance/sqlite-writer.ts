// A second process writing to the same SQLite file as a test: `node --import <ts-loader>
// sqlite-writer.ts <file> <rounds> <entryId>`. Each round is one transaction that bumps a
// counter and read-modify-writes a time entry's minutes across a macrotask.
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';

const [filename, rounds, entryId] = process.argv.slice(2);
if (!filename || !rounds || !entryId) throw new Error('usage: sqlite-writer.ts <file> <rounds> <entryId>');

const storage = sqliteStorage({ filename });
const counters: number[] = [];
for (let i = 0; i < Number(rounds); i++) {
  await storage.transaction(async (tx) => {
    counters.push(await tx.counters.next('wsp_1', 'shared'));
    const entry = await tx.collections.timeEntries.get('wsp_1', entryId);
    if (!entry) throw new Error('entry not found');
    await new Promise((resolve) => setTimeout(resolve, 1));
    await tx.collections.timeEntries.update(
      { ...entry, minutes: entry.minutes + 1, version: entry.version + 1 },
      entry.version,
    );
  });
}
await storage.close();
process.stdout.write(JSON.stringify(counters));
