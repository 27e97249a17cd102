import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { runJson } from '../cli/process.js';

/** One answer of a `serve` under test, and how long it took. */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  json: any;
  text: string;
  ms: number;
  /** When it was sent and when its answer was read (performance.now()). */
  sentAt: number;
  answeredAt: number;
  method: string;
  path: string;
}

/**
 * Sends one request. `timeoutMs` bounds the wait for the whole answer: past it the request is
 * aborted and this rejects (a server that hangs fails the test rather than stalling it).
 */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const answeredAt = performance.now();
  return {
    status: response.status,
    headers: response.headers,
    json,
    text,
    ms: answeredAt - started,
    sentAt: started,
    answeredAt,
    method,
    path,
  };
}

/** Whether an answer is one a client may retry as told: 503 with a Retry-After of whole seconds. */
export const isRetryable503 = (answer: Answer): boolean =>
  answer.status === 503 && /^\d+$/.test(answer.headers.get('retry-after') ?? '');

/**
 * Every answer a load loop got, and a check that each was 2xx or a 503 with Retry-After (and no
 * 500): what a client may be told while an account moves or a worker is away.
 */
export class Answers {
  readonly all: Answer[] = [];
  add(answer: Answer): Answer {
    this.all.push(answer);
    return answer;
  }
  count(check: (a: Answer) => boolean): number {
    return this.all.filter(check).length;
  }
  /** The answers that are neither 2xx nor a 503 with Retry-After, as lines for a failure message. */
  unexpected(): string[] {
    return this.all
      .filter((a) => !(a.status >= 200 && a.status < 300) && !isRetryable503(a))
      .map(
        (a) =>
          `${a.method} ${a.path}: ${a.status} retry-after=${a.headers.get('retry-after')} ${a.text.slice(0, 300)}`,
      );
  }
  /** How many requests were in flight at some time between `from` and `to` (performance.now()). */
  overlapping(from: number, to: number): number {
    return this.count((a) => a.sentAt < to && a.answeredAt > from);
  }
  statuses(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const a of this.all) counts[a.status] = (counts[a.status] ?? 0) + 1;
    return counts;
  }
}

/** Waits `seconds` of a Retry-After: the wait a 503 tells the client to make, not a guess of the test's. */
export const honour = (answer: Answer): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after')) * 1000));

/** An account (with its workspace and an admin token), made by `init` on `db` before any server runs. */
export interface Account {
  accountId: string;
  workspaceId: string;
  token: string;
}

export async function initAccount(db: string, slug: string): Promise<Account> {
  const made = await runJson([
    'init',
    '--db',
    db,
    '--workspace',
    slug,
    '--admin-email',
    `${slug}@example.com`,
  ]);
  return { accountId: made.accountId, workspaceId: made.workspaceId, token: made.token };
}

/** The shard of `schema.<table>` (default `accounts`) holding the account's rows, and the node it is placed on. */
export async function placementOf(
  coordinatorUrl: string,
  schema: string,
  accountId: string,
  table = 'accounts',
): Promise<{ shardId: number; host: string; port: number }> {
  const rows = await query<{ shardid: string; nodename: string; nodeport: number }>(
    coordinatorUrl,
    'SELECT p.shardid, p.nodename, p.nodeport FROM pg_dist_shard_placement p ' +
      'WHERE p.shardid = get_shard_id_for_distribution_column($1::regclass, $2::text)',
    [`"${schema}".${table}`, accountId],
  );
  const row = rows[0];
  if (!row) throw new Error(`no placement for ${accountId}`);
  return { shardId: Number(row.shardid), host: row.nodename, port: row.nodeport };
}

/** Runs `sql` on its own connection to `url`. */
export async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Every page of a list endpoint (`?limit=100`, following `nextCursor`). */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
export async function listAll(baseUrl: string, token: string, path: string): Promise<any[]> {
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await send(
      baseUrl,
      'GET',
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(page.status, page.text).toBe(200);
    items.push(...page.json.data);
    cursor = page.json.nextCursor;
  } while (cursor);
  return items;
}

/**
 * What one account's load loop did: each create it was told of (201, or its key's replay), each
 * update it was told of, with the title it set.
 */
export interface Ledger {
  created: Map<string, { id: string; number: number }>; // by Idempotency-Key
  titles: Map<string, string>; // issue id → the title of its last acknowledged update
  updates: number;
  reads: number;
}

/**
 * One client of the load: create an issue (an Idempotency-Key, sent again with the same key after
 * each 503 until answered), update it (If-Match), read it back, again and again until `stop()`
 * says so. Every answer goes to `answers`; a 503 is retried after its Retry-After; any other
 * non-2xx ends the loop (the test then reports it).
 */
export async function loadLoop(options: {
  urls: readonly string[];
  token: string;
  projectId: string;
  answers: Answers;
  ledger: Ledger;
  stop: () => boolean;
  /** Called after each completed create-update-read cycle. */
  cycled?: () => void;
  timeoutMs?: number;
}): Promise<void> {
  const { urls, token, projectId, answers, ledger } = options;
  let turn = 0;
  const base = () => urls[turn++ % urls.length] as string;
  const attempt = async (
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer | null> => {
    for (let tries = 0; tries < 120; tries++) {
      const answer = answers.add(
        await send(base(), method, path, { token, ...init, timeoutMs: options.timeoutMs }),
      );
      if (!isRetryable503(answer)) return answer.status >= 200 && answer.status < 300 ? answer : null;
      await honour(answer);
    }
    return null;
  };
  while (!options.stop()) {
    const key = randomUUID();
    const title = `Issue ${key.slice(0, 8)}`;
    const created = await attempt('POST', '/issues', {
      body: { projectId, title },
      headers: { 'idempotency-key': key },
    });
    if (!created) return;
    const issue = created.json as { id: string; number: number; version: number };
    ledger.created.set(key, { id: issue.id, number: issue.number });
    ledger.titles.set(issue.id, title);

    // The update: If-Match with the version the create answered. After a 503 the update may have
    // committed (a connection lost after its COMMIT was sent): read it, and send it again with the
    // version read only when it did not.
    const newTitle = `${title} (updated)`;
    let version = issue.version;
    for (;;) {
      const updated = await attempt('PATCH', `/issues/${issue.id}`, {
        body: { title: newTitle },
        headers: { 'if-match': `"${version}"` },
      });
      if (updated) break;
      const last = answers.all[answers.all.length - 1] as Answer;
      if (last.status !== 409) return;
      const current = await attempt('GET', `/issues/${issue.id}`, {});
      if (!current) return;
      if (current.json.title === newTitle) break;
      version = current.json.version;
    }
    ledger.titles.set(issue.id, newTitle);
    ledger.updates++;

    const read = await attempt('GET', `/issues/${issue.id}`, {});
    if (!read) return;
    expect(read.json.title).toBe(newTitle);
    ledger.reads++;
    options.cycled?.();
  }
}

export const newLedger = (): Ledger => ({ created: new Map(), titles: new Map(), updates: 0, reads: 0 });

/**
 * What must hold once the load has stopped: every acknowledged create is there with its last
 * acknowledged title; the project's numbers run 1..n without a gap, one per create; the account's
 * signals have sequences 1..m in order, and each issue's events come in the order they happened.
 */
export async function checkLedger(baseUrl: string, token: string, projectId: string, ledger: Ledger) {
  const issues = await listAll(baseUrl, token, `/issues?projectId=${projectId}`);
  const byId = new Map(issues.map((i) => [i.id as string, i]));
  for (const [key, made] of ledger.created) {
    const issue = byId.get(made.id);
    expect(issue, `acknowledged create ${key} (${made.id})`).toBeDefined();
    expect(issue.number).toBe(made.number);
    expect(issue.title).toBe(ledger.titles.get(made.id));
  }
  const numbers = issues.map((i) => i.number as number).sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  expect(numbers.length).toBe(ledger.created.size);

  const signals = await listAll(baseUrl, token, '/signals');
  const sequences = signals.map((s) => s.sequence as number);
  expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
  const seen = new Map<string, number>(); // issue id → the version of its last event
  for (const signal of signals) {
    if (signal.resource?.type !== 'issue') continue;
    const id = signal.resource.id as string;
    const version = signal.data?.object?.version as number;
    if (signal.type === 'issue.created') {
      expect(seen.has(id), `${id} created twice`).toBe(false);
      expect(version).toBe(1);
    } else {
      expect(seen.get(id), `${signal.type} of ${id} before its create`).toBeDefined();
      expect(version).toBeGreaterThan(seen.get(id) as number);
    }
    seen.set(id, version);
  }
  for (const made of ledger.created.values()) expect(seen.has(made.id), made.id).toBe(true);
}
