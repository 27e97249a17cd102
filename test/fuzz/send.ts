import { request } from 'node:http';
import type { FuzzRequest } from './request-arbitraries.js';

/** What came back for one fuzz request. */
export interface FuzzResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Whether the answer was an event stream, cut off once its headers arrived. */
  stream: boolean;
}

/** How long a request may take before it counts as a hang. */
export const hangAfterMs = 5000;

/**
 * Sends one request over a fresh connection with node:http, which puts bytes on the wire as
 * given (invalid UTF-8 bodies, junk escapes, latin1 header values) where fetch would refuse or
 * re-encode them. An event stream is read up to its headers and then closed. Rejects with a
 * "hang" error when no answer is complete within `hangAfterMs`.
 */
export function send(origin: string, req: FuzzRequest): Promise<FuzzResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      outgoing.destroy();
      reject(new Error(`hang: no complete answer within ${hangAfterMs} ms`));
    }, hangAfterMs);
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        agent: false,
      },
      (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
        }
        const status = res.statusCode ?? 0;
        if (headers.get('content-type')?.startsWith('text/event-stream')) {
          clearTimeout(timer);
          res.destroy();
          resolve({ status, headers, text: '', stream: true });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status, headers, text: Buffer.concat(chunks).toString('utf8'), stream: false });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(req.body ?? undefined);
  });
}
