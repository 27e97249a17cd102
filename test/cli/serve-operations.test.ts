import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { killAfterEach } from './kill-after-each.js';
import { assertBuilt, freePort, runCli, startServe, startServeJson, tempDir } from './process.js';
import { slowPost } from './slow-request.js';

beforeAll(assertBuilt);

const track = killAfterEach();

/** `--rate-limit` → `OUTCOME_TRACKER_RATE_LIMIT`. */
const variableOf = (flag: string) => `OUTCOME_TRACKER_${flag.slice(2).replaceAll('-', '_').toUpperCase()}`;

/** Reads a server-sent event stream to its end: resolves with all it sent once the server closes it. */
async function readToEnd(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

describe('outcome-tracker serve, operated as a service', () => {
  it('lists the environment variable of every flag in --help', async () => {
    const help = await runCli(['serve', '--help']);
    expect(help.code).toBe(0);
    const flagLines = help.stdout.split('\n').filter((line) => /^\s+--[a-z-]+/.test(line));
    const flags = flagLines.map((line) => /--([a-z-]+)/.exec(line)?.[0] ?? '');
    expect(flags).toContain('--rate-limit');
    expect(flags.length).toBeGreaterThan(15);
    const unlisted = flagLines.filter((line, i) => !line.includes(`[env: ${variableOf(flags[i] ?? '')}`));
    expect(unlisted).toEqual([]);
    expect(help.stdout).toContain('/docs');
    expect(help.stdout).toContain('/api/v1/openapi.json');
  });

  it('names the API reference and the OpenAPI document in its startup banner, both answering', async () => {
    const served = startServe(['--port', '0', '--db', join(tempDir(), 'tracker.db')]);
    track(served);
    const reference = await served.waitForLine((line) => line.startsWith('API reference:'));
    const document = await served.waitForLine((line) => line.startsWith('OpenAPI:'));
    const docsUrl = reference.split(/ +/).at(-1) ?? '';
    const openApiUrl = document.split(/ +/).at(-1) ?? '';
    expect(docsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs$/);
    expect(openApiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/openapi\.json$/);
    const [page, json] = await Promise.all([fetch(docsUrl), fetch(openApiUrl)]);
    expect([page.status, json.status]).toEqual([200, 200]);
    expect(((await json.json()) as { openapi: string }).openapi).toBe('3.1.1');
    expect(await page.text()).toContain('href="/docs/guide"');
  });

  it('takes port, host, database, rate limit, base path, CORS, log level and --json from the environment alone', async () => {
    const port = await freePort();
    const db = join(tempDir(), 'from-env.db');
    const served = startServe([], {
      env: {
        OUTCOME_TRACKER_PORT: String(port),
        OUTCOME_TRACKER_HOST: '127.0.0.1',
        OUTCOME_TRACKER_DB: db,
        OUTCOME_TRACKER_RATE_LIMIT: '7',
        OUTCOME_TRACKER_BASE_PATH: '/tracker/api/v1',
        OUTCOME_TRACKER_CORS: 'https://app.example.com',
        OUTCOME_TRACKER_LOG_LEVEL: 'warn',
        OUTCOME_TRACKER_JSON: '1',
      },
    });
    track(served);
    const startup = JSON.parse(await served.waitForLine((line) => line.startsWith('{')));
    expect(startup).toMatchObject({
      url: `http://127.0.0.1:${port}`,
      apiUrl: `http://127.0.0.1:${port}/tracker/api/v1`,
      docsUrl: `http://127.0.0.1:${port}/tracker/docs`,
      openApiUrl: `http://127.0.0.1:${port}/tracker/api/v1/openapi.json`,
      db,
    });
    const answer = await fetch(`${startup.apiUrl}/projects`, {
      headers: { authorization: `Bearer ${startup.init.token}`, origin: 'https://app.example.com' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('7');
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect((await fetch(startup.docsUrl)).status).toBe(200);
    expect(await served.stop('SIGTERM')).toBe(0);
    // At warn, neither the startup, the request nor the stop is logged (all three are info).
    expect(
      served.logLines.filter((line) => line.includes('"level":"info"') || line.includes('"level":30')),
    ).toEqual([]);
  });

  it('on SIGTERM ends an open event stream at once with a last comment, lets a request in flight finish, cuts one past the grace and exits 0', async () => {
    const db = join(tempDir(), 'tracker.db');
    // The flag wins over the variable: were the 30 s taken, the exit below would come far too late.
    const served = await startServeJson(['--db', db, '--shutdown-grace', '1'], {
      env: { OUTCOME_TRACKER_SHUTDOWN_GRACE: '30' },
    });
    track(served);
    const { apiUrl, init } = served.startup;
    const token = init?.token ?? '';
    const project = await fetch(`${apiUrl}/projects`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ name: 'Apollo' }),
    }).then((r) => r.json() as Promise<{ id: string }>);

    const stream = await fetch(`${apiUrl}/signals`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const streamed = readToEnd(stream);
    const body = (title: string) => JSON.stringify({ projectId: project.id, title });
    const finishing = await slowPost(`${apiUrl}/issues`, token, body('Sent before the stop'));
    const held = await slowPost(`${apiUrl}/issues`, token, body('Never finished'));
    const heldOutcome = held.response.then(
      () => 'answered',
      () => 'cut',
    );

    const signalled = Date.now();
    served.child.kill('SIGTERM');
    // The stream ends while both requests are still open: it does not wait for them, nor for the grace.
    const text = await streamed;
    expect(text.startsWith('retry:')).toBe(true);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^: /);

    finishing.finish();
    const answered = await finishing.response;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.body).title).toBe('Sent before the stop');

    expect(await served.exited).toBe(0);
    const took = Date.now() - signalled;
    // The held request kept the process up for the grace (1 s), and no longer: a wide bound below
    // the 30 s the variable asked for.
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(10_000);
    expect(await heldOutcome).toBe('cut');
    // The log stays JSON lines to the end: the request cut is no host failure printed as text.
    expect(served.logLines.filter((line) => !line.startsWith('{'))).toEqual([]);
    expect(JSON.parse(served.logLines.at(-1) ?? '{}')).toMatchObject({ msg: 'stopped' });
  });
});
