import { createHash } from 'node:crypto';
import { ApiError, canonicalJson } from '../core/extension-kit.js';
import type { Api, ApiAnswer } from './api.js';
import {
  idempotencyKeyArgument,
  type RouteCall,
  type ToolDefinition,
  versionArgument,
  wrappedBody,
} from './tools.js';

type Json = Record<string, unknown>;

/** What `tools/call` answers (MCP CallToolResult). */
export interface ToolResult {
  [member: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Json;
  isError?: boolean;
  _meta?: Json;
}

/** Where the server's metadata goes in a result's `_meta`. */
export const metaKey = 'outcome-tracker';

/**
 * The idempotency key of a create sent without one: a UUID made from the connection, the MCP
 * request's id, the tool and its arguments. A transport that sends the same request again
 * (same id, same arguments, same session) gets the same key, and so the first call's answer.
 */
export function derivedIdempotencyKey(
  connectionId: string,
  requestId: string | number,
  tool: string,
  args: Json,
): string {
  const digest = createHash('sha256')
    .update(`${connectionId}\n${JSON.stringify(requestId)}\n${tool}\n${canonicalJson(args)}`)
    .digest('hex');
  // Shaped as an RFC 9562 version 8 (custom) UUID, which the API's key check accepts.
  const variant = ((Number.parseInt(digest.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${digest.slice(0, 8)}-${digest.slice(8, 12)}-8${digest.slice(13, 16)}-${variant}${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
}

/** A tool's answer for a problem: isError, the problem's fields, and its detail first in the text. */
export function problemResult(problem: Json, advice?: string): ToolResult {
  const detail = typeof problem.detail === 'string' ? problem.detail : String(problem.error ?? 'error');
  const text = `${problem.error ?? 'error'}: ${advice ?? detail}`;
  return {
    content: [
      { type: 'text', text },
      { type: 'text', text: JSON.stringify(problem) },
    ],
    structuredContent: problem,
    isError: true,
  };
}

const problemOf = (error: ApiError): Json => error.toProblem() as unknown as Json;

/** `3`, `"3"` or `'"3"'` as an If-Match value. */
function ifMatchOf(version: unknown): string | ApiError {
  if (typeof version === 'number' && Number.isSafeInteger(version) && version >= 0) return `"${version}"`;
  if (typeof version === 'string' && version.trim() !== '') {
    const trimmed = version.trim();
    return /^(W\/)?".*"$/.test(trimmed) ? trimmed : `"${trimmed}"`;
  }
  return new ApiError(
    400,
    'validation_failed',
    '`version` must be the version you read (an integer) or its ETag.',
    {
      issues: [{ in: 'arguments', path: versionArgument, message: 'expected a version or an ETag' }],
    },
  );
}

/** `/issues/:id/transition` with `{ id: 'APO-1' }` → `/issues/APO-1/transition`, or what is missing. */
function pathOf(call: RouteCall, args: Json): string | ApiError {
  const missing = call.params.filter((name) => typeof args[name] !== 'string' || args[name] === '');
  if (missing.length > 0) {
    return new ApiError(400, 'validation_failed', `Missing argument: ${missing.join(', ')}.`, {
      issues: missing.map((name) => ({ in: 'arguments', path: name, message: 'expected a string' })),
    });
  }
  return call.path.replace(/:([A-Za-z]+)/g, (_whole, name: string) => encodeURIComponent(String(args[name])));
}

/** The query string of a read's arguments: arrays repeat their parameter. */
function queryOf(args: Json): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      query.append(name, typeof item === 'string' ? item : JSON.stringify(item));
    }
  }
  return query;
}

/** The path of the resource an item route acts on: `/issues/APO-1/transition` → `/issues/APO-1`. */
const resourcePath = (path: string): string => /^\/[^/]+\/[^/]+/.exec(path)?.[0] ?? path;

/**
 * Runs one tool call through the API and answers it as MCP wants: the resource as structured
 * content, or a problem with `isError`. Never throws for an API error.
 */
export async function callRoute(
  api: Api,
  tool: ToolDefinition & { call: RouteCall },
  args: Json,
  derivedKey: () => string,
): Promise<ToolResult> {
  const { call } = tool;
  const path = pathOf(call, args);
  if (path instanceof ApiError) return problemResult(problemOf(path));
  const rest: Json = {};
  for (const [name, value] of Object.entries(args)) {
    if (call.params.includes(name) || name === idempotencyKeyArgument || name === versionArgument) continue;
    rest[name] = value;
  }
  const headers: Record<string, string> = {};
  let key: string | null = null;
  if (call.kind === 'create' || call.kind === 'action') {
    const given = args[idempotencyKeyArgument];
    if (given !== undefined && typeof given !== 'string') {
      return problemResult(
        problemOf(
          new ApiError(400, 'idempotency_key_invalid', '`idempotencyKey` must be a UUID.', {
            issues: [{ in: 'arguments', path: idempotencyKeyArgument, message: 'expected a UUID' }],
          }),
        ),
      );
    }
    // Without a key, one derived from the MCP request: a transport's retry of it is replayed.
    key = given ?? derivedKey();
    headers['idempotency-key'] = key;
  }
  const version = args[versionArgument];
  if (version !== undefined && call.kind !== 'read' && call.kind !== 'create') {
    const ifMatch = ifMatchOf(version);
    if (ifMatch instanceof ApiError) return problemResult(problemOf(ifMatch));
    headers['if-match'] = ifMatch;
  }
  const answer = await api({
    method: call.method,
    path,
    headers,
    ...(call.rest === 'query' ? { query: queryOf(rest) } : {}),
    ...(call.rest === 'body' ? { body: rest } : {}),
    ...(call.rest === 'wrapped' ? { body: rest[wrappedBody] } : {}),
  });
  if (answer.status >= 400) return failure(api, call, path, answer);
  return success(answer, key);
}

async function failure(api: Api, call: RouteCall, path: string, answer: ApiAnswer): Promise<ToolResult> {
  const problem = (answer.body ?? { status: answer.status, error: 'internal_error' }) as Json;
  if (problem.error === 'precondition_required') {
    return problemResult(
      problem,
      'This update needs the `version` of the resource you are changing: read it with the get (or list) tool and send its `version`.',
    );
  }
  if (problem.error === 'version_conflict' && call.kind !== 'create') {
    // The agent's next step is a merge: give it what it merges with.
    const current = await api({ method: 'GET', path: resourcePath(path) });
    if (current.status === 200) {
      const resource = current.body as Json;
      return problemResult(
        { ...problem, currentVersion: resource.version, current: resource },
        `The resource changed since the version you sent; it is now at version ${String(resource.version)} (in \`current\`). Merge your change into it and retry with that version.`,
      );
    }
  }
  return problemResult(problem);
}

function success(answer: ApiAnswer, key: string | null): ToolResult {
  const replayed = answer.headers['idempotent-replayed'] === 'true';
  const etag = answer.headers.etag;
  const body = answer.body;
  const structured: Json =
    body === undefined
      ? { done: true }
      : typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Json)
        : { value: body };
  const content: ToolResult['content'] = [];
  if (replayed) {
    content.push({
      type: 'text',
      text: `Replayed: a call with idempotency key ${key} was already made; this is its answer and nothing new was done.`,
    });
  }
  content.push({ type: 'text', text: JSON.stringify(structured) });
  return {
    content,
    structuredContent: structured,
    _meta: {
      [metaKey]: {
        status: answer.status,
        replayed,
        ...(key !== null ? { idempotencyKey: key } : {}),
        ...(etag ? { etag } : {}),
      },
    },
  };
}
