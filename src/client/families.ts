import type { Listing } from './listing.js';
import {
  type Creatable,
  creatable,
  type Deletable,
  deletable,
  itemPath,
  listingOf,
  type Readable,
  readable,
  type Target,
  tagged,
  type Updatable,
  updatable,
  type WriteOptions,
} from './resource-api.js';
import { type SignalStreamOptions, streamSignals } from './signal-stream.js';
import type { CallOptions, Transport } from './transport.js';
import type * as T from './types.js';

/** `/projects`: create, get, update, modify, list (`q`). */
export interface ProjectsApi
  extends Creatable<T.ProjectCreate, T.Project>,
    Readable<T.Project, T.ProjectFilters>,
    Updatable<T.ProjectPatch, T.Project> {}

/** Archive and bring back (`POST <path>/{id}/archive`, `/unarchive`), with If-Match. */
export interface Archivable<T> {
  /** Archives it: lists leave it out unless `archived: 'true'` or `'only'`. Needs its ETag (`ifMatch` or a tagged target). */
  archive(target: Target, options?: WriteOptions): Promise<T.Tagged<T>>;
  /** Brings it back into lists. Needs its ETag (`ifMatch` or a tagged target). */
  unarchive(target: Target, options?: WriteOptions): Promise<T.Tagged<T>>;
}

/** `/outcomes`: create, get, update, modify, delete (refused while referenced), archive, list. */
export interface OutcomesApi
  extends Creatable<T.OutcomeCreate, T.Outcome>,
    Readable<T.Outcome, T.OutcomeFilters>,
    Updatable<T.OutcomePatch, T.Outcome>,
    Archivable<T.Outcome>,
    Deletable {
  /**
   * Where the outcome stands (issues by status and severity, open blockers, minutes in all, by
   * user and by ISO week, decisions by status, last activity), one consistent read. Its `etag` is
   * a digest of it: pass it as `ifNoneMatch` to get `null` while nothing it counts changed.
   */
  summary(
    target: Target,
    options?: CallOptions & { ifNoneMatch?: string },
  ): Promise<T.Tagged<T.OutcomeSummary> | null>;
}

/** `/context`: create, get, delete, list. Context items are immutable. */
export interface ContextApi
  extends Creatable<T.ContextItemCreate, T.ContextItem>,
    Readable<T.ContextItem, T.ContextFilters>,
    Deletable {}

/** `/decisions`: create, get, update, modify, list. */
export interface DecisionsApi
  extends Creatable<T.DecisionCreate, T.Decision>,
    Readable<T.Decision, T.DecisionFilters>,
    Updatable<T.DecisionPatch, T.Decision> {}

/** `/issues`: create, get (by id or key, e.g. `APO-12`), update, modify, transition, list. */
export interface IssuesApi
  extends Creatable<T.IssueCreate, T.Issue>,
    Readable<T.Issue, T.IssueFilters>,
    Updatable<T.IssuePatch, T.Issue>,
    Archivable<T.Issue> {
  /**
   * Moves an issue to another status (`POST /issues/{id}/transition`). A move the table forbids
   * is `ApiError` 422 `invalid_transition`, whose `allowed` lists the statuses reachable now.
   * Sent with an Idempotency-Key, so a retry after a lost answer does not move it twice.
   */
  transition(
    target: Target,
    to: T.IssueStatus,
    options?: WriteOptions & { comment?: string },
  ): Promise<T.Tagged<T.Issue>>;
  /** The issue's relations (`/issues/{id}/relations`): blocks, parents, duplicates. */
  relations: IssueRelationsApi;
}

/**
 * `/issues/{id}/relations`: each relation is stored once and read from both ends, its `type` as
 * seen from the issue asked about (`blocked_by` from the issue that another `blocks`).
 */
export interface IssueRelationsApi {
  /** The issue's relations from both ends, oldest first (iterate, or `.page()`). */
  list(issue: Target, filters?: T.IssueRelationFilters): Listing<T.IssueRelation>;
  /**
   * Relates the issue to `input.issueId`. A cycle of `blocks` or parents is `ApiError` 422
   * `relation_cycle` (its `path` names the issues around it); a second parent `second_parent`.
   */
  create(
    issue: Target,
    input: T.IssueRelationCreate,
    options?: CallOptions,
  ): Promise<T.Tagged<T.IssueRelation>>;
  /** Removes the relation from both issues. */
  delete(issue: Target, relationId: string, options?: CallOptions): Promise<void>;
}

/**
 * `/labels`: the labels the workspace's issues carry, in name order, each with how many issues
 * carry it (archived ones included). Find the issues with `issues.list({ labels, labelsAny })`.
 */
export interface LabelsApi {
  /** Every label (iterate, or `.page()`). */
  list(filters?: T.LabelFilters): Listing<T.Label>;
}

export function labelsApi(t: Transport): LabelsApi {
  return { list: (filters) => listingOf(t, '/labels', filters) };
}

/** `/time-entries`: create, get, update, modify, delete, list (with `totalMinutes`). */
export interface TimeEntriesApi
  extends Creatable<T.TimeEntryCreate, T.TimeEntry>,
    Readable<T.TimeEntry, T.TimeEntryFilters, T.TimeEntryPage>,
    Updatable<T.TimeEntryPatch, T.TimeEntry>,
    Deletable {}

/**
 * `/comments`: create, get, update, modify, delete, list (oldest first; `sort: '-createdAt'` for
 * newest first). A comment names exactly one of `issueId`, `outcomeId` and `decisionId`.
 */
export interface CommentsApi
  extends Creatable<T.CommentCreate, T.Comment>,
    Readable<T.Comment, T.CommentFilters>,
    Updatable<T.CommentPatch, T.Comment>,
    Deletable {}

/**
 * `/views`: saved views, the workspace's named queries on issues, outcomes or decisions: create,
 * get, update, modify, delete, list (`resource`), and `items`, which runs one.
 */
export interface ViewsApi
  extends Creatable<T.SavedViewCreate, T.SavedView>,
    Readable<T.SavedView, T.SavedViewFilters>,
    Updatable<T.SavedViewPatch, T.SavedView>,
    Deletable {
  /**
   * What the view lists now (`GET /views/{id}/items`; iterate, or `.page()`): the items its
   * resource's list answers for its query, in that list's order.
   */
  items(target: Target, filters?: T.SavedViewItemFilters): Listing<T.SavedViewItem>;
}

/**
 * `/members` (admins): the workspace's users and their roles: create (by email), get, update (the
 * role), modify, delete, list (`role`), and invites.
 */
export interface MembersApi
  extends Creatable<T.MemberCreate, T.Member>,
    Readable<T.Member, T.MemberFilters>,
    Updatable<T.MemberPatch, T.Member>,
    Deletable {
  /**
   * Adds the email as a member (a member already keeps their role) and answers `inviteUrl`, a link
   * with which they set a password once, within 7 days. No email is sent: pass the link on. The
   * link is shown this once (a replay of the request, same Idempotency-Key, answers
   * `inviteUrl: null`); a user who already has a password is refused (409 `has_password`).
   */
  invite(input: T.MemberCreate, options?: CallOptions): Promise<T.MemberInvite>;
}

/** `/webhooks` (admins): subscriptions, their secrets, test sends and deliveries. */
export interface WebhooksApi
  extends Readable<T.Webhook, T.WebhookFilters>,
    Updatable<T.WebhookPatch, T.Webhook>,
    Deletable {
  /**
   * Creates a subscription; the answer holds its signing `secret`, shown this once only (a
   * replay of the create, same Idempotency-Key, answers `secret: null`).
   */
  create(input: T.WebhookCreate, options?: CallOptions): Promise<T.Tagged<T.WebhookCreated>>;
  /** A new signing secret, shown once; for 24 hours deliveries carry both signatures. */
  rotateSecret(target: Target, options?: WriteOptions): Promise<T.Tagged<T.WebhookRotated>>;
  /** Sends one signed `webhook.test` delivery now and says how the receiver answered. */
  test(target: Target, options?: CallOptions): Promise<T.WebhookTestResult>;
  /** The subscription's deliveries, newest first (iterate, or `.page()`). */
  deliveries(target: Target, filters?: T.DeliveryFilters): Listing<T.WebhookDelivery>;
  /** Queues a delivery again at once, with a fresh retry schedule. */
  retryDelivery(target: Target, deliveryId: string, options?: CallOptions): Promise<T.WebhookDelivery>;
  /**
   * Queues the signals after `after` (a sequence), up to `until`, of `types`, to this webhook again,
   * in order, each with its event id; what it had delivered or replayed before is not queued again.
   */
  replay(target: Target, input: T.WebhookReplay, options?: CallOptions): Promise<T.WebhookReplayResult>;
}

/** `/signals` (admins): the account's change events, as pages or as a live stream. */
export interface SignalsApi {
  /** Events in ascending `sequence` order, from `after` (a sequence) on; iterate or `.page()`. */
  list(filters?: T.SignalFilters): Listing<T.SignalEvent>;
  /**
   * The live event stream (server-sent events) as an async iterator. It reconnects when the
   * connection drops, resuming with `Last-Event-ID`, and never yields an event twice. Stop it
   * with `break`, or with `signal`.
   */
  stream(options?: SignalStreamOptions): AsyncGenerator<T.SignalEvent, void, undefined>;
}

const idOf = (target: Target) => (typeof target === 'string' ? target : target.id);
const ifMatchOf = (target: Target, options: WriteOptions | undefined) =>
  options?.ifMatch ?? (typeof target === 'string' ? undefined : target.etag);

/** A family with create, get, list and update (and modify). */
function mutableFamily<Create, R, Patch, Filters, P extends T.Page<R> = T.Page<R>>(
  t: Transport,
  base: string,
) {
  const read = readable<R, Filters, P>(t, base);
  return { ...creatable<Create, R>(t, base), ...read, ...updatable<Patch, R>(t, base, read.get) };
}

function archivable<R>(t: Transport, base: string): Archivable<R> {
  const send = async (target: Target, action: string, options: WriteOptions | undefined) =>
    tagged(
      await t.send<R>({
        method: 'POST',
        path: `${itemPath(base, idOf(target))}/${action}`,
        ifMatch: ifMatchOf(target, options),
        options,
      }),
    );
  return {
    archive: (target, options) => send(target, 'archive', options),
    unarchive: (target, options) => send(target, 'unarchive', options),
  };
}

export function projectsApi(t: Transport): ProjectsApi {
  return mutableFamily<T.ProjectCreate, T.Project, T.ProjectPatch, T.ProjectFilters>(t, '/projects');
}

export function outcomesApi(t: Transport): OutcomesApi {
  return {
    ...mutableFamily<T.OutcomeCreate, T.Outcome, T.OutcomePatch, T.OutcomeFilters>(t, '/outcomes'),
    ...archivable<T.Outcome>(t, '/outcomes'),
    ...deletable(t, '/outcomes'),
    async summary(target, options = {}) {
      const { ifNoneMatch, ...callOptions } = options;
      const answer = await t.send<T.OutcomeSummary>({
        method: 'GET',
        path: `${itemPath('/outcomes', idOf(target))}/summary`,
        options: {
          ...callOptions,
          ...(ifNoneMatch !== undefined
            ? { headers: { ...callOptions.headers, 'If-None-Match': ifNoneMatch } }
            : {}),
        },
      });
      return answer.status === 304 ? null : tagged(answer);
    },
  };
}

export function contextApi(t: Transport): ContextApi {
  return {
    ...creatable<T.ContextItemCreate, T.ContextItem>(t, '/context'),
    ...readable<T.ContextItem, T.ContextFilters>(t, '/context'),
    ...deletable(t, '/context'),
  };
}

export function decisionsApi(t: Transport): DecisionsApi {
  return mutableFamily<T.DecisionCreate, T.Decision, T.DecisionPatch, T.DecisionFilters>(t, '/decisions');
}

function issueRelationsApi(t: Transport): IssueRelationsApi {
  const path = (issue: Target) => `${itemPath('/issues', idOf(issue))}/relations`;
  return {
    list: (issue, filters) => listingOf(t, path(issue), filters),
    async create(issue, input, options) {
      return tagged(
        await t.send<T.IssueRelation>({ method: 'POST', path: path(issue), body: input, options }),
      );
    },
    async delete(issue, relationId, options) {
      await t.send({ method: 'DELETE', path: itemPath(path(issue), relationId), options });
    },
  };
}

export function issuesApi(t: Transport): IssuesApi {
  return {
    relations: issueRelationsApi(t),
    ...archivable<T.Issue>(t, '/issues'),
    ...mutableFamily<T.IssueCreate, T.Issue, T.IssuePatch, T.IssueFilters>(t, '/issues'),
    async transition(target, to, options = {}) {
      const { comment, ...callOptions } = options;
      const answer = await t.send<T.Issue>({
        method: 'POST',
        path: `${itemPath('/issues', idOf(target))}/transition`,
        body: comment === undefined ? { to } : { to, comment },
        ifMatch: ifMatchOf(target, options),
        options: callOptions,
      });
      return tagged(answer);
    },
  };
}

export function timeEntriesApi(t: Transport): TimeEntriesApi {
  return {
    ...mutableFamily<T.TimeEntryCreate, T.TimeEntry, T.TimeEntryPatch, T.TimeEntryFilters, T.TimeEntryPage>(
      t,
      '/time-entries',
    ),
    ...deletable(t, '/time-entries'),
  };
}

export function commentsApi(t: Transport): CommentsApi {
  return {
    ...mutableFamily<T.CommentCreate, T.Comment, T.CommentPatch, T.CommentFilters>(t, '/comments'),
    ...deletable(t, '/comments'),
  };
}

export function viewsApi(t: Transport): ViewsApi {
  return {
    ...mutableFamily<T.SavedViewCreate, T.SavedView, T.SavedViewPatch, T.SavedViewFilters>(t, '/views'),
    ...deletable(t, '/views'),
    items: (target, filters) => listingOf(t, `${itemPath('/views', idOf(target))}/items`, filters),
  };
}

export function membersApi(t: Transport): MembersApi {
  return {
    ...mutableFamily<T.MemberCreate, T.Member, T.MemberPatch, T.MemberFilters>(t, '/members'),
    ...deletable(t, '/members'),
    async invite(input, options) {
      return (
        await t.send<T.MemberInvite>({ method: 'POST', path: '/members/invites', body: input, options })
      ).body;
    },
  };
}

export function webhooksApi(t: Transport): WebhooksApi {
  const read = readable<T.Webhook, T.WebhookFilters>(t, '/webhooks');
  const path = (target: Target, rest: string) => `${itemPath('/webhooks', idOf(target))}${rest}`;
  return {
    ...creatable<T.WebhookCreate, T.WebhookCreated>(t, '/webhooks'),
    ...read,
    ...updatable<T.WebhookPatch, T.Webhook>(t, '/webhooks', read.get),
    ...deletable(t, '/webhooks'),
    async rotateSecret(target, options) {
      const answer = await t.send<T.WebhookRotated>({
        method: 'POST',
        path: path(target, '/rotate-secret'),
        ifMatch: ifMatchOf(target, options),
        options,
      });
      return tagged(answer);
    },
    async test(target, options) {
      return (await t.send<T.WebhookTestResult>({ method: 'POST', path: path(target, '/test'), options }))
        .body;
    },
    deliveries: (target, filters) => listingOf(t, path(target, '/deliveries'), filters),
    async retryDelivery(target, deliveryId, options) {
      const answer = await t.send<T.WebhookDelivery>({
        method: 'POST',
        path: path(target, `/deliveries/${encodeURIComponent(deliveryId)}/retry`),
        options,
      });
      return answer.body;
    },
    async replay(target, input, options) {
      const answer = await t.send<T.WebhookReplayResult>({
        method: 'POST',
        path: path(target, '/replay'),
        body: input,
        options,
      });
      return answer.body;
    },
  };
}

export function signalsApi(
  t: Transport,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): SignalsApi {
  return {
    list: (filters) => listingOf(t, '/signals', filters),
    stream: (options = {}) => streamSignals(t, options, sleep),
  };
}
