import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookRequest, WebhookSender } from '../../src/core/index.js';
import { createDispatcher } from '../../src/core/webhooks/dispatcher.js';
import { signatureHeaderValue } from '../../src/core/webhooks/signature.js';
import { startServer, type TestServer } from '../http/harness.js';
import {
  type GuideExample,
  guideExamples,
  headerMismatch,
  httpBlocks,
  mismatches,
  Variables,
} from './guide-examples.js';

const guide = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const examples = guideExamples(guide);

/** The fenced js block under "Verifying a delivery", run as written. */
async function loadVerify() {
  const source = guide.match(/### Verifying a delivery\n\n```js\n([\s\S]*?)```/)?.[1];
  if (!source) throw new Error('docs/api.md has no js block under "Verifying a delivery"');
  const module = `${source}\nexport { verify };\n`;
  return (await import(`data:text/javascript;base64,${Buffer.from(module).toString('base64')}`)) as {
    verify(rawBody: string, header: string, secret: string, toleranceSeconds?: number): boolean;
  };
}

describe('the examples of docs/api.md', () => {
  let s: TestServer;
  let vars: Variables;
  beforeAll(async () => {
    s = await startServer('node');
    // A token of its own for the rate-limit example, so running out does not stop the others.
    const spare = await s.issueToken(s.ws.adminUserId, 'read');
    vars = new Variables(
      {
        TOKEN: s.tokens.admin,
        READ_TOKEN: s.tokens.read.plain,
        SPARE_TOKEN: spare.plain,
        PROJECT_ID: s.ws.projectId,
      },
      // Each Idempotency-Key the guide names is a fresh UUID, the same wherever the name recurs.
      (name) => (name.startsWith('KEY') ? randomUUID() : undefined),
    );
  });
  afterAll(() => s.close());

  it('pairs every http block of the guide, and there are examples for each topic', () => {
    expect(examples.length * 2).toBe(httpBlocks(guide).length);
    const sections = new Set(examples.map((e) => e.section));
    for (const topic of [
      'Authentication',
      'Errors',
      'Pagination',
      'Idempotent creates',
      'Optimistic concurrency',
      'Rate limits',
      'Status transitions',
      'Webhooks',
      'Deliveries',
      'Signals',
    ]) {
      expect(sections, topic).toContain(topic);
    }
    expect(examples.filter((e) => e.request.sentByService)).toHaveLength(1);
  });

  // In order: later examples use what earlier answers brought ($ISSUE_ID, ETags, cursors).
  it.each(
    examples.map(
      (example) =>
        [
          `${example.request.sentByService ? 'the delivery ' : ''}${example.request.method} ${example.request.path} (docs/api.md:${example.line})`,
          example,
        ] as const,
    ),
  )('%s goes as the guide shows', async (_, example) => {
    const where = `docs/api.md:${example.line}`;
    const problems = example.request.sentByService
      ? await deliveryMismatches(example, where)
      : await exchangeMismatches(example, where);
    expect(problems, `${where} (${example.section})`).toEqual([]);
  });

  /** Sends the documented request and compares the answer with the documented one. */
  async function exchangeMismatches({ request, response }: GuideExample, where: string): Promise<string[]> {
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, vars.substitute(value, where)]),
    );
    const path = vars.substitute(request.path, where);
    const body = request.body === null ? undefined : vars.substitute(request.body, where);
    const send = () =>
      s.api(request.method, path, { headers, ...(body === undefined ? {} : { rawBody: body }) });
    for (let sent = 0; sent < request.sentBefore; sent++) {
      const before = await send();
      if (before.status >= 300)
        return [`sending it first ${request.sentBefore} times: answer ${sent + 1} was ${before.status}`];
    }
    const res = await send();
    const problems: string[] = [];
    if (res.status !== response.status)
      problems.push(`status: expected ${response.status}, got ${res.status}`);
    for (const [name, value] of Object.entries(response.headers)) {
      problems.push(...headerMismatch(name, value, res.headers.get(name), vars));
    }
    if (response.body !== undefined) problems.push(...mismatches(response.body, res.json, vars));
    else if (response.status === 204 || response.status === 304) {
      if (res.text !== '') problems.push(`body: expected none, got ${res.text}`);
    }
    return problems.map((problem) => `${problem} (the server answered ${res.status} ${res.text})`);
  }

  /**
   * Runs the webhook dispatcher over the server's storage with a receiver that records what it is
   * sent and answers with the documented status, then compares the delivery with the documented one.
   * The guide's own verification snippet must accept it with the secret the create answered.
   */
  async function deliveryMismatches({ request, response }: GuideExample, where: string): Promise<string[]> {
    const received: WebhookRequest[] = [];
    const receiver: WebhookSender = {
      send: async (delivery) => {
        received.push(delivery);
        return { status: response.status, retryAfter: null, error: null, durationMs: 1 };
      },
      resolve: async () => ['203.0.113.10'],
    };
    const dispatcher = createDispatcher({
      storage: s.storage,
      clock: s.clock,
      sender: receiver,
      allowPrivateTargets: false,
    });
    await dispatcher.dispatchDue();
    const [delivery, ...more] = received;
    if (!delivery || more.length > 0) return [`expected one delivery, the service sent ${received.length}`];
    const problems: string[] = [];
    if (request.method !== 'POST') problems.push(`method: deliveries are POSTs, not ${request.method}`);
    const path = new URL(delivery.url).pathname;
    if (path !== vars.substitute(request.path, where))
      problems.push(`path: expected ${request.path}, got ${path}`);
    const sentHeaders = new Headers(delivery.headers);
    for (const [name, value] of Object.entries(request.headers)) {
      problems.push(...headerMismatch(name, value, sentHeaders.get(name), vars));
    }
    if (request.body !== null)
      problems.push(...mismatches(JSON.parse(request.body), JSON.parse(delivery.body), vars));
    const { verify } = await loadVerify();
    const signature = sentHeaders.get('x-service-signature') ?? '';
    // The server runs on a fake clock, so the snippet's freshness check is not what is tested here.
    if (
      !verify(delivery.body, signature, vars.substitute('$WEBHOOK_SECRET', where), Number.POSITIVE_INFINITY)
    )
      problems.push('signature: the verification snippet of the guide refuses it');
    return problems.map((problem) => `${problem} (the service sent ${JSON.stringify(delivery)})`);
  }
});

describe('the signature check of docs/api.md', () => {
  const secret = `whsec_${'k'.repeat(43)}`;
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'issue.created',
    occurredAt: new Date().toISOString(),
    data: {},
  });
  const now = () => Math.floor(Date.now() / 1000);

  it("accepts the service's own signature, during a rotation too", async () => {
    const { verify } = await loadVerify();
    expect(verify(body, await signatureHeaderValue([secret], now(), body), secret)).toBe(true);
    const rotated = `whsec_${'n'.repeat(43)}`;
    const both = await signatureHeaderValue([rotated, secret], now(), body);
    expect(verify(body, both, secret)).toBe(true);
    expect(verify(body, both, rotated)).toBe(true);
  });

  it('refuses another body, another secret and an old timestamp', async () => {
    const { verify } = await loadVerify();
    const header = await signatureHeaderValue([secret], now(), body);
    expect(verify(`${body} `, header, secret)).toBe(false);
    expect(verify(body, header, `whsec_${'x'.repeat(43)}`)).toBe(false);
    expect(verify(body, await signatureHeaderValue([secret], now() - 301, body), secret)).toBe(false);
  });
});
