import http from 'node:http';

/** Event streams held open on their own connections, counting the events they receive. */
export interface OpenStreams {
  /** Events received so far, over every stream. */
  events(): number;
  close(): void;
}

/**
 * Opens `count` `GET /signals` event streams, each on its own connection, and resolves once each
 * has received its first bytes (the `retry:` line): each is then waiting for the account's changes.
 */
export async function openStreams(apiUrl: string, token: string, count: number): Promise<OpenStreams> {
  let events = 0;
  const requests: http.ClientRequest[] = [];
  const open = () =>
    new Promise<void>((ready, fail) => {
      const request = http.get(
        `${apiUrl}/signals`,
        { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) fail(new Error(`stream answered ${response.statusCode}`));
          response.once('data', () => ready());
          response.on('data', (chunk: Buffer) => {
            events += chunk.toString().split('\nevent: ').length - 1;
          });
          // Cut by close(): nothing to report.
          response.on('error', () => {});
        },
      );
      request.on('error', fail);
      requests.push(request);
    });
  // A few at a time: a burst of hundreds of connects can overflow a small listen backlog.
  for (let i = 0; i < count; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, count - i) }, open));
  return {
    events: () => events,
    close: () => {
      for (const request of requests) request.destroy();
    },
  };
}
