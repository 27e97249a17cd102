import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { WebhookResult, WebhookSender } from '../core/webhooks/sender.js';
import { isForbiddenAddress } from '../core/webhooks/ssrf.js';

const maxResponseBytes = 64 * 1024;

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has: the system resolver unless a test injects one. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface NodeWebhookSenderOptions {
  /** Where host names are looked up, at subscription time and at every connection. Default: the OS resolver. */
  resolver?: Resolver;
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

/**
 * A connection-time lookup through `resolver` that, when `guarded`, refuses forbidden addresses.
 * Node connects to exactly the address this returns, so the check holds for the connection
 * itself: a name that resolves to a public address when the subscription is made and to
 * 127.0.0.1 at delivery (DNS rebinding) is refused.
 */
function connectLookup(resolver: Resolver, guarded: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        const allowed = guarded ? addresses.filter((a) => !isForbiddenAddress(a.address)) : addresses;
        const wanted = options.family === 4 || options.family === 6 ? options.family : null;
        const usable = wanted ? allowed.filter((a) => a.family === wanted) : allowed;
        if (usable.length === 0) {
          const reason =
            allowed.length < addresses.length
              ? `refused: ${hostname} resolves to a private or reserved address`
              : `${hostname} has no usable address`;
          return callback(Object.assign(new Error(reason), { code: 'ESSRF' }), '', 0);
        }
        if (options.all) {
          return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        }
        const first = usable[0] as ResolvedAddress;
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** Sends webhook deliveries with node:http(s): no redirects followed, 10 s budget, SSRF-guarded connections. */
export function nodeWebhookSender(options: NodeWebhookSenderOptions = {}): WebhookSender {
  const resolver = options.resolver ?? systemResolver;
  const guardedLookup = connectLookup(resolver, true);
  const openLookup = connectLookup(resolver, false);
  return {
    resolve: async (host) => (await resolver(host)).map((a) => a.address),
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
        const req = client.request(url, {
          method: 'POST',
          headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
          timeout: request.timeoutMs,
          // A fresh connection per delivery: a pooled socket would skip the lookup check.
          agent: false,
          lookup: request.allowPrivateTargets ? openLookup : guardedLookup,
        });
        req.on('response', (res) => {
          // Whatever the status (a 3xx included: redirects are never followed), the answer is final.
          const finish = () => {
            const retryAfter = res.headers['retry-after'];
            done(res.statusCode ?? null, typeof retryAfter === 'string' ? retryAfter : null, null);
          };
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            // Enough read: the status is the answer, the rest of an oversized body is not wanted.
            if (read > maxResponseBytes) {
              finish();
              res.destroy();
            }
          });
          res.on('end', finish);
          // Cut off before the end (and not by us): the receiver never finished answering.
          const cutOff = () => done(null, null, 'the connection closed before the answer was complete');
          res.on('error', cutOff);
          res.on('close', () => {
            if (!res.complete) cutOff();
          });
        });
        // The whole answer, body included, must arrive in time: a receiver that sends its
        // status and then trickles the body forever has not answered.
        const giveUp = () => {
          done(null, null, `no answer within ${request.timeoutMs} ms`);
          req.destroy();
        };
        const deadline = setTimeout(giveUp, request.timeoutMs);
        req.on('close', () => clearTimeout(deadline));
        req.on('timeout', giveUp);
        req.on('error', (error: Error) => done(null, null, error.message));
        req.end(request.body);
      }),
  };
}
