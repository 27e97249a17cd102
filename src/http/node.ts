import type { IncomingMessage, ServerResponse } from 'node:http';
import { maxBodyBytes, type Tracker } from '../core/index.js';
import { readCapped } from './read-capped.js';

/** A `node:http` request listener serving the tracker: `http.createServer(nodeHandler(tracker))`. */
export function nodeHandler(tracker: Tracker): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void respond(tracker, req, res).catch((error: unknown) => {
      // Only a failure to read the socket gets here: the core answers its own errors.
      console.error('[outcome-tracker] node host failed:', error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/problem+json' });
      res.end();
    });
  };
}

async function respond(tracker: Tracker, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Read before the body: stopping an oversized body early detaches the socket from the request.
  const clientAddress = req.socket.remoteAddress ?? 'unknown';
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  const body = await readCapped(req, maxBodyBytes);
  const response = await tracker.handle({
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers: req.headers,
    body,
    clientAddress,
    secure,
  });
  // Closing after an unread oversized body keeps its remainder from being parsed as a request.
  if (!req.readableEnded) res.setHeader('Connection', 'close');
  res.writeHead(response.status, response.headers);
  if (response.stream) return pipeStream(response.stream, res);
  res.end(response.body ?? undefined);
}

/** Writes a streamed body until it ends or the client goes away, then stops the stream. */
async function pipeStream(stream: AsyncIterable<string>, res: ServerResponse): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  res.on('close', () => void iterator.return?.());
  res.flushHeaders();
  for (;;) {
    const next = await iterator.next();
    if (next.done || res.destroyed) break;
    res.write(next.value);
  }
  await iterator.return?.();
  res.end();
}

export {
  type NodeWebhookSenderOptions,
  nodeWebhookSender,
  type ResolvedAddress,
  type Resolver,
} from './webhook-sender.js';
