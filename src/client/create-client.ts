import { type BatchApi, batchApi } from './batch.js';
import {
  type CommentsApi,
  type ContextApi,
  commentsApi,
  contextApi,
  type DecisionsApi,
  decisionsApi,
  type IssuesApi,
  issuesApi,
  type LabelsApi,
  labelsApi,
  type MembersApi,
  membersApi,
  type OutcomesApi,
  outcomesApi,
  type ProjectsApi,
  projectsApi,
  type SignalsApi,
  signalsApi,
  type TimeEntriesApi,
  timeEntriesApi,
  type ViewsApi,
  viewsApi,
  type WebhooksApi,
  webhooksApi,
} from './families.js';
import { timeOrderedKey } from './idempotency-key.js';
import { type InProcessTracker, inProcessFetch } from './in-process.js';
import { defaultBackoff } from './retry-policy.js';
import { createTransport, type FetchLike, sleep } from './transport.js';

export interface ClientOptions {
  /**
   * Where the API is: the origin (and any base path) in front of `/api/v1`, e.g.
   * `https://tracker.example.com`. Default `http://tracker.local` (for in-process use).
   */
  baseUrl?: string;
  /** An API token (`cn_…`), sent as `Authorization: Bearer`. */
  token: string;
  /** The `fetch` to send with; default the global `fetch`. */
  fetch?: FetchLike;
  /** Answer from this tracker in process, with no server (instead of `fetch`). */
  tracker?: InProcessTracker;
  /** Retries after the first attempt, for failures that may be retried; default 2. */
  maxRetries?: number;
  /** How long one attempt may take before it is aborted (and perhaps retried), in ms; default 30 000. */
  timeoutMs?: number;
  /** A Retry-After longer than this is not waited for, the error is thrown; default 60 000 ms. */
  maxRetryAfterMs?: number;
}

/** The client: one object per family, named as the API's paths are. */
export interface Client {
  projects: ProjectsApi;
  outcomes: OutcomesApi;
  context: ContextApi;
  decisions: DecisionsApi;
  issues: IssuesApi;
  labels: LabelsApi;
  timeEntries: TimeEntriesApi;
  comments: CommentsApi;
  views: ViewsApi;
  members: MembersApi;
  webhooks: WebhooksApi;
  signals: SignalsApi;
  /** Several changes in one transaction, all or none (`POST /batch`). */
  batch: BatchApi;
}

/**
 * A client of the outcome-tracker API, over `fetch`: it runs in Node, browsers and other fetch
 * runtimes. Creates carry an Idempotency-Key reused across retries; network errors, timeouts,
 * 429 and 503 are retried with backoff honouring Retry-After (a PATCH only after a 429 or a
 * 503 transient_conflict);
 * `modify` re-reads and retries on version conflicts; lists are async iterables.
 */
export function createClient(options: ClientOptions): Client {
  const transport = createTransport({
    baseUrl: options.baseUrl ?? 'http://tracker.local',
    token: options.token,
    fetch: chooseFetch(options),
    maxRetries: Math.max(0, options.maxRetries ?? 2),
    timeoutMs: options.timeoutMs ?? 30_000,
    backoff: {
      ...defaultBackoff,
      ...(options.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: options.maxRetryAfterMs } : {}),
      random: Math.random,
    },
    uuid: () => timeOrderedKey(),
    sleep,
  });
  return {
    projects: projectsApi(transport),
    outcomes: outcomesApi(transport),
    context: contextApi(transport),
    decisions: decisionsApi(transport),
    issues: issuesApi(transport),
    labels: labelsApi(transport),
    timeEntries: timeEntriesApi(transport),
    comments: commentsApi(transport),
    views: viewsApi(transport),
    members: membersApi(transport),
    webhooks: webhooksApi(transport),
    signals: signalsApi(transport, sleep),
    batch: batchApi(transport),
  };
}

function chooseFetch(options: ClientOptions): FetchLike {
  if (options.fetch) return options.fetch;
  if (options.tracker) return inProcessFetch(options.tracker);
  return (request) => globalThis.fetch(request);
}
