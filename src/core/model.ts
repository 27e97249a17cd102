/**
 * The records the tracker stores. Timestamps are RFC 3339 UTC strings with milliseconds
 * (`2026-11-22T10:00:00.000Z`): they sort lexicographically in time order, which the
 * keyset pagination of every adapter relies on.
 */

export const roles = ['admin', 'member', 'viewer'] as const;
export type Role = (typeof roles)[number];

export const tokenScopes = ['read', 'read_write'] as const;
export type TokenScope = (typeof tokenScopes)[number];

export interface Account {
  id: string;
  name: string;
  createdAt: string;
}

export interface Workspace {
  id: string;
  accountId: string;
  slug: string;
  name: string;
  createdAt: string;
}

/** A person. One user may be a member of several workspaces. */
export interface User {
  id: string;
  email: string;
  /** scrypt hash for the admin pages; null until a password is set. */
  passwordHash: string | null;
  createdAt: string;
  /** When the user last signed in to the admin pages; null if never. */
  lastSignInAt: string | null;
}

/** A user's membership of a workspace: the API's `member` resource, whose id is the user's id. */
export interface Membership {
  workspaceId: string;
  userId: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
  /** Increases with every role change; the member's ETag is "<version>". */
  version: number;
}

export interface ApiToken {
  id: string;
  workspaceId: string;
  userId: string;
  name: string;
  scope: TokenScope;
  /** Lowercase hex SHA-256 of the plain token; the plain token is never stored. */
  hash: string;
  lastFour: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** After this time the API refuses the token (401); null means it never expires. */
  expiresAt: string | null;
}

/** Fields every workspace-scoped, versioned resource carries. */
export interface VersionedRecord {
  id: string;
  workspaceId: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface Project extends VersionedRecord {
  name: string;
  key: string;
  description: string | null;
}

export const issueStatuses = ['open', 'in_progress', 'blocked', 'resolved', 'closed'] as const;
export type IssueStatus = (typeof issueStatuses)[number];

export const issueSeverities = ['low', 'medium', 'high', 'critical'] as const;
export type IssueSeverity = (typeof issueSeverities)[number];

/**
 * Where an imported record came from: its tracker (`github`, `jira`, `linear`, `csv`…), its id
 * there as people know it (`octo-org/apollo#42`, `SHOP-101`, `ENG-12`) and, when known, its page.
 * A workspace holds one issue a (source, id).
 */
export interface ExternalRef {
  source: string;
  id: string;
  url?: string;
}

export interface Issue extends VersionedRecord {
  projectId: string;
  number: number;
  key: string;
  title: string;
  description: string | null;
  severity: IssueSeverity;
  status: IssueStatus;
  outcomeId: string | null;
  assigneeId: string | null;
  labels: string[];
  resolvedAt: string | null;
  /** How many comments the issue has: kept by the service as comments come and go. */
  commentCount: number;
  /** The issue's parent (a `parent_of` relation names it), or null. */
  parentId: string | null;
  /** How many issues block this one (`blocks` relations naming it as their target). */
  blockedBy: number;
  /** How many children it has (`parent_of` relations naming it as their source). */
  subIssues: number;
  /** When it was archived (left out of lists unless asked for); null while it is not. */
  archivedAt: string | null;
  /** Where it was imported from, or null for an issue made here. */
  external: ExternalRef | null;
  /** The day it is due, YYYY-MM-DD, or null. */
  dueOn: string | null;
  /** How much work it is, in the team's own unit (points, hours): a non-negative number, or null. */
  estimate: number | null;
}

/** Issue statuses in which an issue is still open: one whose due day passes in one is overdue. */
export const openIssueStatuses = ['open', 'in_progress', 'blocked'] as const satisfies readonly IssueStatus[];

/** What a relation says, as asked for from either end. */
export const relationTypes = [
  'blocks',
  'blocked_by',
  'relates_to',
  'duplicates',
  'duplicate_of',
  'parent_of',
  'child_of',
] as const;
export type RelationType = (typeof relationTypes)[number];

/** The types a relation is stored under: one of each pair, read from the other end as its inverse. */
export const storedRelationTypes = ['blocks', 'relates_to', 'duplicates', 'parent_of'] as const;
export type StoredRelationType = (typeof storedRelationTypes)[number];

/** A relation between two issues of one workspace, stored once: `sourceId` <type> `targetId`. */
export interface IssueRelation extends VersionedRecord {
  type: StoredRelationType;
  sourceId: string;
  targetId: string;
}

/** Who caused a change: the token's user, or the operator (CLI) with no token. */
export interface Actor {
  userId: string | null;
  tokenId: string | null;
}

/** One change-data-capture event (CONTRACT §4). */
export interface SignalEvent {
  id: string;
  sequence: number;
  type: string;
  occurredAt: string;
  accountId: string;
  workspaceId: string;
  actor: Actor;
  resource: { type: string; id: string };
  data: { object: unknown; previous?: unknown };
}

/** A stored create response, replayed for the same Idempotency-Key. */
export interface IdempotencyRecord {
  workspaceId: string;
  key: string;
  fingerprint: string;
  status: number;
  /**
   * The response body exactly as first sent (JSON text), or where it is kept: a create's answer
   * is the object its signal carries (`data.object` of the signal `signalId`), which is not
   * stored a second time. Signals are kept longer than keys (minSignalRetentionMs), so a live
   * record finds its signal.
   */
  body: string | { signalId: string };
  headers: Record<string, string>;
  createdAt: string;
}

export const outcomeStatuses = ['planned', 'in_progress', 'shipped', 'abandoned'] as const;
export type OutcomeStatus = (typeof outcomeStatuses)[number];

/** Outcome statuses in which an outcome is still open: one whose due date passes in one is overdue. */
export const openOutcomeStatuses = ['planned', 'in_progress'] as const satisfies readonly OutcomeStatus[];

export interface Outcome extends VersionedRecord {
  projectId: string;
  title: string;
  description: string | null;
  status: OutcomeStatus;
  ownerId: string | null;
  /** A calendar date, YYYY-MM-DD. */
  dueDate: string | null;
  /** Set by the service when the status becomes `shipped`. */
  shippedAt: string | null;
  /** How many comments the outcome has: kept by the service as comments come and go. */
  commentCount: number;
  /** When it was archived (left out of lists unless asked for); null while it is not. */
  archivedAt: string | null;
}

export const contextKinds = ['document', 'link', 'note'] as const;
export type ContextKind = (typeof contextKinds)[number];

/** A document, link or note attached to an outcome. Immutable: created and deleted, never changed. */
export interface ContextItem extends VersionedRecord {
  outcomeId: string;
  kind: ContextKind;
  title: string;
  url: string | null;
  body: string | null;
}

export const decisionStatuses = ['proposed', 'accepted', 'rejected', 'superseded'] as const;
export type DecisionStatus = (typeof decisionStatuses)[number];

export interface Decision extends VersionedRecord {
  projectId: string;
  title: string;
  rationale: string;
  participants: string[];
  outcomeId: string | null;
  status: DecisionStatus;
  decidedAt: string | null;
  supersededBy: string | null;
  /** How many comments the decision has: kept by the service as comments come and go. */
  commentCount: number;
}

/** A Markdown comment on exactly one issue, outcome or decision. */
export interface Comment extends VersionedRecord {
  issueId: string | null;
  outcomeId: string | null;
  decisionId: string | null;
  /** The token's user who wrote it; null when the operator wrote it (no token). */
  authorId: string | null;
  body: string;
  /** When the body last changed; null while it never did. */
  editedAt: string | null;
}

/** What a saved view lists: one of the lists that take the query language. */
export const viewResources = ['issues', 'outcomes', 'decisions'] as const;
export type ViewResource = (typeof viewResources)[number];

/** A named query of the workspace, run on its resource's list (`GET /views/{id}/items`). */
export interface SavedView extends VersionedRecord {
  name: string;
  resource: ViewResource;
  /** The query language, as `query=` of the resource's list takes it. */
  query: string;
  /** The token's user who saved it; null when the operator did (no token). */
  createdBy: string | null;
}

export interface TimeEntry extends VersionedRecord {
  outcomeId: string;
  issueId: string | null;
  /** The user who logged the time: always the token's user. */
  userId: string;
  minutes: number;
  /** The day the work was done, YYYY-MM-DD. */
  date: string;
  note: string | null;
}

export const webhookStatuses = ['active', 'disabled'] as const;
export type WebhookStatus = (typeof webhookStatuses)[number];

/**
 * How deliveries are signed: `stripe` (`X-Service-Signature: t=…,v1=<hex>`, the default),
 * `standard` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) or `both`.
 */
export const signatureSchemes = ['stripe', 'standard', 'both'] as const;
export type SignatureScheme = (typeof signatureSchemes)[number];

/** An account's webhook subscription. Not workspace-scoped: signals and webhooks belong to the account. */
export interface WebhookSubscription {
  id: string;
  accountId: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  status: WebhookStatus;
  /** Why the service disabled it (`gone`, `failing`), or null. */
  disabledReason: string | null;
  secret: string;
  /** The secret before the last rotation, still signed with until previousSecretExpiresAt. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  /** When the current run of failed deliveries began; null after any success. */
  failingSince: string | null;
  signatureScheme: SignatureScheme;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/**
 * `pending`: waiting for its next attempt; `sending`: claimed by a dispatcher under a lease, an
 * attempt in flight; `delivered` and `failed` are final (until a retry re-queues it).
 */
export const deliveryStatuses = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** One event to deliver to one subscription: the outbox row, and then its delivery log. */
export interface WebhookDelivery {
  id: string;
  accountId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** The exact body sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  /** Attempts made so far, ever (the attempt log holds one entry per attempt). */
  attempts: number;
  /**
   * How many of `attempts` were made before the current retry schedule began: a retry through
   * the API starts a fresh schedule without forgetting the attempts made.
   */
  scheduleFrom: number;
  /** When the dispatcher may next try it (while pending); null otherwise. */
  nextAttemptAt: string | null;
  /** While `sending`: the claim's lease, which fences the recording of its result. */
  leaseId: string | null;
  /** While `sending`: when the lease runs out and the delivery may be claimed again. */
  leaseExpiresAt: string | null;
  lastAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The first bytes of a receiver's answer kept with each attempt. */
export const responseBodyCaptureBytes = 4096;

/** One attempt to deliver: exactly what was sent and what came back. */
export interface DeliveryAttempt {
  id: string;
  accountId: string;
  subscriptionId: string;
  deliveryId: string;
  /** 1 for the delivery's first attempt, and so on. */
  number: number;
  startedAt: string;
  durationMs: number;
  /** The request as sent: URL and headers (signature included); the body is the delivery's payload. */
  request: { url: string; headers: Record<string, string> };
  /** The receiver's answer, or null when none arrived (see `error`). */
  response: {
    status: number;
    headers: Record<string, string>;
    /** The first `responseBodyCaptureBytes` bytes of the body, decoded as UTF-8. */
    body: string;
    bodyTruncated: boolean;
  } | null;
  /** Why no answer arrived (timeout, refused address…), or null. */
  error: string | null;
  /** Whether the attempt delivered (a 2xx). */
  succeeded: boolean;
}

/** A signed-in session of the admin pages. The cookie holds a random value; only its hash is stored. */
export interface AdminSession {
  /** Lowercase hex SHA-256 of the cookie value. */
  idHash: string;
  userId: string;
  /** Sent in every form and compared on every POST (the cookie alone proves nothing). */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}
