import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { populatedSqliteFile } from '../cli/populated-source.js';
import { assertBuilt, runCli, startServeJson, tempDir } from '../cli/process.js';

type ServedJson = Awaited<ReturnType<typeof startServeJson>>;

import { postgresDatabase, type SharedDatabase } from '../multi-process/cluster.js';
import { call, type Receiver, startReceiver } from '../multi-process/support.js';
import { codeBlocks, readme, section } from './readme.js';

const serverUrl = process.env.TEST_DATABASE_URL || undefined;

/** The two commands of the README's move to PostgreSQL, as words. */
function moveCommands(): string[][] {
  const [block] = codeBlocks(section(readme, 'postgres-move'), 'sh');
  const lines = (block ?? '').trim().split('\n');
  return lines.map((line) => line.split(/\s+/).slice(1));
}

describe("the README's move to PostgreSQL", () => {
  it('is two commands: copy, then serve on the URL it copied to', () => {
    const [copy, serve] = moveCommands();
    expect(copy?.[0]).toBe('copy');
    expect(serve?.[0]).toBe('serve');
    const to = copy?.[copy.indexOf('--to') + 1];
    expect(to).toMatch(/^postgres:\/\//);
    expect(serve?.[serve.indexOf('--db') + 1]).toBe(to);
  });

  describe.skipIf(!serverUrl)(
    `runs against TEST_DATABASE_URL${serverUrl ? '' : ' (skipped: TEST_DATABASE_URL is unset)'}`,
    () => {
      let database: SharedDatabase | null = null;
      let served: ServedJson | null = null;
      let receiver: Receiver | null = null;
      afterAll(async () => {
        await served?.stop();
        await receiver?.close();
        await database?.drop();
      });

      it('copies a SQLite file to PostgreSQL and serves it, the old token still working', async () => {
        assertBuilt();
        receiver = await startReceiver();
        database = await postgresDatabase(serverUrl ?? '');
        const file = join(tempDir(), 'tracker.db');
        const { token, made, signals } = await populatedSqliteFile(file, receiver.url);
        const [copy = [], serve = []] = moveCommands();
        const to = copy[copy.indexOf('--to') + 1] ?? '';
        // The README's names for the file and the database, swapped for this test's.
        const swap = (word: string) =>
          word === './data/tracker.db' ? file : word === to ? (database?.db ?? '') : word;
        const copied = await runCli(copy.map(swap));
        expect(copied.code, copied.stderr).toBe(0);
        expect(copied.stdout).toMatch(/^issues\s+2$/m);

        // Tests listen on 127.0.0.1 and a free port; the rest of the line is the README's.
        const args = serve.slice(1).map(swap);
        args.splice(args.indexOf('--host'), 2, '--host', '127.0.0.1');
        args.splice(args.indexOf('--port'), 2);
        served = await startServeJson([...args, '--allow-private-webhooks']);
        expect(served.startup.init).toBeNull();
        const issue = await call(served.startup.url, 'GET', `/api/v1/issues/${made.issueIds[1]}`, { token });
        expect(issue.status).toBe(200);
        expect(issue.json.key).toBe('APO-2');
        await receiver.waitFor((got) => got.length >= signals.length, 'the pending deliveries');
        expect(receiver.received.map((r) => r.eventId).sort()).toEqual(signals.map((s) => s.id).sort());
      }, 120_000);
    },
  );
});
