import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Served, type Startup, startServeJson, tempDir } from '../cli/process.js';
import { type SentCreate, streamCreates } from './create-stream.js';

beforeAll(assertBuilt);

const running: Served[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.stop('SIGKILL')));
});

/** Creates in flight at once: enough that several are mid-transaction when the signal lands. */
const inFlight = 16;

/** No rate limit (thousands of creates from one token), and only warnings in the log. */
async function serve(db: string): Promise<Served & { startup: Startup }> {
  const served = await startServeJson(['--db', db, '--rate-limit', '0', '--log-level', 'warn']);
  running.push(served);
  return served;
}

async function call(startup: Startup, method: string, path: string, init: RequestInit = {}) {
  const token = startup.init?.token ?? bootstrapToken;
  const response = await fetch(`${startup.apiUrl}${path}`, {
    ...init,
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  const json: any = await response.json();
  return { status: response.status, headers: response.headers, json };
}

/** The token a fresh database printed: a restarted server prints none. */
let bootstrapToken = '';

/** Starts a fresh database and its first project; returns the server and the project's id. */
async function freshServer() {
  const db = join(tempDir(), 'tracker.db');
  const served = await serve(db);
  bootstrapToken = served.startup.init?.token ?? '';
  const project = await call(served.startup, 'POST', '/projects', {
    body: JSON.stringify({ name: 'Apollo' }),
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(project.status).toBe(201);
  return { db, served, projectId: project.json.id as string };
}

/** Runs `fn` on up to `inFlight` items at once. */
async function eachInFlight<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** Every acknowledged issue is readable, with the key its 201 gave it. */
async function expectReadable(startup: Startup, acknowledged: SentCreate[]) {
  const missing: string[] = [];
  await eachInFlight(acknowledged, async (create) => {
    const read = await call(startup, 'GET', `/issues/${create.issue?.id}`);
    if (read.status !== 200 || read.json.key !== create.issue?.key) missing.push(create.idempotencyKey);
  });
  expect(missing).toEqual([]);
}

/**
 * Sends each lost create again with its Idempotency-Key, as a client is told to: one that had
 * committed is replayed (`200`, its first body, `Idempotent-Replayed: true`), one that had not is
 * made now (`201`). Returns how many had committed.
 */
async function resendLost(startup: Startup, lost: SentCreate[], projectId: string): Promise<number> {
  let committed = 0;
  await eachInFlight(lost, async (create) => {
    const again = await call(startup, 'POST', '/issues', {
      body: JSON.stringify({ projectId, title: create.title }),
      headers: { 'idempotency-key': create.idempotencyKey },
    });
    const replayed = again.headers.get('idempotent-replayed') === 'true';
    expect(again.status).toBe(replayed ? 200 : 201);
    if (replayed) committed++;
  });
  return committed;
}

/** The database file, checked with the server stopped. */
function inspect(db: string) {
  const reader = new Database(db);
  try {
    const integrity = reader.pragma('integrity_check', { simple: true });
    // The trigram index agrees with the issues it indexes (FTS5 raises an error otherwise).
    reader.prepare(`INSERT INTO issues_search (issues_search) VALUES ('integrity-check')`).run();
    const issues = reader.prepare('SELECT data FROM issues').pluck().all() as string[];
    const created = reader
      .prepare(`SELECT COUNT(*) FROM signals WHERE type = 'issue.created'`)
      .pluck()
      .get() as number;
    const numbers = issues.map((data) => Number((JSON.parse(data) as { key: string }).key.split('-')[1]));
    return { integrity, issues: issues.length, created, numbers: numbers.sort((a, b) => a - b) };
  } finally {
    reader.close();
  }
}

/** 1, 2, …, n: the keys a project hands out when every create that took a number committed whole. */
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** How many lost creates failed with each code, as `ECONNREFUSED 8, ECONNRESET 4`. */
function countsOf(lost: SentCreate[]): string {
  const counts = new Map<string, number>();
  for (const { failure } of lost) counts.set(failure ?? '?', (counts.get(failure ?? '?') ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code} ${n}`).join(', ');
}

/** Whether a connection failure is a clean one: refused, or reset before an answer. */
const cleanFailures = ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'];

describe('durability of serve on a SQLite file', () => {
  it('killed with SIGKILL in the middle of creates, keeps every acknowledged create and an intact file', async () => {
    const { db, served, projectId } = await freshServer();
    const stream = streamCreates(served.startup.apiUrl, bootstrapToken, projectId, inFlight);
    await stream.acknowledgedAtLeast(1_500);
    served.child.kill('SIGKILL');
    await stream.ended;
    expect(await served.exited).toBeNull();

    const acknowledged = stream.sent.filter((create) => create.status === 201);
    const lost = stream.sent.filter((create) => create.status === null);
    // Every create either got its 201 or lost its connection: a killed server answers nothing else.
    expect(acknowledged.length + lost.length).toBe(stream.sent.length);
    expect(
      lost.map((create) => create.failure).filter((code) => !cleanFailures.includes(code ?? '')),
    ).toEqual([]);

    const restarted = await serve(db);
    await expectReadable(restarted.startup, acknowledged);
    const totalAfterRestart = (await call(restarted.startup, 'GET', '/issues?limit=1')).json.total as number;
    const committedUnanswered = await resendLost(restarted.startup, lost, projectId);
    // Present after the restart: the acknowledged creates and those that committed as the
    // process died, before their answers were written. No create is half there.
    expect(totalAfterRestart).toBe(acknowledged.length + committedUnanswered);
    expect(committedUnanswered).toBeLessThanOrEqual(inFlight);
    expect(await restarted.stop()).toBe(0);

    const file = inspect(db);
    expect(file.integrity).toBe('ok');
    // After resending the lost ones, each create sent is there exactly once…
    expect(file.issues).toBe(stream.sent.length);
    // …with its event, and the project's keys run 1…n: no number was taken by a create that vanished.
    expect(file.created).toBe(file.issues);
    expect(file.numbers).toEqual(oneTo(file.issues));
    console.log(
      `SIGKILL during creates (${inFlight} in flight): ${stream.sent.length} sent, ${acknowledged.length} acknowledged, ` +
        `${totalAfterRestart} present after restart (${committedUnanswered} of ${lost.length} lost connections had committed; ${countsOf(lost)}); ` +
        `after resending the lost ones with their keys ${file.issues} present; integrity_check ${file.integrity}`,
    );
  }, 60_000);

  it('stopped with SIGTERM in the middle of creates, exits 0 having answered every create it committed', async () => {
    const { db, served, projectId } = await freshServer();
    const stream = streamCreates(served.startup.apiUrl, bootstrapToken, projectId, inFlight);
    await stream.acknowledgedAtLeast(300);
    served.child.kill('SIGTERM');
    await stream.ended;
    expect(await served.exited).toBe(0);

    const acknowledged = stream.sent.filter((create) => create.status === 201);
    const lost = stream.sent.filter((create) => create.status === null);
    // Requests in flight were answered; the rest were refused or reset before they were read.
    expect(stream.sent.filter((create) => create.status !== null && create.status !== 201)).toEqual([]);
    expect(
      lost.map((create) => create.failure).filter((code) => !cleanFailures.includes(code ?? '')),
    ).toEqual([]);
    expect(inspect(db).issues).toBe(acknowledged.length);

    const restarted = await serve(db);
    await expectReadable(restarted.startup, acknowledged);
    // None of the refused creates had committed: each is made now, none replayed.
    expect(await resendLost(restarted.startup, lost, projectId)).toBe(0);
    expect(await restarted.stop()).toBe(0);

    const file = inspect(db);
    expect(file.integrity).toBe('ok');
    expect(file.issues).toBe(stream.sent.length);
    expect(file.created).toBe(file.issues);
    expect(file.numbers).toEqual(oneTo(file.issues));
    console.log(
      `SIGTERM during creates (${inFlight} in flight): exit 0, ${stream.sent.length} sent, ${acknowledged.length} acknowledged, ` +
        `${acknowledged.length} present after the stop, ${lost.length} refused or reset (${countsOf(lost)}), ` +
        `0 of them committed; integrity_check ${file.integrity}`,
    );
  }, 60_000);
});
