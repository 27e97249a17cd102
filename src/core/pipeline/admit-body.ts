import { ApiError } from '../errors.js';
import { admittedLately, noteAdmitted } from './admitted-tokens.js';
import { resolveToken } from './auth.js';
import type { ParsedRequest } from './request.js';
import type { TrackerRuntime } from './runtime.js';

/** How long a client has to send a request's body once its headers are in (hosts pass it on). */
export const bodyTimeoutMs = 10_000;

/** The error a host's body reader rejects with when the body takes longer than bodyTimeoutMs. */
export const bodyTooSlow = (): ApiError =>
  new ApiError(
    408,
    'request_timeout',
    `The request body did not arrive within ${bodyTimeoutMs / 1000} s of its headers.`,
  );

/**
 * The request with its body read, once its headers have admitted it: the rate limit was taken
 * already, and an API request's token must authenticate (read on its own, written nowhere; the
 * request's transaction authenticates it again). A stranger's body is never read: 1,100
 * tokenless connections trickling 100 kB bodies held every connection of the server for a
 * minute, before any of them was refused.
 */
export async function withAdmittedBody(
  rt: TrackerRuntime,
  req: ParsedRequest,
  needsToken: boolean,
): Promise<ParsedRequest> {
  const read = req.readBody;
  if (read === null) return req;
  // Only a body still arriving is worth refusing unread: one that has all arrived is read at
  // once, and the request's transaction authenticates the token as for any request. So is the
  // body of a token that authenticated lately (admitted-tokens.ts).
  const { authorization } = req.headers;
  if (needsToken && req.bodyPending() && !admittedLately(rt, authorization)) {
    const resolved = await rt.storage.transaction((tx) => resolveToken(tx, authorization, rt.clock.now()), {
      mode: 'read',
    });
    if (resolved instanceof ApiError) throw resolved;
    noteAdmitted(rt, authorization);
  }
  let body: Uint8Array | null;
  try {
    body = await read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ClientGone(error);
  }
  return { ...req, body, readBody: null };
}

/**
 * The client went away before its body arrived (or the server cut it at shutdown): there is no
 * one to answer. handleRequest lets it through, so the host's own handling of a failed read (as
 * when it read bodies itself) sees it: no answer, no request logged, no 500.
 */
export class ClientGone extends Error {
  constructor(readonly reason: unknown) {
    super('the client went away before its request body arrived');
    this.name = 'ClientGone';
  }
}
