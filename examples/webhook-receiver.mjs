// A webhook receiver for outcome-tracker, with nothing but node:http and node:crypto.
//
//   WEBHOOK_SECRET=whsec_… PORT=4242 node examples/webhook-receiver.mjs
//
// It verifies each delivery's X-Service-Signature over the raw body (constant-time), refuses
// timestamps more than five minutes old or ahead, and acts on each event id once: deliveries
// are at least once, so a retry of an event already handled is acknowledged and ignored.
// Import it to reuse `verifySignature` or `createReceiver` in your own server.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** Five minutes either way. */
export const toleranceSeconds = 300;

/**
 * Checks a delivery: `header` is X-Service-Signature (`t=<unix s>,v1=<hex>[,v1=<hex>…]`),
 * `rawBody` the exact bytes received. Returns `{ ok: true }` or `{ ok: false, reason }`.
 */
export function verifySignature({ rawBody, header, secret, nowSeconds, tolerance = toleranceSeconds }) {
  if (typeof header !== 'string') return { ok: false, reason: 'missing signature' };
  let timestamp = null;
  const signatures = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0) return { ok: false, reason: 'malformed signature' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // During a secret rotation the header carries one v1 per secret: any match will do.
  if (!signatures.some((signature) => timingSafeEqual(signature, expected))) {
    return { ok: false, reason: 'signature mismatch' };
  }
  if (nowSeconds - timestamp > tolerance) return { ok: false, reason: 'timestamp too old' };
  if (timestamp - nowSeconds > tolerance) return { ok: false, reason: 'timestamp in the future' };
  return { ok: true };
}

/**
 * A request listener that verifies deliveries and calls `onEvent(event)` once per event id.
 * `now` (milliseconds) is injectable for tests. Answers 200 to accepted and duplicate
 * deliveries, 400 to refused ones (the tracker then retries), 405 to anything but POST.
 *
 * It de-duplicates on the body's `id`, which X-Service-Event-Id repeats: the body is covered by
 * the signature and the header is not, so a replayed delivery cannot pass for a new event by
 * changing a header. A duplicate that arrives while the first is still being handled waits for
 * it, so `onEvent` never runs twice for one event, even at once.
 */
export function createReceiver({ secret, onEvent, now = () => Date.now(), maxRemembered = 100_000 }) {
  // Event ids already handled, oldest first; a real receiver would keep these in its database.
  const handled = new Set();
  // Event ids being handled now, with the handling's promise.
  const handling = new Map();

  /** Handles `event` once; resolves with whether this call did it (false: a duplicate). */
  async function once(event) {
    if (handled.has(event.id)) return false;
    const running = handling.get(event.id);
    if (running) {
      await running;
      return false;
    }
    const work = (async () => onEvent(event))();
    handling.set(event.id, work);
    try {
      await work;
      handled.add(event.id);
      if (handled.size > maxRemembered) handled.delete(handled.values().next().value);
      return true;
    } finally {
      // Not remembered when it failed: the tracker retries, and the next attempt gets another chance.
      handling.delete(event.id);
    }
  }

  const answer = (res, status, body) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

  return (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      const verdict = verifySignature({
        rawBody,
        header: req.headers['x-service-signature'],
        secret,
        nowSeconds: Math.floor(now() / 1000),
      });
      if (!verdict.ok) return answer(res, 400, { error: verdict.reason });
      let event;
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return answer(res, 400, { error: 'body is not JSON' });
      }
      if (typeof event?.id !== 'string' || event.id === '') {
        return answer(res, 400, { error: 'event without an id' });
      }
      try {
        const first = await once(event);
        answer(res, 200, first ? { received: true } : { duplicate: true });
      } catch (error) {
        console.error('[receiver] handling failed:', error);
        res.writeHead(500).end();
      }
    });
  };
}

/** Run as a program: listen on PORT (default 4242) and log each event. */
async function main() {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error('Set WEBHOOK_SECRET to the whsec_… secret the tracker returned for the subscription.');
    process.exit(1);
  }
  const server = createServer(
    createReceiver({
      secret,
      onEvent: (event) =>
        console.log(JSON.stringify({ id: event.id, type: event.type, occurredAt: event.occurredAt })),
    }),
  );
  server.listen(Number(process.env.PORT ?? 4242), process.env.HOST ?? '127.0.0.1', () => {
    const { address, port } = server.address();
    console.log(`listening on http://${address}:${port}/`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
