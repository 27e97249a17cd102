import { lookup as dnsLookup } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { WebhookResult, WebhookSender } from '../core/webhooks/sender.js';
import { isForbiddenAddress } from '../core/webhooks/ssrf.js';

const maxResponseBytes = 64 * 1024;

/**
 * A DNS lookup that refuses forbidden addresses. Node connects to exactly the address this
 * returns, so the check holds for the connection itself: a name that resolves to a public
 * address when the subscription is made and to 127.0.0.1 at delivery (DNS rebinding) is refused.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as { address: string; family: number }[];
    const allowed = list.filter((a) => !isForbiddenAddress(a.address));
    if (allowed.length === 0) {
      const refused = Object.assign(
        new Error(`refused: ${hostname} resolves to a private or reserved address`),
        {
          code: 'ESSRF',
        },
      );
      return callback(refused, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: typeof allowed) => void)(null, allowed);
    const first = allowed[0] as { address: string; family: number };
    return callback(null, first.address, first.family);
  });
};

/** Sends webhook deliveries with node:http(s): no redirects followed, 10 s budget, SSRF-guarded connections. */
export function nodeWebhookSender(): WebhookSender {
  return {
    resolve: async (host) => (await dnsLookupAsync(host, { all: true })).map((a) => a.address),
    send: (request) =>
      new Promise<WebhookResult>((resolve) => {
        const started = performance.now();
        const done = (status: number | null, retryAfter: string | null, error: string | null) =>
          resolve({ status, retryAfter, error, durationMs: Math.round(performance.now() - started) });
        let url: URL;
        try {
          url = new URL(request.url);
        } catch {
          return done(null, null, 'invalid URL');
        }
        const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
        if (!client || (url.protocol === 'http:' && !request.allowPrivateTargets)) {
          return done(null, null, 'only https URLs are delivered to');
        }
        const literal = url.hostname.replace(/^\[|\]$/g, '');
        // Node does not look up IP literals, so the lookup guard never sees them: check here.
        if (!request.allowPrivateTargets && isIP(literal) !== 0 && isForbiddenAddress(literal)) {
          return done(null, null, `refused: ${literal} is a private or reserved address`);
        }
        const req = client.request(
          url,
          {
            method: 'POST',
            headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
            timeout: request.timeoutMs,
            // A fresh connection per delivery: a pooled socket would skip the lookup check.
            agent: false,
            ...(request.allowPrivateTargets ? {} : { lookup: guardedLookup }),
          },
          (res) => {
            let read = 0;
            res.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (read > maxResponseBytes) res.destroy();
            });
            const finish = () => {
              const retryAfter = res.headers['retry-after'];
              done(res.statusCode ?? null, typeof retryAfter === 'string' ? retryAfter : null, null);
            };
            res.on('end', finish);
            res.on('close', finish);
          },
        );
        const deadline = setTimeout(
          () => req.destroy(new Error(`no answer within ${request.timeoutMs} ms`)),
          request.timeoutMs,
        );
        req.on('close', () => clearTimeout(deadline));
        req.on('timeout', () => req.destroy(new Error(`no answer within ${request.timeoutMs} ms`)));
        req.on('error', (error: Error) => done(null, null, error.message));
        req.end(request.body);
      }),
  };
}
