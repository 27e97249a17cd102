import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import {
  type ChangeFeed,
  changeFeed,
  createTracker,
  projects,
  type Tracker,
  tenancy,
} from '../../src/core/index.js';
import { createIssueRequest } from '../support/issue-request.js';

/** A change feed that counts, per account, how often a subscriber was woken. */
function countingFeed(): ChangeFeed & { wakeUps: Map<string, number> } {
  const feed = changeFeed();
  const wakeUps = new Map<string, number>();
  return {
    wakeUps,
    notify: (accountId) => feed.notify(accountId),
    subscribe: (accountId, fn) =>
      feed.subscribe(accountId, () => {
        wakeUps.set(accountId, (wakeUps.get(accountId) ?? 0) + 1);
        fn();
      }),
  };
}

interface Tenant {
  token: string;
  accountId: string;
  projectId: string;
}

async function tenant(tracker: Tracker, slug: string): Promise<Tenant> {
  const init = await tracker.storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug, adminEmail: `${slug}@example.com` },
    ),
  );
  const project = await tracker.run({ workspaceSlug: slug }, (ctx) => projects.create(ctx, { name: slug }));
  return { token: init.token, accountId: init.accountId, projectId: project.id };
}

/** Opens the account's event stream and reads its first message, so that it is waiting for changes. */
async function openStream(tracker: Tracker, who: Tenant) {
  const response = await tracker.handle({
    method: 'GET',
    path: '/api/v1/signals',
    headers: { authorization: `Bearer ${who.token}`, accept: 'text/event-stream' },
  });
  if (!response.stream) throw new Error(`no stream: ${response.status} ${response.body}`);
  const iterator = response.stream[Symbol.asyncIterator]();
  await iterator.next(); // "retry:"
  return iterator;
}

async function createIssue(tracker: Tracker, who: Tenant, title: string) {
  const response = await tracker.handle(createIssueRequest(who.token, { projectId: who.projectId, title }));
  expect(response.status).toBe(201);
}

/** Lets the streams run until they are waiting again. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('event stream wake-ups', () => {
  let tracker: Tracker;
  afterEach(async () => {
    await tracker.close();
  });

  it("wakes only the streams of the account that changed: 50 writes in A wake none of B's 20 streams", async () => {
    const feed = countingFeed();
    tracker = createTracker({ storage: memoryStorage(), rateLimit: false, changes: feed });
    const a = await tenant(tracker, 'alpha');
    const b = await tenant(tracker, 'beta');
    const streamsOfB = await Promise.all(Array.from({ length: 20 }, () => openStream(tracker, b)));
    const streamOfA = await openStream(tracker, a);
    const nextOfA = streamOfA.next();
    await settle();

    for (let i = 0; i < 50; i++) await createIssue(tracker, a, `A issue ${i}`);
    const event = await nextOfA;
    expect(event.value).toContain('event: issue.created');
    await settle();
    expect(feed.wakeUps.get(a.accountId) ?? 0).toBeGreaterThan(0);
    expect(feed.wakeUps.get(b.accountId) ?? 0).toBe(0);

    // B's streams still wake for B's own writes, each with B's event.
    const nextOfB = streamsOfB.map((stream) => stream.next());
    await createIssue(tracker, b, 'B issue');
    for (const next of await Promise.all(nextOfB)) expect(next.value).toContain('event: issue.created');
    expect(feed.wakeUps.get(b.accountId)).toBe(20);

    for (const stream of [...streamsOfB, streamOfA]) await stream.return?.(undefined);
  });

  it('calls a subscriber for its own account only, and never after it unsubscribed', () => {
    const feed = changeFeed();
    let calls = 0;
    const unsubscribe = feed.subscribe('acct_1', () => calls++);
    feed.notify('acct_1');
    feed.notify('acct_2');
    unsubscribe();
    feed.notify('acct_1');
    expect(calls).toBe(1);
  });
});
