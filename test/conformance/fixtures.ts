import { afterEach, beforeEach, it } from 'vitest';
import type { Family } from '../../src/core/families/family.js';
import { families } from '../../src/core/families/index.js';
import type {
  AdminSession,
  ApiToken,
  CollectionName,
  CollectionRows,
  DeliveryAttempt,
  IdempotencyRecord,
  SignalEvent,
  Storage,
  StorageTx,
  WebhookDelivery,
  WebhookSubscription,
} from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';

/** The instant `at(0)` stands for; `at(n)` is n seconds later. */
const base = Date.parse('2026-11-22T10:00:00.000Z');
export const at = (seconds: number): string => new Date(base + seconds * 1000).toISOString();

/** Registers hooks giving each test a fresh, empty store of `adapter`; returns helpers over it. */
export function freshStore(adapter: AdapterUnderTest) {
  let store: Storage;
  beforeEach(async () => {
    store = await adapter.create();
  });
  afterEach(async () => {
    await store.close();
  });
  return {
    store: () => store,
    /** Runs `fn` in one write transaction of the current store. */
    tx: <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> => store.transaction(fn),
  };
}

/** Resolves after a macrotask: lets every other pending job (and timer) run first. */
export const macrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

let serial = 0;
/** A unique id with a readable prefix. */
export const newId = (prefix: string): string => `${prefix}_${String(++serial).padStart(6, '0')}`;

const versioned = (workspaceId: string, createdAt: string) => ({
  workspaceId,
  createdAt,
  updatedAt: createdAt,
  version: 1,
});

/** A valid row of each collection in `workspaceId`, created at `createdAt`, with overrides. */
export function sampleRow<Name extends CollectionName>(
  name: Name,
  workspaceId: string,
  overrides: Partial<CollectionRows[Name]> = {},
  createdAt = at(0),
): CollectionRows[Name] {
  const common = { id: newId(name), ...versioned(workspaceId, createdAt) };
  // A family without a row here (a new one) is sampled from its API reference's example record.
  const rows: { [N in CollectionName]?: () => CollectionRows[N] } = {
    projects: () => ({ ...common, name: 'Apollo', key: newId('K'), description: null }),
    issues: () => ({
      ...common,
      projectId: 'prj_1',
      number: serial,
      key: `APO-${serial}`,
      title: 'Login fails',
      description: null,
      severity: 'high',
      status: 'open',
      outcomeId: null,
      assigneeId: null,
      labels: ['web'],
      resolvedAt: null,
      commentCount: 0,
      parentId: null,
      blockedBy: 0,
      subIssues: 0,
      archivedAt: null,
      external: null,
      dueOn: null,
      estimate: null,
    }),
    outcomes: () => ({
      ...common,
      projectId: 'prj_1',
      title: 'Faster checkout',
      description: 'Halve the time to pay',
      status: 'planned',
      ownerId: null,
      dueDate: '2026-12-31',
      shippedAt: null,
      commentCount: 0,
      archivedAt: null,
    }),
    context: () => ({
      ...common,
      outcomeId: 'out_1',
      kind: 'link',
      title: 'Spec',
      url: 'https://example.com/spec',
      body: null,
    }),
    decisions: () => ({
      ...common,
      projectId: 'prj_1',
      title: 'Use SQLite',
      rationale: 'One file',
      participants: ['usr_1'],
      outcomeId: null,
      status: 'proposed',
      decidedAt: null,
      supersededBy: null,
      commentCount: 0,
    }),
    timeEntries: () => ({
      ...common,
      outcomeId: 'out_1',
      issueId: null,
      userId: 'usr_1',
      minutes: 30,
      date: '2026-11-22',
      note: null,
    }),
    comments: () => ({
      ...common,
      issueId: 'iss_1',
      outcomeId: null,
      decisionId: null,
      authorId: 'usr_1',
      body: 'Seen on *Safari* too',
      editedAt: null,
    }),
    issueRelations: () => ({ ...common, type: 'blocks', sourceId: 'iss_1', targetId: 'iss_2' }),
    views: () => ({
      ...common,
      name: 'Open web bugs',
      resource: 'issues',
      query: 'status:open label:bug',
      createdBy: 'usr_1',
    }),
  };
  const made = rows[name]?.() ?? ({ ...exampleRecordOf(name), ...common } as CollectionRows[Name]);
  return { ...made, ...overrides };
}

/**
 * The record a family's reference shows for `GET <collection>/:id` (its `examples.ts`), without
 * its id and times: a valid row of any collection, with no sample of its own written above.
 */
function exampleRecordOf(name: CollectionName): Record<string, unknown> {
  const family = (families as readonly Family[]).find((f) => f.collection?.name === name);
  const read = family?.routes.find((route) => route.method === 'GET' && /^\/[a-z-]+\/:id$/.test(route.path));
  const example = read?.examples?.response;
  if (!example || typeof example !== 'object')
    throw new Error(`no sample row of ${name}: its family has no GET example, so write one in sampleRow`);
  const {
    id: _id,
    createdAt: _created,
    updatedAt: _updated,
    version: _version,
    ...fields
  } = example as Record<string, unknown>;
  return fields;
}

export function sampleToken(workspaceId: string, overrides: Partial<ApiToken> = {}): ApiToken {
  const id = newId('tok');
  return {
    id,
    workspaceId,
    userId: 'usr_1',
    name: 'CI',
    scope: 'read_write',
    hash: `hash-of-${id}`,
    lastFour: 'abcd',
    createdAt: at(0),
    lastUsedAt: null,
    revokedAt: null,
    expiresAt: null,
    ...overrides,
  };
}

export function sampleSignal(
  accountId: string,
  overrides: Partial<Omit<SignalEvent, 'sequence'>> = {},
): Omit<SignalEvent, 'sequence'> {
  return {
    id: newId('evt'),
    type: 'issue.created',
    occurredAt: at(0),
    accountId,
    workspaceId: 'wsp_1',
    actor: { userId: 'usr_1', tokenId: null },
    resource: { type: 'issue', id: 'iss_1' },
    data: { object: { id: 'iss_1', title: 'Login fails' } },
    ...overrides,
  };
}

export function sampleIdempotency(
  workspaceId: string,
  key: string,
  createdAt: string,
  overrides: Partial<IdempotencyRecord> = {},
): IdempotencyRecord {
  return {
    workspaceId,
    key,
    fingerprint: 'f1',
    status: 201,
    body: '{"id":"iss_1"}',
    headers: { location: '/api/v1/issues/iss_1' },
    createdAt,
    ...overrides,
  };
}

export function sampleWebhook(
  accountId: string,
  overrides: Partial<WebhookSubscription> = {},
): WebhookSubscription {
  return {
    id: newId('whk'),
    accountId,
    url: 'https://hooks.example.com/in',
    eventTypes: ['issue.created'],
    description: null,
    status: 'active',
    disabledReason: null,
    secret: 'whsec_1',
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    signatureScheme: 'stripe',
    createdAt: at(0),
    updatedAt: at(0),
    version: 1,
    ...overrides,
  };
}

export function sampleDelivery(
  accountId: string,
  subscriptionId: string,
  overrides: Partial<WebhookDelivery> = {},
): WebhookDelivery {
  return {
    id: newId('dlv'),
    accountId,
    subscriptionId,
    eventId: 'evt_1',
    eventType: 'issue.created',
    payload: '{"type":"issue.created"}',
    status: 'pending',
    attempts: 0,
    scheduleFrom: 0,
    nextAttemptAt: at(0),
    leaseId: null,
    leaseExpiresAt: null,
    lastAttemptAt: null,
    lastResponseStatus: null,
    lastError: null,
    lastDurationMs: null,
    deliveredAt: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function sampleSession(overrides: Partial<AdminSession> = {}): AdminSession {
  return {
    idHash: newId('sess'),
    userId: 'usr_1',
    csrfToken: 'csrf',
    createdAt: at(0),
    expiresAt: at(3600),
    ...overrides,
  };
}

/** Settles every promise and splits the outcomes. */
export async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  return {
    fulfilled: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    rejected: results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : [])),
  };
}

/**
 * `it` for a shared suite on `adapter`: a test the adapter lists in `skips` is registered as
 * skipped, its reason in its name, so every run says what was left out and why.
 */
export function testFor(adapter: AdapterUnderTest) {
  return (title: string, fn: () => Promise<void>): void => {
    const reason = adapter.skips?.[title];
    if (reason) it.skip(`${title} (skipped on ${adapter.name}: ${reason})`, fn);
    else it(title, fn);
  };
}

/** The log entry of attempt `number` of a delivery. */
export function sampleAttempt(
  delivery: WebhookDelivery,
  number: number,
  succeeded: boolean,
): DeliveryAttempt {
  return {
    id: `att_${delivery.id}_${number}`,
    accountId: delivery.accountId,
    subscriptionId: delivery.subscriptionId,
    deliveryId: delivery.id,
    number,
    startedAt: at(number),
    durationMs: 12,
    request: { url: 'https://hooks.example.com/in', headers: { 'X-Service-Signature': `t=1,v1=${number}` } },
    response: succeeded
      ? { status: 204, headers: { server: 'test' }, body: '', bodyTruncated: false }
      : { status: 500, headers: {}, body: 'oops', bodyTruncated: false },
    error: null,
    succeeded,
  };
}
