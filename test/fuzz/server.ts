import type { Storage } from '../../src/core/index.js';
import { type Host, startServer, type TestServer } from '../http/harness.js';

/**
 * A server to fuzz through `host` on `storage`: a rate limit too high to refuse anything, and
 * every error the pipeline did not expect noted in `unexpected` (the tests expect it empty).
 */
export const fuzzServer = (host: Host, storage: Storage, unexpected: string[]): Promise<TestServer> =>
  startServer(host, {
    storage,
    rateLimit: { limit: 1_000_000 },
    onError: (error) =>
      unexpected.push(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  });
