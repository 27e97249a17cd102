import { randomUUID } from 'node:crypto';
import http from 'node:http';

/** Posts a body in two parts on an already-open connection; resolves once the server has read the headers. */
export function slowPost(url: string, token: string, body: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  return new Promise<{ finish: () => void; response: Promise<{ status: number; body: string }> }>(
    (ready, fail) => {
      const req = http.request(target, {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': randomUUID(),
          // The server answers 100 Continue once it has parsed the headers: the request is then in flight.
          expect: '100-continue',
        },
      });
      const response = new Promise<{ status: number; body: string }>((done, lost) => {
        // A connection cut before the answer (an abrupt shutdown) fails the request.
        req.on('error', lost);
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on('end', () => {
            agent.destroy();
            done({ status: res.statusCode ?? 0, body: text });
          });
        });
      });
      req.once('error', fail);
      req.on('continue', () => {
        req.write(body.slice(0, 5));
        ready({ finish: () => req.end(body.slice(5)), response });
      });
      req.flushHeaders();
    },
  );
}
