import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer from a server under test. */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  json: any;
  text: string;
}

/** How many answers were `503 transient_conflict` and sent again, as a client is told to. */
export const transientConflicts = { retried: 0 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one request with fetch; `body` is sent as JSON; a POST gets a fresh Idempotency-Key
 * unless given one. A `503 transient_conflict` is sent again (same key) after its Retry-After,
 * as the API guide tells clients to, at most 20 times.
 */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    ...(options.headers ?? {}),
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 1; ; attempt++) {
    const answer = await send(baseUrl, method, path, headers, options.body);
    if (answer.status !== 503 || answer.json?.error !== 'transient_conflict' || attempt === 20) return answer;
    const retryAfter = Number(answer.headers.get('retry-after'));
    if (!(retryAfter >= 0)) throw new Error(`503 transient_conflict without a Retry-After: ${answer.text}`);
    transientConflicts.retried++;
    await sleep(retryAfter * 1000 + Math.random() * 100);
  }
}

async function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    redirect: 'manual',
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** One webhook request a receiver got. */
export interface Received {
  eventId: string;
  type: string;
  at: number;
  /** The sender's side of the connection. */
  remotePort: number;
  /** Which process sent it, as `identify` named it while the connection was open; null when unknown. */
  sender: string | null;
}

/**
 * A loopback webhook receiver. It answers 204 at once, unless `hang(eventType)` asked it to hold
 * requests of a type open without ever answering (a receiver that stalls).
 */
export interface Receiver {
  url: string;
  received: Received[];
  /** Holds every later request whose event has this type open, unanswered. */
  hang(type: string | null): void;
  /** Names the sender of a request from the port of its end of the connection. */
  identify(sender: (remotePort: number) => string | null): void;
  /** Resolves once `check` holds for what was received. */
  waitFor(check: (received: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let hanging: string | null = null;
  let identify: (remotePort: number) => string | null = () => null;
  const waiters = new Set<() => void>();
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as { id: string; type: string };
    const remotePort = request.socket.remotePort ?? 0;
    received.push({
      eventId: body.id,
      type: body.type,
      at: Date.now(),
      remotePort,
      sender: identify(remotePort),
    });
    for (const wake of [...waiters]) wake();
    if (hanging !== null && body.type === hanging) return; // never answered
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    hang(type) {
      hanging = type;
    },
    identify(sender) {
      identify = sender;
    },
    waitFor(check, what, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (!check(received)) return;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`receiver: gave up waiting for ${what} (${received.length} received)`));
        }, timeoutMs);
        waiters.add(wake);
        wake();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One server-sent event (heartbeat comments are dropped). */
export interface StreamEvent {
  id: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  data: any;
}

/** An open `text/event-stream` of GET /signals. */
export interface SignalStream {
  status: number;
  events: StreamEvent[];
  /** Resolves once the stream has delivered `count` events in all. */
  waitForEvents(count: number, timeoutMs?: number): Promise<StreamEvent[]>;
  close(): void;
}

export async function openSignalStream(
  baseUrl: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<SignalStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/signals`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            const at = line.indexOf(':');
            if (at > 0) fields[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '');
          }
          if (fields.data === undefined) continue;
          events.push({ id: fields.id ?? '', event: fields.event ?? '', data: JSON.parse(fields.data) });
          for (const wake of [...waiters]) wake();
        }
      }
    } catch {
      // Aborted by close(), or the server went away.
    }
  })();
  return {
    status: response.status,
    events,
    waitForEvents(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (events.length < count) return;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(events.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`stream: ${events.length} of ${count} events after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
        wake();
      });
    },
    close: () => controller.abort(),
  };
}

/** Every event GET /signals lists for the token's account, oldest first, following the cursor. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
export async function listAllSignals(baseUrl: string, token: string, after?: number): Promise<any[]> {
  const all: unknown[] = [];
  let path = `/api/v1/signals?limit=100${after === undefined ? '' : `&after=${after}`}`;
  for (;;) {
    const page = await call(baseUrl, 'GET', path, { token });
    if (page.status !== 200) throw new Error(`GET ${path}: ${page.status} ${page.text}`);
    all.push(...page.json.data);
    if (page.json.nextCursor === null) return all as never[];
    path = `/api/v1/signals?limit=100&cursor=${encodeURIComponent(page.json.nextCursor)}`;
  }
}

/** What `populate` made, to check on a copy. */
export interface Populated {
  projectId: string;
  issueIds: string[];
  webhookId: string;
  webhookSecret: string;
}

/** Makes a row of every family through the API, and a `*` webhook subscription to `hookUrl` first. */
export async function populate(baseUrl: string, token: string, hookUrl: string): Promise<Populated> {
  const post = async (path: string, body: unknown) => {
    const answer = await call(baseUrl, 'POST', `/api/v1${path}`, { token, body });
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${answer.text}`);
    return answer.json;
  };
  const webhook = await post('/webhooks', { url: hookUrl, eventTypes: ['*'] });
  const project = await post('/projects', { name: 'Apollo', key: 'APO' });
  const outcome = await post('/outcomes', { projectId: project.id, title: 'Faster checkout' });
  const issues = [
    await post('/issues', { projectId: project.id, title: 'Login fails', outcomeId: outcome.id }),
    await post('/issues', { projectId: project.id, title: 'Slow search', labels: ['search'] }),
  ];
  await post('/context', { outcomeId: outcome.id, kind: 'note', title: 'Notes', body: 'Pay in one step' });
  await post('/decisions', { projectId: project.id, title: 'Use PostgreSQL', rationale: 'Several servers' });
  await post('/time-entries', { outcomeId: outcome.id, minutes: 45, date: '2026-11-20' });
  const patched = await call(baseUrl, 'PATCH', `/api/v1/issues/${issues[0].id}`, {
    token,
    body: { severity: 'critical' },
    headers: { 'if-match': `"${issues[0].version}"` },
  });
  if (patched.status !== 200) throw new Error(`PATCH issue: ${patched.status} ${patched.text}`);
  return {
    projectId: project.id,
    issueIds: issues.map((issue) => issue.id),
    webhookId: webhook.id,
    webhookSecret: webhook.secret,
  };
}
