import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from '../admin/form-client.js';
import { killAfterEach } from './kill-after-each.js';
import { assertBuilt, freePort, runCli, runJson, startServe, startServeJson, tempDir } from './process.js';
import { slowPost } from './slow-request.js';

beforeAll(assertBuilt);

const track = killAfterEach();

/** The parsed body of a response. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
const bodyOf = (response: Response): Promise<any> => response.json();

async function post(apiUrl: string, token: string, path: string, body: unknown) {
  const response = await fetch(`${apiUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await bodyOf(response) };
}

describe('outcome-tracker serve, as a child process over a SQLite file', () => {
  it.each(['node', 'hono'])(
    'serves the API through the %s host on a database made by init, and drains a request in flight on SIGTERM before exiting 0',
    async (host) => {
      const db = join(tempDir(), 'tracker.db');
      const init = await runJson([
        'init',
        '--workspace',
        'acme',
        '--admin-email',
        'ada@acme.test',
        '--db',
        db,
      ]);
      expect(Object.keys(init).sort()).toEqual([
        'accountId',
        'token',
        'userId',
        'workspaceId',
        'workspaceSlug',
      ]);

      const served = track(await startServeJson(['--server', host, '--db', db]));
      expect(served.startup.init).toBeNull();
      expect(served.startup.server).toBe(host);
      const { apiUrl } = served.startup;
      const project = await post(apiUrl, init.token, '/projects', { name: 'Apollo' });
      expect(project.status).toBe(201);
      expect(project.json.key).toBe('APO');
      const issue = await post(apiUrl, init.token, '/issues', {
        projectId: project.json.id,
        title: 'Launch',
      });
      expect(issue.status).toBe(201);
      expect(issue.json.key).toBe('APO-1');

      const inFlight = await slowPost(
        `${apiUrl}/issues`,
        init.token,
        JSON.stringify({ projectId: project.json.id, title: 'Sent while stopping' }),
      );
      served.child.kill('SIGTERM');
      await served.waitForLogLine((line) => line.includes('"signal":"SIGTERM"'));
      inFlight.finish();
      const answered = await inFlight.response;
      expect(answered.status).toBe(201);
      expect(JSON.parse(answered.body).key).toBe('APO-2');
      expect(await served.exited).toBe(0);
      expect(
        JSON.parse(served.logLines.at(-1) ?? '{}'),
        `the last log lines:\n${served.logLines.slice(-3).join('\n')}`,
      ).toMatchObject({ level: 'info', msg: 'stopped' });
      // With --json, stdout holds one JSON object from start to stop; the log went to stderr.
      expect(served.lines).toHaveLength(1);
      expect(JSON.parse(served.lines.join('\n'))).toEqual(served.startup);
      expect(served.logLines.filter((line) => line.includes('"path":"/api/v1/issues"'))).toHaveLength(2);
    },
  );

  it('on a fresh database creates the default workspace and prints a working token and the sign-in URL', async () => {
    const db = join(tempDir(), 'fresh.db');
    const served = track(startServe(['--port', '0', '--db', db]));
    // The hint to set the admin's password is the last line of the startup, the command as it was
    // started here (the CLI is not on this shell's PATH).
    const hint = await served.waitForLine((line) =>
      line.includes('node dist/cli/main.js users set-password --email admin@localhost --password-stdin'),
    );
    const token = /cn_[0-9A-Za-z_]+/.exec(served.lines.join('\n'))?.[0] ?? '';
    const apiUrl = /http:\S+\/api\/v1/.exec(served.lines.join('\n'))?.[0] ?? '';
    const signIn = served.lines.find((line) => line.startsWith('Admin sign-in:'));
    expect(signIn).toMatch(/^Admin sign-in: +http:\/\/127\.0\.0\.1:\d+\/sign-in$/);
    const adminLine = served.lines.find((line) => line.startsWith('Admin page:'));
    expect(adminLine).toMatch(/^Admin page: +http:\/\/127\.0\.0\.1:\d+\/default\/admin\/api-tokens$/);
    // Signed out, the admin page sends the browser to the sign-in page.
    const adminPage = await fetch(adminLine?.split(/ +/).at(-1) ?? '', { redirect: 'manual' });
    expect(adminPage.status).toBe(303);
    expect(adminPage.headers.get('location')).toMatch(/^\/sign-in\?next=/);
    expect((await post(apiUrl, token, '/projects', { name: 'First' })).status).toBe(201);

    // The printed hint, run as written (no --db of ours, no $OUTCOME_TRACKER_DB), sets the password
    // of the admin it names, who can then sign in at the printed sign-in URL.
    const hintArgs = (hint.split('node dist/cli/main.js ').at(-1) ?? '').split(' ');
    const setPassword = await runCli(hintArgs, { stdin: 'first-run password\n', cwd: tempDir() });
    expect(setPassword.stderr).toBe('');
    expect(setPassword.code).toBe(0);
    const browser = new FormClient(
      signIn
        ?.split(/ +/)
        .at(-1)
        ?.replace(/\/sign-in$/, '') ?? '',
    );
    const signedIn = await browser.signIn(
      'admin@localhost',
      'first-run password',
      '/default/admin/api-tokens',
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/default/admin/api-tokens');
    expect((await browser.get('/default/admin/api-tokens')).status).toBe(200);

    // Started again on the same file, it creates nothing and prints no token.
    expect(await served.stop()).toBe(0);
    const again = track(await startServeJson(['--db', db]));
    expect(again.startup.init).toBeNull();
    expect(again.startup.adminUrl).toBeNull();
    expect(again.lines.join('\n')).not.toContain('cn_');
    const list = await fetch(`${again.startup.apiUrl}/projects`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await bodyOf(list)).total).toBe(1);
  });

  it("with --json on a fresh database prints one object: the URLs, the admin page and init's object", async () => {
    const served = track(await startServeJson(['--db', join(tempDir(), 'fresh.db')]));
    const { startup } = served;
    expect(Object.keys(startup).sort()).toEqual([
      'adminUrl',
      'apiUrl',
      'db',
      'docsUrl',
      'init',
      'openApiUrl',
      'server',
      'signInUrl',
      'url',
    ]);
    expect(startup.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(startup.apiUrl).toBe(`${startup.url}/api/v1`);
    expect(startup.docsUrl).toBe(`${startup.url}/docs`);
    expect(startup.openApiUrl).toBe(`${startup.url}/api/v1/openapi.json`);
    expect(startup.signInUrl).toBe(`${startup.url}/sign-in`);
    expect(startup.adminUrl).toBe(`${startup.url}/default/admin/api-tokens`);
    expect(startup.server).toBe('node');
    expect(Object.keys(startup.init ?? {}).sort()).toEqual([
      'accountId',
      'token',
      'userId',
      'workspaceId',
      'workspaceSlug',
    ]);
    expect(startup.init?.workspaceSlug).toBe('default');
    expect(startup.init?.token).toMatch(/^cn_[0-9A-Za-z_]{32,}$/);
  });

  it('a port in use fails with exit 1 before a fresh database is made, so the next start still bootstraps it', async () => {
    const blocker = track(await startServeJson(['--db', join(tempDir(), 'blocker.db')]));
    const port = new URL(blocker.startup.url).port;
    const db = join(tempDir(), 'data', 'fresh.db');
    const refused = startServe(['--port', port, '--db', db]);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toBe(
      `outcome-tracker serve: port ${port} on 127.0.0.1 is already in use (pass --port)`,
    );
    expect(refused.lines).toEqual([]);
    expect(existsSync(db)).toBe(false);

    const served = track(await startServeJson(['--db', db]));
    expect(served.startup.init?.workspaceSlug).toBe('default');
  });

  it('a token revoked with the CLI gets 401 from the running server at once', async () => {
    const db = join(tempDir(), 'tracker.db');
    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', db]);
    const args = ['tokens', 'create', '--workspace', 'acme', '--user', 'ada@acme.test', '--name', 'ci'];
    const created = await runJson([...args, '--scope', 'read', '--db', db]);
    const served = track(await startServeJson(['--db', db]));
    const get = () =>
      fetch(`${served.startup.apiUrl}/issues`, { headers: { authorization: `Bearer ${created.token}` } });
    expect((await get()).status).toBe(200);

    const listed = await runJson(['tokens', 'list', '--workspace', 'acme', '--db', db]);
    const ci = listed.data.find((t: { id: string }) => t.id === created.id);
    expect(ci.lastUsedAt).toMatch(/Z$/);
    const revoked = await runJson(['tokens', 'revoke', created.id, '--db', db]);
    expect(revoked).toEqual({ ...ci, revokedAt: expect.stringMatching(/Z$/) });

    const after = await get();
    expect(after.status).toBe(401);
    expect((await bodyOf(after)).error).toBe('unauthorized');
  });

  it('a user made with users create gets a token with tokens create --user that writes as a member', async () => {
    const db = join(tempDir(), 'tracker.db');
    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', db]);
    const user = await runJson([
      ...['users', 'create', '--workspace', 'acme', '--email', 'bo@acme.test', '--role', 'member'],
      ...['--db', db],
    ]);
    expect(user).toMatchObject({ email: 'bo@acme.test', role: 'member' });
    const token = await runJson([
      ...['tokens', 'create', '--workspace', 'acme', '--user', 'bo@acme.test', '--name', 'bo'],
      ...['--scope', 'read_write', '--db', db],
    ]);
    const served = track(await startServeJson(['--db', db]));
    const project = await post(served.startup.apiUrl, token.token, '/projects', { name: 'Bo project' });
    expect(project.status).toBe(201);
    const signals = await fetch(`${served.startup.apiUrl}/signals`, {
      headers: { authorization: `Bearer ${token.token}` },
    });
    // Signals need the admin role: the token acts as the member it was issued for.
    expect(signals.status).toBe(403);
  });

  it('takes the port from $PORT and the database from $OUTCOME_TRACKER_DB', async () => {
    const dir = tempDir();
    const db = join(dir, 'from-env.db');
    const port = await freePort();
    const served = track(startServe(['--json'], { env: { PORT: String(port), OUTCOME_TRACKER_DB: db } }));
    const startup = JSON.parse(await served.waitForLine((line) => line.startsWith('{"url"')));
    expect(startup.url).toBe(`http://127.0.0.1:${port}`);
    expect(startup.db).toBe(db);
    expect(existsSync(db)).toBe(true);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('logs one line per request with method, path, status and request id, and never the token or the query', async () => {
    const db = join(tempDir(), 'tracker.db');
    const served = track(startServe(['--port', '0', '--db', db]));
    const token =
      /cn_[0-9A-Za-z_]+/.exec(await served.waitForLine((line) => line.includes('cn_')))?.[0] ?? '';
    const apiUrl = /http:\S+\/api\/v1/.exec(served.lines.join('\n'))?.[0] ?? '';
    const response = await fetch(`${apiUrl}/issues?q=secret-query-text`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-log-test-1' },
    });
    expect(response.status).toBe(200);
    const line = await served.waitForLogLine((l) => l.includes('req-log-test-1'));
    expect(JSON.parse(line)).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z$/),
      method: 'GET',
      path: '/api/v1/issues',
      status: 200,
      durationMs: expect.any(Number),
      requestId: 'req-log-test-1',
      msg: 'request',
    });
    expect(served.logLines.join('\n')).not.toContain(token);
    expect(served.logLines.join('\n')).not.toContain('secret-query-text');
    // The log is on stderr: stdout keeps the startup only.
    expect(served.lines.join('\n')).not.toContain('req-log-test-1');
  });

  it('logs every webhook attempt with its delivery, status and outcome', async () => {
    const receiver = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
    try {
      const { port } = receiver.address() as { port: number };
      const db = join(tempDir(), 'tracker.db');
      const served = track(await startServeJson(['--db', db, '--allow-private-webhooks']));
      const token = served.startup.init?.token ?? '';
      const hook = await post(served.startup.apiUrl, token, '/webhooks', {
        url: `http://127.0.0.1:${port}/hooks`,
        eventTypes: ['project.created'],
      });
      expect(hook.status).toBe(201);
      expect((await post(served.startup.apiUrl, token, '/projects', { name: 'Logged' })).status).toBe(201);
      const line = JSON.parse(await served.waitForLogLine((l) => l.includes('"webhook attempt"')));
      expect(line).toMatchObject({
        level: 'info',
        msg: 'webhook attempt',
        subscriptionId: (hook.json as { id: string }).id,
        eventType: 'project.created',
        attempt: 1,
        status: 204,
        outcome: 'delivered',
      });
    } finally {
      await new Promise((closed) => receiver.close(closed));
    }
  });

  it('serves through the Hono host with --server hono, and stops on SIGINT with exit 0', async () => {
    const db = join(tempDir(), 'tracker.db');
    const served = track(await startServeJson(['--server', 'hono', '--db', db]));
    expect(served.startup.server).toBe('hono');
    const token = served.startup.init?.token ?? '';
    const project = await post(served.startup.apiUrl, token, '/projects', { name: 'Hono served' });
    expect(project.status).toBe(201);
    const health = await fetch(`${served.startup.url}/healthz`);
    expect(await bodyOf(health)).toEqual({ status: 'ok' });
    expect(await served.stop('SIGINT')).toBe(0);
    expect(JSON.parse(served.logLines.at(-1) ?? '{}')).toMatchObject({ level: 'info', msg: 'stopped' });
  });

  it('runs the webhook dispatcher, delivering to a local receiver only with --allow-private-webhooks', async () => {
    const deliveries: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    let delivered: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body });
        res.writeHead(204).end();
        delivered();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    const hook = { url: `http://127.0.0.1:${port}/hook`, eventTypes: ['project.created'] };
    try {
      const guarded = track(await startServeJson(['--db', join(tempDir(), 'guarded.db')]));
      const refused = await post(
        guarded.startup.apiUrl,
        guarded.startup.init?.token ?? '',
        '/webhooks',
        hook,
      );
      expect(refused.status).toBe(400);

      const open = track(
        await startServeJson(['--allow-private-webhooks', '--db', join(tempDir(), 'open.db')]),
      );
      const token = open.startup.init?.token ?? '';
      expect((await post(open.startup.apiUrl, token, '/webhooks', hook)).status).toBe(201);
      const project = await post(open.startup.apiUrl, token, '/projects', { name: 'Hooked' });
      await arrived;
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]?.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const event = JSON.parse(deliveries[0]?.body ?? '{}');
      expect(event.type).toBe('project.created');
      expect(event.data.object.id).toBe(project.json.id);
    } finally {
      receiver.close();
    }
  });

  it('applies --rate-limit per token: the request over the limit gets 429', async () => {
    const db = join(tempDir(), 'tracker.db');
    const served = track(await startServeJson(['--rate-limit', '3', '--db', db]));
    const headers = { authorization: `Bearer ${served.startup.init?.token}` };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await fetch(`${served.startup.apiUrl}/issues`, { headers })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
