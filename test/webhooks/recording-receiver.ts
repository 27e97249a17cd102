import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the recording receiver got. */
export interface Recorded {
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local webhook receiver on 127.0.0.1 that records every request and answers the status it is
 * told (200 at first), with a header and a body the pages under test can be checked for.
 */
export async function recordingReceiver() {
  const received: Recorded[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res
        .writeHead(status, { 'content-type': 'text/plain', 'x-receiver-note': 'seen by the receiver' })
        .end(status < 300 ? 'thanks from the receiver' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Answers later requests with `next`. */
    answer: (next: number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
