import { ApiError, VersionConflictError } from './errors.js';
import { Listing } from './listing.js';
import type { ApiAnswer, CallOptions, QueryValue, Transport } from './transport.js';
import type { Page, Tagged } from './types.js';

/** Options of a write that may name the version it expects. */
export interface WriteOptions extends CallOptions {
  /** Sent as `If-Match`: the `etag` of the version you read; `*` matches any version. */
  ifMatch?: string;
}

/** An id, or a resource read earlier (its `id` and `etag` are then used). */
export type Target = string | { readonly id: string; readonly etag?: string };

/** Creates resources of a family. */
export interface Creatable<Create, T> {
  /**
   * Creates one (`POST`). An `Idempotency-Key` is sent for you (or yours, from `options`) and
   * reused on every retry, so a create retried after a lost answer makes one resource.
   */
  create(input: Create, options?: CallOptions): Promise<Tagged<T>>;
}

/** Reads resources of a family. */
export interface Readable<T, Filters, P extends Page<T> = Page<T>> {
  /** Reads one by id (`GET`); the result's `etag` is its version's ETag. */
  get(id: string, options?: CallOptions): Promise<Tagged<T>>;
  /**
   * The items matching `filters`, newest first: `for await (const x of list(filters))` follows
   * every `nextCursor`; `.page()` fetches one page with `total`.
   */
  list(filters?: Filters): Listing<T, P>;
}

/** Changes resources of a family. */
export interface Updatable<Patch, T> {
  /**
   * Changes fields (`PATCH`) of the version named by `ifMatch` (or by the `etag` of a resource
   * passed instead of an id). A stale version is `ApiError` 409 `version_conflict`; `modify`
   * re-reads and retries for you. Not retried after a lost answer (the write may have happened).
   */
  update(target: Target, patch: Patch, options?: WriteOptions): Promise<Tagged<T>>;
  /**
   * Read-modify-write: reads the current version, asks `change` for a patch (return nothing to
   * change nothing), and writes it with `If-Match`. On `409 version_conflict` it starts over, at
   * most `attempts` times in all (default 3), then throws `VersionConflictError`.
   */
  modify(
    id: string,
    change: (current: Tagged<T>) => Patch | undefined | Promise<Patch | undefined>,
    options?: CallOptions & { attempts?: number },
  ): Promise<Tagged<T>>;
}

/** Deletes resources of a family. */
export interface Deletable {
  /** Deletes one (`DELETE`), optionally only if it is still at the version `ifMatch` names. */
  delete(target: Target, options?: WriteOptions): Promise<void>;
}

/** Pins the ETag of an answer on its resource, as a property that is not serialized. */
export function tagged<T>(answer: ApiAnswer<T>): Tagged<T> {
  const resource = answer.body as T & object;
  Object.defineProperty(resource, 'etag', { value: answer.headers.get('etag'), enumerable: false });
  return resource as Tagged<T>;
}

export const itemPath = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

const idOf = (target: Target) => (typeof target === 'string' ? target : target.id);
const ifMatchOf = (target: Target, options: WriteOptions | undefined) =>
  options?.ifMatch ?? (typeof target === 'string' ? undefined : target.etag);

export function creatable<Create, T>(t: Transport, base: string): Creatable<Create, T> {
  return {
    create: async (input, options) =>
      tagged(await t.send<T>({ method: 'POST', path: base, body: input, options })),
  };
}

export function listingOf<T, P extends Page<T>>(
  t: Transport,
  path: string,
  filters: object | undefined,
): Listing<T, P> {
  return new Listing<T, P>(async (cursor, signal) => {
    const query = { ...(filters as Record<string, QueryValue>), cursor };
    const answer = await t.send<P>({ method: 'GET', path, query, options: signal ? { signal } : {} });
    return answer.body;
  });
}

export function readable<T, Filters, P extends Page<T> = Page<T>>(
  t: Transport,
  base: string,
): Readable<T, Filters, P> {
  return {
    get: async (id, options) => tagged(await t.send<T>({ method: 'GET', path: itemPath(base, id), options })),
    list: (filters) => listingOf<T, P>(t, base, filters as object | undefined),
  };
}

export function updatable<Patch, T>(
  t: Transport,
  base: string,
  get: (id: string, options?: CallOptions) => Promise<Tagged<T>>,
): Updatable<Patch, T> {
  const update: Updatable<Patch, T>['update'] = async (target, patch, options) =>
    tagged(
      await t.send<T>({
        method: 'PATCH',
        path: itemPath(base, idOf(target)),
        body: patch,
        ifMatch: ifMatchOf(target, options),
        options,
      }),
    );
  return {
    update,
    async modify(id, change, options = {}) {
      const { attempts = 3, ...callOptions } = options;
      for (let attempt = 1; ; attempt++) {
        const current = await get(id, callOptions);
        const patch = await change(current);
        if (patch === undefined) return current;
        try {
          const resourceId = (current as { id?: string }).id ?? id;
          return await update(resourceId, patch, { ...callOptions, ifMatch: current.etag });
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'version_conflict') throw error;
          if (attempt >= attempts) {
            throw new VersionConflictError(error, attempt);
          }
        }
      }
    },
  };
}

export function deletable(t: Transport, base: string): Deletable {
  return {
    async delete(target, options) {
      await t.send({
        method: 'DELETE',
        path: itemPath(base, idOf(target)),
        ifMatch: ifMatchOf(target, options),
        options,
      });
    },
  };
}
