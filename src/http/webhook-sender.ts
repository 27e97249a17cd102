import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { responseBodyCaptureBytes } from '../core/model.js';
import {
  connectTimeoutMs,
  type WebhookRequest,
  type WebhookResult,
  type WebhookSender,
} from '../core/webhooks/sender.js';
import { isForbiddenAddress } from '../core/webhooks/ssrf.js';
import { ReceiverAgents } from './webhook-agents.js';

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
  const agents = new ReceiverAgents({
    guarded: connectLookup(resolver, true),
    open: connectLookup(resolver, false),
  });
  return {
    resolve: async (host) => (await resolver(host)).map((a) => a.address),
    async send(request) {
      const started = performance.now();
      const finish = (answer: Answer): WebhookResult => ({
        ...answer,
        durationMs: Math.round(performance.now() - started),
      });
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return finish(noAnswer('invalid URL'));
      }
      const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
      if (!client || (url.protocol === 'http:' && !request.allowPrivateTargets)) {
        return finish(noAnswer('only https URLs are delivered to'));
      }
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      // Node does not look up IP literals, so the lookup guard never sees them: check here.
      if (!request.allowPrivateTargets && isIP(literal) !== 0 && isForbiddenAddress(literal)) {
        return finish(noAnswer(`refused: ${literal} is a private or reserved address`));
      }
      const deadline = started + request.timeoutMs;
      const agent = agents.for(url, !request.allowPrivateTargets);
      let answer = await post(client, url, agent, request, deadline);
      // A kept-alive socket the receiver closed as we reused it: once more on a new connection
      // (delivery is at least once, and the receiver saw no complete request on that socket).
      if (answer.staleSocket && performance.now() < deadline) {
        answer = await post(client, url, agent, request, deadline);
      }
      const { staleSocket: _, ...result } = answer;
      return finish(result);
    },
    close: () => agents.close(),
  };
}

type Answer = Omit<WebhookResult, 'durationMs'>;

const noAnswer = (error: string): Answer => ({ status: null, retryAfter: null, error });

/** One POST through `agent`, given up on at `deadline` (a performance.now() time). */
function post(
  client: typeof http | typeof https,
  url: URL,
  agent: http.Agent,
  request: WebhookRequest,
  deadline: number,
): Promise<Answer & { staleSocket?: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    let connectTimer: ReturnType<typeof setTimeout> | null = null;
    const timeoutMs = Math.max(1, Math.round(deadline - performance.now()));
    const done = (answer: Answer & { staleSocket?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      if (connectTimer) clearTimeout(connectTimer);
      resolve(answer);
    };
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
      agent,
    });
    req.on('socket', (socket) => {
      // A new connection must be accepted (TCP and TLS) within connectTimeoutMs: a black hole
      // (SYNs dropped, a full backlog) is given up on long before the answer's deadline.
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => {
        done(noAnswer(`could not connect within ${connectTimeoutMs} ms`));
        req.destroy();
      }, connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        if (connectTimer) clearTimeout(connectTimer);
      });
    });
    req.on('response', (res) => {
      // Whatever the status (a 3xx included: redirects are never followed), the answer is final.
      const chunks: Buffer[] = [];
      let kept = 0;
      const answered = (bodyTruncated: boolean) => {
        const retryAfter = res.headers['retry-after'];
        done({
          status: res.statusCode ?? null,
          retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          error: null,
          responseHeaders: flatHeaders(res.headers),
          responseBody: Buffer.concat(chunks).toString('utf8'),
          responseBodyTruncated: bodyTruncated,
        });
      };
      res.on('data', (chunk: Buffer) => {
        const room = responseBodyCaptureBytes - kept;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        kept += Math.min(room, chunk.length);
        // The first bytes are kept; the rest is not read (the socket is not reused).
        if (chunk.length > room) {
          answered(true);
          res.destroy();
        }
      });
      res.on('end', () => answered(false));
      // Cut off before the end (and not by us): the receiver never finished answering.
      const cutOff = () => done(noAnswer('the connection closed before the answer was complete'));
      res.on('error', cutOff);
      res.on('close', () => {
        if (!res.complete) cutOff();
      });
    });
    // The whole answer, body included, must arrive in time: a receiver that sends its status
    // and then trickles the body forever has not answered.
    const overall = setTimeout(() => {
      done(noAnswer(`no answer within ${request.timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      done({
        ...noAnswer(error.message),
        ...(req.reusedSocket && error.code === 'ECONNRESET' ? { staleSocket: true } : {}),
      }),
    );
    req.end(request.body);
  });
}

/** Response headers as one string each (repeated ones joined as HTTP allows). */
function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
