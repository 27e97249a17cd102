// The client package, not its sources: the server package ships the client once, as that package.
import { type Client, type ClientOptions, createClient, inProcessFetch } from '@outcome-tracker/client';
import { adminArea } from '../admin/index.js';
import {
  type ChangeFeed,
  changeFeed,
  createTracker,
  type RateLimitOptions,
  type Role,
  type TokenScope,
  type Tracker,
  type TrackerOptions,
  tenancy,
  webhooks as webhookOperations,
} from '../core/index.js';
import { defaultStart, durationMs, instantMs, manualTime, type TestClock } from './clock.js';
import { DeliveryPump } from './deliveries.js';
import { seededIds } from './ids.js';
import { type Seeded, type SeedOptions, seedWorkspace } from './seed.js';
import { type TestStorageOption, testStorage } from './storage.js';
import {
  CaptureNetwork,
  type DeliveryMatch,
  verifyCaptured,
  type WaitOptions,
  type WebhookCapture,
} from './webhooks.js';

export interface TestTrackerOptions {
  /** Where data is kept: `'memory'` (default), `'sqlite'` (a temp file) or `{ postgres: url }` (a fresh schema). */
  storage?: TestStorageOption;
  /** Where the clock starts; default 2026-01-01T00:00:00.000Z. */
  now?: Date | string | number;
  /** Where ids (and `seed`'s data, unless it is given its own) come from; default 1. */
  seed?: number;
  /** The first workspace's slug; default `test`. */
  workspace?: string;
  /** Its admin's email; default `admin@<workspace>.test`. */
  adminEmail?: string;
  /**
   * The per-token limit, as for createTracker: default 100 requests in any rolling 60 s of the
   * test clock (which stands still unless advanced); `false` turns it off.
   */
  rateLimit?: RateLimitOptions | false;
  /** How long signals are kept (createTracker's `signalRetentionMs`). */
  signalRetentionMs?: number;
  /** Where the API is served; default `/api/v1`. */
  basePath?: string;
  /** Told of every unexpected error (a request's 500, a failed dispatcher step); default console.error. */
  onError?: (error: unknown, requestId: string) => void;
  /** Options of the clients the kit makes (`client`, `asUser().client`); default no retries. */
  client?: Omit<ClientOptions, 'token' | 'tracker' | 'fetch' | 'baseUrl'>;
}

/** Another principal of the workspace, made by `asUser`. */
export interface TestUser {
  userId: string;
  email: string;
  role: Role;
  token: string;
  tokenId: string;
  /** A client acting with this user's token. */
  client: Client;
}

/** A tracker for a test: one call gives a working workspace, a client, a clock and captured webhooks. */
export interface TestTracker {
  /** The tracker itself (handle, fetch, run, storage…). */
  tracker: Tracker;
  /** The first-party client, answered in process, acting as the workspace's admin. */
  client: Client;
  /** The admin's read_write API token. */
  token: string;
  /** The admin's ids. */
  admin: { userId: string; tokenId: string; email: string };
  /** The first workspace. */
  workspace: { id: string; slug: string; accountId: string };
  /** The clock: time moves only when the test moves it. */
  clock: TestClock;
  /** A `fetch` answering through the tracker, for code that takes a base URL (any origin will do). */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** A base URL to give such code: `http://tracker.test`. */
  baseUrl: string;
  webhooks: {
    /** Subscribes an in-memory receiver to these event types (default all): see WebhookCapture. */
    capture(options?: CaptureOptions): Promise<WebhookCapture>;
  };
  /** Fills the workspace with deterministic data; see SeedOptions. */
  seed(options?: SeedOptions): Promise<Seeded>;
  /** Adds a member of the workspace with a role (default `member`) and a token of a scope (default `read_write`). */
  asUser(options?: AsUserOptions): Promise<TestUser>;
  /** Closes the tracker and removes its temp file or schema; pending waitFor calls reject. */
  close(): Promise<void>;
}

export interface CaptureOptions {
  /** Event types to subscribe to; default every type (`*`). */
  eventTypes?: string[];
  /** How deliveries are signed: `stripe` (X-Service-Signature, default), `standard` (Standard Webhooks) or `both`. */
  signatureScheme?: 'stripe' | 'standard' | 'both';
}

export interface AsUserOptions {
  role?: Role;
  scope?: TokenScope;
  /** Default `user-<n>@<workspace>.test`. */
  email?: string;
  /** Days until the token expires; default never. */
  expiresInDays?: number;
}

/** The origin `fetch` and the clients use; any would do, nothing is resolved or connected to. */
const baseUrl = 'http://tracker.test';

/**
 * A tracker for one test (or one file): memory storage unless asked, a clock the test owns, ids
 * from a seed, webhooks delivered in memory, and a workspace with its admin, token and client.
 * Instances share nothing: each has its own storage, clock, ids, rate limit and network.
 */
export async function createTestTracker(options: TestTrackerOptions = {}): Promise<TestTracker> {
  const time = manualTime(options.now === undefined ? defaultStart : instantMs(options.now));
  const seed = options.seed ?? 1;
  const { storage, cleanUp } = await testStorage(options.storage ?? 'memory');
  let pump: DeliveryPump | null = null;
  const network = new CaptureNetwork(time.now, async () => pump?.settled());
  const onError =
    options.onError ??
    ((error: unknown, requestId: string) => console.error(`[outcome-tracker/testing] ${requestId}:`, error));
  // Every commit (an API write, a `run`) sends what it queued at once, as a started dispatcher would.
  const feed = changeFeed();
  const changes: ChangeFeed = {
    notify(accountId) {
      feed.notify(accountId);
      pump?.kick();
    },
    subscribe: (accountId, fn) => feed.subscribe(accountId, fn),
  };
  const trackerOptions: TrackerOptions = {
    storage,
    clock: { now: time.now },
    ids: seededIds(seed, time),
    changes,
    onError,
    // Charges of real storage time would make answers depend on the machine's speed.
    storageTimeBudget: false,
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.signalRetentionMs !== undefined ? { signalRetentionMs: options.signalRetentionMs } : {}),
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
    // Jitter pinned to the middle: retries come exactly 1 m, 5 m, 30 m… after the attempt before.
    webhooks: { sender: network, random: () => 0.5 },
    // The admin pages, as `serve` has them: a test can sign in and use the settings.
    extensions: [adminArea()],
  };
  let tracker: Tracker;
  try {
    tracker = createTracker(trackerOptions);
  } catch (error) {
    await storage.close();
    await cleanUp();
    throw error;
  }
  const deliveries = new DeliveryPump(tracker, (error) => onError(error, 'webhook-dispatcher'));
  pump = deliveries;

  const slug = options.workspace ?? 'test';
  const adminEmail = options.adminEmail ?? `admin@${slug}.test`;
  let init: tenancy.InitResult;
  let adminTokenId: string;
  try {
    init = await storage.transaction((tx) =>
      tenancy.initWorkspace({ tx, ids: tracker.ids, now: time.now() }, { slug, adminEmail }),
    );
    const { workspaceId, userId } = init;
    adminTokenId = await storage.transaction(
      async (tx) => (await tx.tokens.listForUser(workspaceId, userId))[0]?.id ?? '',
    );
  } catch (error) {
    // A slug refused, a database gone: nothing of the instance is left behind.
    await tracker.close();
    await cleanUp();
    throw error;
  }
  const clientFor = (token: string) =>
    createClient({ maxRetries: 0, ...options.client, token, fetch: inProcessFetch(tracker), baseUrl });

  /** Moves the time to `target`, running each due delivery at its own time, then the purge. */
  async function advanceTo(target: number): Promise<void> {
    await deliveries.settled();
    for (;;) {
      const next = await storage.transaction((tx) => tx.deliveries.nextClaimableAt());
      const due = next === null ? null : Date.parse(next);
      if (due === null || due > target) break;
      // Something due now that a drain did not send (its subscription's slots are held): move on.
      if (due <= time.now()) {
        await deliveries.drain();
        const again = await storage.transaction((tx) => tx.deliveries.nextClaimableAt());
        if (again !== null && Date.parse(again) <= time.now()) break;
        continue;
      }
      time.set(due);
      await deliveries.drain();
    }
    time.set(target);
    // Due days passed on the way are signalled now, and their deliveries sent with the others.
    await tracker.sweepOverdue();
    await deliveries.drain();
    await tracker.purgeExpired();
  }

  const clock: TestClock = {
    now: time.now,
    async advance(duration) {
      const ms = durationMs(duration);
      if (ms < 0) throw new RangeError('clock.advance moves forward only; clock.set goes back');
      await advanceTo(time.now() + ms);
    },
    async set(to) {
      const target = instantMs(to);
      if (target >= time.now()) await advanceTo(target);
      else time.set(target);
    },
  };

  const fetchThrough = inProcessFetch(tracker);
  let users = 0;
  let closed = false;

  return {
    tracker,
    client: clientFor(init.token),
    token: init.token,
    admin: { userId: init.userId, tokenId: adminTokenId, email: adminEmail },
    workspace: { id: init.workspaceId, slug: init.workspaceSlug, accountId: init.accountId },
    clock,
    fetch: (input, init) => fetchThrough(new Request(input, init)),
    baseUrl,
    webhooks: {
      async capture(captureOptions = {}) {
        const { url, receiver } = network.open();
        const created = await tracker.run({ workspaceSlug: slug }, (ctx) =>
          webhookOperations.create(ctx, {
            url,
            eventTypes: (captureOptions.eventTypes ?? ['*']) as webhookOperations.WebhookCreate['eventTypes'],
            ...(captureOptions.signatureScheme ? { signatureScheme: captureOptions.signatureScheme } : {}),
          }),
        );
        // The subscription's own webhook.created may be among what it hears.
        await deliveries.settled();
        return {
          id: created.id,
          url,
          secret: created.secret,
          received: receiver.received,
          waitFor: ((match: DeliveryMatch, waitOptions: WaitOptions = {}) =>
            receiver.waitFor(match, waitOptions.timeoutMs ?? 5000)) as WebhookCapture['waitFor'],
          respondWith: (answer) => receiver.respondWith(answer),
          verify: (delivery) => verifyCaptured(delivery, created.secret, time.now),
        };
      },
    },
    async seed(seedOptions = {}) {
      const made = await tracker.run({ workspaceSlug: slug }, (ctx) =>
        seedWorkspace(ctx, { ...seedOptions, seed: seedOptions.seed ?? seed }),
      );
      await deliveries.settled();
      return made;
    },
    async asUser(userOptions = {}) {
      const n = ++users;
      const email = userOptions.email ?? `user-${n}@${slug}.test`;
      const role = userOptions.role ?? 'member';
      const issued = await storage.transaction(async (tx) => {
        const deps = { tx, ids: tracker.ids, now: time.now() };
        const { user } = await tenancy.addMember(deps, { workspaceId: init.workspaceId, email, role });
        const { token, plain } = await tenancy.issueToken(deps, {
          workspaceId: init.workspaceId,
          userId: user.id,
          name: `test user ${n}`,
          scope: userOptions.scope ?? 'read_write',
          expiresInDays: userOptions.expiresInDays ?? null,
        });
        return { userId: user.id, tokenId: token.id, token: plain };
      });
      return { ...issued, email, role, client: clientFor(issued.token) };
    },
    async close() {
      if (closed) return;
      closed = true;
      network.close();
      try {
        await deliveries.settled();
        await tracker.close();
      } finally {
        await cleanUp();
      }
    },
  };
}
