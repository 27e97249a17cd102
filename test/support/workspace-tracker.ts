import { createTracker, type Storage, type Tracker, tenancy } from '../../src/core/index.js';

/**
 * A tracker over `storage` (its request limit off) with a workspace `slug` made in it, and the
 * workspace admin's token: what a test of the requests a storage sees starts from.
 */
export async function workspaceTracker(
  storage: Storage,
  slug: string,
): Promise<{ tracker: Tracker; token: string }> {
  const tracker = createTracker({ storage, rateLimit: false });
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug, adminEmail: `${slug}@example.com` },
    ),
  );
  return { tracker, token: init.token };
}
