import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { urlToHttpOptions } from 'node:url';
import {
  connectTimeoutMs,
  isForbiddenAddress,
  responseBodyCaptureBytes,
  type WebhookRequest,
  type WebhookResult,
  type WebhookSender,
  withFields,
} from '../core/host.js';
import { RecentlyUsed } from './recently-used.js';
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
  const targets = new Targets();
  const agents = new ReceiverAgents({
    guarded: connectLookup(resolver, true),
    open: connectLookup(resolver, false),
  });
  return {
    resolve: async (host) => (await resolver(host)).map((a) => a.address),
    async send(request) {
      const started = performance.now();
      const finish = (answer: Answer): WebhookResult =>
        withFields(answer, { durationMs: Math.round(performance.now() - started) });
      const target = targets.of(request.url);
      if (target === null) return finish(noAnswer('invalid URL'));
      const { client } = target;
      if (!client || (target.url.protocol === 'http:' && !request.allowPrivateTargets)) {
        return finish(noAnswer('only https URLs are delivered to'));
      }
      // Node does not look up IP literals, so the lookup guard never sees them: check here.
      if (!request.allowPrivateTargets && target.literal !== null && isForbiddenAddress(target.literal)) {
        return finish(noAnswer(`refused: ${target.literal} is a private or reserved address`));
      }
      const deadline = started + request.timeoutMs;
      const agent = agents.for(target.url, !request.allowPrivateTargets);
      let answer = await post(client, target, agent, request, deadline);
      // A kept-alive socket the receiver closed as we reused it: once more on a new connection
      // (delivery is at least once, and the receiver saw no complete request on that socket).
      if (answer.staleSocket && performance.now() < deadline) {
        answer = await post(client, target, agent, request, deadline);
      }
      const { staleSocket: _, ...result } = answer;
      return finish(result);
    },
    close: () => agents.close(),
  };
}

type Answer = Omit<WebhookResult, 'durationMs'>;

/** A receiver URL, parsed once for all its deliveries. */
interface Target {
  url: URL;
  /** node:http or node:https by the URL's scheme; null for any other scheme. */
  client: typeof http | typeof https | null;
  /** The host when it is an IP address (brackets of an IPv6 one removed), else null. */
  literal: string | null;
  /** node:http's request options for the URL, as it would derive them from the URL itself. */
  options: http.RequestOptions;
}

/** Receiver URLs parsed before, the least recently used let go beyond this many. */
const targetsKept = 256;

/**
 * Parsed receiver URLs by their text: a subscription's every delivery goes to one URL, and parsing
 * it anew (and node:http turning it into options) was about a twentieth of a send's CPU.
 */
class Targets {
  private readonly known = new RecentlyUsed<string, Target | null>(targetsKept);

  /** The target of `text`, or null when it is not a URL. */
  of(text: string): Target | null {
    const known = this.known.get(text);
    if (known !== undefined) return known;
    const target = parseTarget(text);
    this.known.set(text, target);
    return target;
  }
}

function parseTarget(text: string): Target | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { url, client, literal: isIP(host) !== 0 ? host : null, options: urlToHttpOptions(url) };
}

const noAnswer = (error: string): Answer => ({ status: null, retryAfter: null, error });

/** One POST through `agent`, given up on at `deadline` (a performance.now() time). */
function post(
  client: typeof http | typeof https,
  target: Target,
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
    const req = client.request(
      withFields(target.options, {
        method: 'POST',
        headers: withFields(request.headers, { 'Content-Length': Buffer.byteLength(request.body) }),
        agent,
      }),
    );
    req.on('socket', (socket) => {
      // A new connection must be accepted (TCP and TLS) within connectTimeoutMs: a black hole
      // (SYNs dropped, a full backlog) is given up on long before the answer's deadline.
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => {
        done(noAnswer(`could not connect within ${connectTimeoutMs} ms`));
        req.destroy();
      }, connectTimeoutMs);
      socket.once(target.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
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
