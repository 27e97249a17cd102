import type { Tracker } from '../core/extension-kit.js';
import { ApiError, authorize, type Grant, grantLost } from '../core/extension-kit.js';
import type { Api } from './api.js';
import { principalOf } from './principal.js';

/** The families served as MCP resources: `tracker://issues/APO-12`, `tracker://outcomes/out_…`. */
export const resourceFamilies = ['issues', 'outcomes', 'decisions'] as const;
export type ResourceFamily = (typeof resourceFamilies)[number];

const uriPattern = /^tracker:\/\/(issues|outcomes|decisions)\/([^/?#]+)$/;

/** The family and the id (or issue key) a resource URI names, or null for another URI. */
export function parseResourceUri(uri: string): { family: ResourceFamily; id: string } | null {
  const match = uriPattern.exec(uri);
  if (!match?.[1] || !match[2]) return null;
  return { family: match[1] as ResourceFamily, id: decodeURIComponent(match[2]) };
}

/** An issue is named by its key (APO-12), the others by their id. */
export const resourceUriOf = (family: ResourceFamily, item: { id: string; key?: unknown }): string =>
  `tracker://${family}/${family === 'issues' && typeof item.key === 'string' ? item.key : item.id}`;

/** What `resources/templates/list` answers. */
export const resourceTemplates = resourceFamilies.map((family) => ({
  uriTemplate: `tracker://${family}/${family === 'issues' ? '{key}' : '{id}'}`,
  name: family,
  title: `One of the workspace's ${family}`,
  description: `The ${family.slice(0, -1)} as the API answers it (GET /${family}/{${family === 'issues' ? 'id or key' : 'id'}}); subscribe to hear when it changes.`,
  mimeType: 'application/json',
}));

/** Reads one resource through the API; an API error (404, 401) comes back as it is. */
export async function readResource(
  api: Api,
  uri: string,
): Promise<{ uri: string; json: Record<string, unknown> } | ApiError> {
  const named = parseResourceUri(uri);
  if (!named) return new ApiError(404, 'not_found', `${uri} is not a resource of this server.`);
  const answer = await api({ method: 'GET', path: `/${named.family}/${encodeURIComponent(named.id)}` });
  if (answer.status !== 200) {
    const problem = answer.body as { error?: string; detail?: string } | undefined;
    return new ApiError(
      answer.status,
      (problem?.error as never) ?? 'internal_error',
      problem?.detail ?? `GET ${uri} answered ${answer.status}`,
    );
  }
  return { uri, json: answer.body as Record<string, unknown> };
}

export interface SubscriptionOptions {
  tracker: Tracker;
  token: string;
  /** How long to wait for a change before looking anyway (changes made where this process hears nothing, a revocation). */
  pollMs: number;
  /** Tells the client that a resource it subscribed to changed. */
  notify(uri: string): Promise<void>;
  /** The grant was lost (the token revoked or expired, its member removed or demoted): every subscription ended. */
  onRevoked(problem: ApiError): Promise<void>;
  onError(error: unknown): void;
}

export interface Subscriptions {
  /** Watches the resource with this id under this URI; resolves once changes after now are watched. */
  add(uri: string, resourceId: string): Promise<undefined | ApiError>;
  remove(uri: string): void;
  close(): void;
}

/**
 * The resources a connection subscribed to, and one watcher of its account's signals for all of
 * them: woken by each committed write of the account (other processes' too on PostgreSQL) and
 * at least every `pollMs`, it reads the signals since the last look, re-checks the token's grant
 * in the same snapshot (the shared `grantLost`), and notifies the URIs whose resource they name.
 * A grant lost (the token revoked or expired, its member removed or demoted below read) ends
 * every subscription, as an event stream ends.
 */
export function subscriptions(options: SubscriptionOptions): Subscriptions {
  const { tracker, token } = options;
  const urisByResource = new Map<string, Set<string>>();
  const resourceByUri = new Map<string, string>();
  let cursor: { accountId: string; after: number } | null = null;
  let closed = false;
  let changed = false;
  let wake: (() => void) | null = null;
  let stopListening: (() => void) | null = null;
  let starting: Promise<ApiError | null> | null = null;

  /**
   * What the subscriptions were granted when the first one began: the token, for reading (a
   * resource read is a GET). Each look re-checks it with the shared `grantLost`, as an event
   * stream does: revoked, expired, its member removed, demoted or narrowed below read.
   */
  let grant: Grant | null = null;

  /** Reads what the account's signals say since `after`, then re-checks the grant in that snapshot. */
  const look = (accountId: string, after: number, held: Grant) =>
    tracker.storage.transaction(
      async (tx) => {
        const events = await tx.signals.list({ accountId, afterSequence: after, limit: 200 });
        // After the events: if the grant stands here, each of them committed before any revocation.
        const lost = await grantLost(tx, held, tracker.clock.now());
        return lost ?? { events };
      },
      { mode: 'read' },
    );

  const start = async (): Promise<ApiError | null> => {
    const begun = await tracker.storage.transaction(
      async (tx) => {
        const principal = await principalOf(tx, token, tracker.clock.now());
        if (principal instanceof ApiError) return principal;
        const opened: Grant = { authorization: `Bearer ${token}`, access: 'read', method: 'GET', principal };
        const refused = authorize(principal, opened.access, opened.method);
        if (refused) return refused;
        return {
          grant: opened,
          cursor: {
            accountId: principal.accountId,
            after: await tx.signals.latestSequence(principal.accountId),
          },
        };
      },
      { mode: 'read' },
    );
    if (begun instanceof ApiError) return begun;
    cursor = begun.cursor;
    grant = begun.grant;
    stopListening = tracker.onChange(begun.cursor.accountId, () => {
      changed = true;
      wake?.();
    });
    void watch().catch((error: unknown) => options.onError(error));
    return null;
  };

  const waitForChange = () =>
    new Promise<void>((resolve) => {
      if (changed || closed) return resolve();
      const timer = setTimeout(done, options.pollMs);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const watch = async () => {
    while (!closed && cursor && grant) {
      await waitForChange();
      if (closed) return;
      changed = false;
      for (;;) {
        const seen = await look(cursor.accountId, cursor.after, grant);
        if (closed) return;
        if (seen instanceof ApiError) {
          stop();
          await options.onRevoked(seen);
          return;
        }
        for (const event of seen.events) {
          cursor.after = event.sequence;
          for (const uri of urisByResource.get(event.resource.id) ?? []) await options.notify(uri);
        }
        if (seen.events.length < 200) break;
      }
    }
  };

  const stop = () => {
    closed = true;
    urisByResource.clear();
    resourceByUri.clear();
    stopListening?.();
    wake?.();
  };

  return {
    async add(uri, resourceId) {
      if (closed) return new ApiError(401, 'unauthorized', 'This connection no longer authenticates.');
      if (!cursor) {
        starting ??= start();
        const refused = await starting;
        if (refused) {
          starting = null;
          return refused;
        }
      }
      resourceByUri.set(uri, resourceId);
      let uris = urisByResource.get(resourceId);
      if (!uris) {
        uris = new Set();
        urisByResource.set(resourceId, uris);
      }
      uris.add(uri);
      return undefined;
    },
    remove(uri) {
      const resourceId = resourceByUri.get(uri);
      if (resourceId === undefined) return;
      resourceByUri.delete(uri);
      const uris = urisByResource.get(resourceId);
      uris?.delete(uri);
      if (uris?.size === 0) urisByResource.delete(resourceId);
    },
    close() {
      stop();
    },
  };
}
