import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { createTracker, tenancy } from '../../src/core/index.js';
import { nodeHandler } from '../../src/http/node.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { listAllSignals, populate } from '../multi-process/support.js';

/**
 * Fills a SQLite file through the API of an in-process tracker whose dispatcher never runs, so
 * every delivery (to `hookUrl`) is still pending when the file is copied. Returns the admin's
 * token, what was made and every signal, oldest first.
 */
export async function populatedSqliteFile(filename: string, hookUrl: string) {
  const storage = sqliteStorage({ filename });
  const tracker = createTracker({
    storage,
    rateLimit: false,
    webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
  });
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug: 'default', adminEmail: 'admin@localhost' },
    ),
  );
  const server: Server = createServer(nodeHandler(tracker));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const made = await populate(url, init.token, hookUrl);
    const signals = await listAllSignals(url, init.token);
    return { token: init.token, made, signals };
  } finally {
    await new Promise((closed) => server.close(closed));
    await tracker.close();
  }
}
