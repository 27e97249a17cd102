import { ApiError, ConnectionError, parseRetryAfterSeconds, UnexpectedResponseError } from './errors.js';
import {
  type AttemptOutcome,
  type BackoffOptions,
  isRetryable,
  type RetryMode,
  retryDelayMs,
} from './retry-policy.js';
import type { Problem } from './types.js';

/** The `fetch` the client sends with: the global one, a tracker's, or a test's. */
export type FetchLike = (request: Request) => Promise<Response>;

/** Options every call takes. */
export interface CallOptions {
  /**
   * The `Idempotency-Key` of a POST. Without one the client makes a UUID for the call and sends
   * it on every retry of that call; give your own to make a retry of the whole call (say, after
   * a restart) safe too. The client's own keys are time-ordered (version 7, `timeOrderedKey`),
   * which the server stores more cheaply than random ones.
   */
  idempotencyKey?: string;
  /** Aborts the call, retries and waits included. */
  signal?: AbortSignal;
  /** Extra request headers, e.g. `X-Request-Id`. */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below `/api/v1`, e.g. `/issues/APO-1`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  ifMatch?: string | undefined;
  options?: CallOptions | undefined;
  /** Extra headers the operation itself sends (e.g. `Accept` and `Last-Event-ID` of a stream). */
  headers?: Record<string, string>;
}

/** A successful answer: its status, headers and parsed JSON body (undefined when empty). */
export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TransportOptions {
  baseUrl: string;
  token: string;
  fetch: FetchLike;
  maxRetries: number;
  timeoutMs: number;
  backoff: BackoffOptions;
  uuid: () => string;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Sends API calls: headers, idempotency keys, timeouts, retries and problem+json errors. */
export interface Transport {
  send<T>(call: ApiCall): Promise<ApiAnswer<T>>;
  /** Like `send`, but resolves with the response as soon as its headers arrive (streams). */
  open(call: ApiCall): Promise<Response>;
}

const retryModeOf = (method: ApiCall['method']): RetryMode =>
  method === 'GET' || method === 'DELETE' ? 'idempotent' : method === 'POST' ? 'keyed' : 'unsafe';

export function createTransport(options: TransportOptions): Transport {
  const root = `${options.baseUrl.replace(/\/+$/, '')}/api/v1`;

  function requestOf(call: ApiCall, key: string | undefined, signal: AbortSignal): Request {
    const headers = new Headers({ Accept: 'application/json', ...call.headers, ...call.options?.headers });
    headers.set('Authorization', `Bearer ${options.token}`);
    if (key !== undefined) headers.set('Idempotency-Key', key);
    if (call.ifMatch !== undefined) headers.set('If-Match', call.ifMatch);
    let body: string | undefined;
    if (call.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(call.body);
    }
    return new Request(`${root}${call.path}${queryString(call.query)}`, {
      method: call.method,
      headers,
      signal,
      ...(body !== undefined ? { body } : {}),
    });
  }

  /** Runs attempts until one answers with success, or no retry is left or allowed. */
  async function attempt(call: ApiCall, streaming: boolean): Promise<{ response: Response; text: string }> {
    const mode = retryModeOf(call.method);
    const key = call.method === 'POST' ? (call.options?.idempotencyKey ?? options.uuid()) : undefined;
    const caller = call.options?.signal;
    for (let retry = 0; ; retry++) {
      caller?.throwIfAborted();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error('timeout')), options.timeoutMs);
      const signal = anySignal([timeout.signal, ...(caller ? [caller] : [])]);
      let outcome: AttemptOutcome;
      let failure: Error;
      try {
        const response = await options.fetch(requestOf(call, key, signal));
        if (streaming && response.ok) {
          clearTimeout(timer);
          return { response, text: '' };
        }
        const text = await response.text();
        clearTimeout(timer);
        if (response.ok || response.status === 304) return { response, text };
        failure = errorOf(response, text);
        const code = failure instanceof ApiError ? failure.code : null;
        outcome = {
          kind: 'status',
          status: response.status,
          code,
          retryAfterSeconds: parseRetryAfterSeconds(response.headers.get('retry-after')),
        };
      } catch (error) {
        clearTimeout(timer);
        caller?.throwIfAborted();
        const timedOut = timeout.signal.aborted;
        outcome = { kind: 'network', timedOut };
        failure = new ConnectionError(error, retry + 1, timedOut);
      }
      const delay =
        retry < options.maxRetries && isRetryable(mode, outcome)
          ? retryDelayMs(retry, outcome, options.backoff)
          : null;
      if (delay === null) throw failure;
      await options.sleep(delay, caller);
    }
  }

  return {
    async send<T>(call: ApiCall): Promise<ApiAnswer<T>> {
      const { response, text } = await attempt(call, false);
      return { status: response.status, headers: response.headers, body: parseBody(response, text) as T };
    },
    async open(call) {
      return (await attempt(call, true)).response;
    },
  };
}

function parseBody(response: Response, text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(response.status, text);
  }
}

/** The typed error of a failed answer: an ApiError for problem+json, else what came. */
function errorOf(response: Response, text: string): Error {
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (body && typeof body.error === 'string' && typeof body.status === 'number') {
      return new ApiError(body as Problem, response.headers);
    }
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return new UnexpectedResponseError(response.status, text);
}

/** `?a=1&types=x&types=y`: arrays repeat the name, null and undefined are left out. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) search.append(name, String(v));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A signal aborted when any of `signals` is (AbortSignal.any is missing from older runtimes). */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
