import type { Tracker } from '../core/extension-kit.js';

/** An API answer, its body parsed. */
export interface ApiAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: unknown;
}

export interface ApiCall {
  method: string;
  /** Under the base path: `/issues/APO-1`. */
  path: string;
  query?: URLSearchParams;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Sends one request through the tracker's own pipeline, as the holder of a token. */
export type Api = (call: ApiCall) => Promise<ApiAnswer>;

/**
 * Calls the API in process, through `tracker.handle`: the same authentication, scopes, rate
 * limit, idempotency, preconditions and validation as a request over HTTP, with no socket.
 */
export function trackerApi(tracker: Tracker, token: string): Api {
  return async ({ method, path, query, headers, body }) => {
    const search = query?.toString();
    const answer = await tracker.handle({
      method,
      path: `${tracker.basePath}${path}${search ? `?${search}` : ''}`,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
      // Counted and logged as a request from this process, not as a stranger's.
      clientAddress: 'mcp',
    });
    const text =
      answer.body === null
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : new TextDecoder().decode(answer.body);
    return {
      status: answer.status,
      headers: Object.fromEntries(
        Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]),
      ),
      body: text === '' ? undefined : JSON.parse(text),
    };
  };
}
