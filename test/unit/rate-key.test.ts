import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker } from '../../src/core/index.js';
import { seedWorkspace } from '../http/harness.js';

/** A token's requests share its budget; a revoked token is refused on its next request. */
describe('rate-limit keys and authentication in the request transaction', () => {
  it('counts a token once it is known, refuses it the moment it is revoked, and counts made-up tokens by address', async () => {
    const storage = memoryStorage();
    const clock = { now: () => 1_000_000 };
    const tracker = createTracker({ storage, clock, rateLimit: { limit: 5 } });
    const ws = await seedWorkspace(tracker, storage, tracker.ids, clock.now(), 'keys', 'admin@keys.test');
    const get = (token: string, clientAddress = '10.0.0.1') =>
      tracker.handle({
        method: 'GET',
        path: `/api/v1/projects/${ws.projectId}`,
        headers: { authorization: `Bearer ${token}` },
        clientAddress,
      });

    const first = await get(ws.adminToken);
    const second = await get(ws.adminToken, '10.0.0.2');
    expect([first.status, second.status]).toEqual([200, 200]);
    // One budget for the token, whatever the address.
    expect([first.headers['X-RateLimit-Remaining'], second.headers['X-RateLimit-Remaining']]).toEqual([
      '4',
      '3',
    ]);

    await storage.transaction((tx) => tx.tokens.revoke(ws.adminTokenId, new Date(clock.now()).toISOString()));
    const revoked = await get(ws.adminToken);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toContain('revoked');

    // Unknown tokens are not remembered: each counts against its address's budget.
    const madeUp = (n: number) => `cn_${String(n).padStart(40, 'x')}`;
    const strangers = [await get(madeUp(1), '10.0.0.9'), await get(madeUp(2), '10.0.0.9')];
    expect(strangers.map((r) => r.status)).toEqual([401, 401]);
    expect(strangers.map((r) => r.headers['X-RateLimit-Remaining'])).toEqual(['4', '3']);
    await tracker.close();
  });
});
