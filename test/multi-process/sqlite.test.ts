import { sqliteDatabase } from './cluster.js';
import { threeServesSuite } from './suite.js';

threeServesSuite('SQLite', async () => sqliteDatabase(), {
  rateLimitSkip:
    'each serve process keeps its own rate limiter in memory: no database-backed RateLimitStore yet',
  storageTimeSkip:
    "each serve process keeps its accounts' shares of storage time in memory: no database-backed StorageTimeStore yet",
});
