import type { ApiError } from './errors.js';
import { authenticate, type Principal } from './pipeline/auth.js';
import type { Services } from './pipeline/context.js';
import type { PublicRoute } from './pipeline/public-route.js';
import type { Reply } from './pipeline/reply.js';
import type { ParsedRequest } from './pipeline/request.js';
import type { Storage, StorageTx } from './port/index.js';
import type { Clock, Ids } from './runtime.js';

/**
 * Something that brings its own pages to the tracker (the admin area is one): given the tracker's
 * storage and helpers once, it answers paths outside the API. The core knows no extension by name.
 */
export interface TrackerExtension {
  /** Named in the error when two extensions claim one open route. */
  readonly name: string;
  /** Called once, when the tracker is built; what it keeps (a throttle) lives as long as the tracker. */
  mount(host: ExtensionHost): MountedExtension;
}

/** What an extension gets from the tracker it is mounted in. */
export interface ExtensionHost {
  storage: Storage;
  clock: Clock;
  ids: Ids;
  /** The outside services operations run with (the webhook sender), for pages that run operations. */
  services: Services;
  /** Where the API is served; pages themselves see the paths below the mount's root (see Mount). */
  basePath: string;
  /** Told about unexpected errors, as the tracker's `onError` is. */
  onError(error: unknown, requestId: string): void;
  /** Who a bearer token (the `Authorization` header's value) acts for, as the API authenticates it. */
  authenticate(
    tx: StorageTx,
    authorization: string | undefined,
    nowMs: number,
  ): Promise<Principal | ApiError>;
}

/** The paths an extension answers and how its errors look. Every part is optional. */
export interface MountedExtension {
  /**
   * Endpoints answered without a token by `METHOD /path`, matched before the API's routes, and
   * answering GET and HEAD alone (GET / for a landing page).
   */
  openRoutes?: Readonly<Record<string, PublicRoute>>;
  /**
   * The page for a path outside the API, matched after the API's routes and every open route;
   * null for a path that is not the extension's (it then answers 404, or another extension's).
   */
  match?(method: string, path: string): ExtensionRoute | null;
  /**
   * An error on a path outside the API as this extension shows it (an HTML page for browsers), or
   * null to leave it problem+json. The first extension that answers decides.
   */
  errorReply?(path: string, error: ApiError): Reply | null;
}

/** One page of an extension, as matched for one request. */
export interface ExtensionRoute {
  /** Whether its storage transaction only reads (a POST that writes in a transaction of its own after). */
  readsOnly: boolean;
  /** Answers the request inside the pipeline's storage transaction. */
  answer(request: ExtensionRequest): Promise<Reply>;
}

/** What an extension's page runs with: one request, its transaction and its time. */
export interface ExtensionRequest {
  tx: StorageTx;
  req: ParsedRequest;
  nowMs: number;
}

/** Every mounted extension as one: open routes merged, matches and error pages asked in order. */
export interface Extensions {
  openRoutes: Readonly<Record<string, PublicRoute>>;
  match(method: string, path: string): ExtensionRoute | null;
  errorReply(path: string, error: ApiError): Reply | null;
}

/** Mounts the extensions in order; an open route two of them (or the core) claim is a mistake. */
export function mountExtensions(
  extensions: readonly TrackerExtension[],
  host: Omit<ExtensionHost, 'authenticate'>,
  coreRoutes: Readonly<Record<string, PublicRoute>>,
): Extensions {
  const full: ExtensionHost = { ...host, authenticate };
  const mounted = extensions.map((extension) => ({ name: extension.name, ...extension.mount(full) }));
  const openRoutes: Record<string, PublicRoute> = { ...coreRoutes };
  for (const extension of mounted) {
    for (const [key, route] of Object.entries(extension.openRoutes ?? {})) {
      if (Object.hasOwn(openRoutes, key)) {
        throw new TypeError(`extension ${extension.name}: ${key} is answered already`);
      }
      openRoutes[key] = route;
    }
  }
  const matchers = mounted.flatMap((extension) => (extension.match ? [extension.match] : []));
  const errorReplies = mounted.flatMap((extension) => (extension.errorReply ? [extension.errorReply] : []));
  return {
    openRoutes,
    match(method, path) {
      for (const match of matchers) {
        const route = match(method, path);
        if (route) return route;
      }
      return null;
    },
    errorReply(path, error) {
      for (const errorReply of errorReplies) {
        const reply = errorReply(path, error);
        if (reply) return reply;
      }
      return null;
    },
  };
}
